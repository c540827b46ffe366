/**
 * Where each entry goes on screen, as pure functions: the days an occurrence covers (all-day
 * ones by their UTC date, which no browser zone shifts; timed ones by the browser's clock), the
 * bars of a week (sprints, all-day and multi-day entries) packed into rows that never overlap,
 * timed events placed by their local time and put side by side where they overlap, a day's list,
 * the agenda's days (a span once), an entry's label and color, the legend of colors, and the
 * optimistic move of an item to another day.
 */
import type { CalendarSource, Occurrence } from "../../shared/api/types.generated";
import { addDays, dayOfLocal, dayOfUtc, daysBetween, type Day } from "./days";

/** An account calendar without a color of its own. */
export const NEUTRAL_COLOR = "#64748b";

/** An occurrence with the days it covers, both included. */
export interface Entry {
  occ: Occurrence;
  first: Day;
  last: Day;
}

export function toEntry(occ: Occurrence): Entry {
  const start = new Date(occ.start);
  const end = new Date(occ.end);
  if (occ.allDay) {
    const first = dayOfUtc(start);
    // The end is exclusive: midnight UTC after the last day.
    const last = dayOfUtc(new Date(end.getTime() - 1));
    return { occ, first, last: last < first ? first : last };
  }
  const first = dayOfLocal(start);
  const last = end.getTime() > start.getTime() ? dayOfLocal(new Date(end.getTime() - 1)) : first;
  return { occ, first, last };
}

/** Drawn as a bar across its days (the all-day row) rather than at a time of day. */
export function isBar(entry: Entry): boolean {
  return entry.occ.allDay || entry.occ.source.kind === "sprint" || entry.first !== entry.last;
}

export function colorOf(source: CalendarSource): string {
  return source.color ?? NEUTRAL_COLOR;
}

export const isAccountEvent = (occ: Occurrence) => occ.source.kind === "caldav" || occ.source.kind === "ics";

/** A bar in a week: columns 0–6 of the week's days (both included) and its row. */
export interface Bar {
  entry: Entry;
  startCol: number;
  endCol: number;
  lane: number;
  /** It began before the first day shown, or goes on after the last. */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

/** Sprints first, then all-day entries, each by title: the order of bars that start together. */
const kindRank = (entry: Entry) => (entry.occ.source.kind === "sprint" ? 0 : entry.occ.allDay ? 1 : 2);

/**
 * The bars of `entries` that touch `days` (consecutive days, a week), each in the first row
 * free over all of its days: earlier starts first, and of those the longer, so a sprint keeps
 * the top row and the rows stay few.
 */
export function layoutBars(entries: readonly Entry[], days: readonly Day[]): { bars: Bar[]; lanes: number } {
  const first = days[0];
  if (first === undefined) return { bars: [], lanes: 0 };
  const lastCol = days.length - 1;
  const clipped = entries
    .filter(isBar)
    .map((entry) => ({ entry, from: daysBetween(first, entry.first), to: daysBetween(first, entry.last) }))
    .filter(({ from, to }) => to >= 0 && from <= lastCol)
    .sort(
      (a, b) =>
        a.from - b.from ||
        b.to - b.from - (a.to - a.from) ||
        kindRank(a.entry) - kindRank(b.entry) ||
        a.entry.occ.title.localeCompare(b.entry.occ.title) ||
        a.entry.occ.uid.localeCompare(b.entry.occ.uid),
    );
  const laneEnds: number[] = [];
  const bars = clipped.map(({ entry, from, to }) => {
    const startCol = Math.max(0, from);
    const endCol = Math.min(lastCol, to);
    let lane = laneEnds.findIndex((end) => end < startCol);
    if (lane === -1) {
      lane = laneEnds.length;
      laneEnds.push(endCol);
    } else {
      laneEnds[lane] = endCol;
    }
    return { entry, startCol, endCol, lane, continuesBefore: from < 0, continuesAfter: to > lastCol };
  });
  return { bars, lanes: laneEnds.length };
}

/** The timed (not bar) entries on `day`, earliest first. */
export function timedOn(entries: readonly Entry[], day: Day): Entry[] {
  return entries
    .filter((e) => !isBar(e) && e.first === day)
    .sort((a, b) => a.occ.start.localeCompare(b.occ.start) || a.occ.title.localeCompare(b.occ.title));
}

/** A timed event in a day's column: minutes from the day's local midnight, and its share of the width. */
export interface TimedSlot {
  entry: Entry;
  top: number;
  height: number;
  column: number;
  columns: number;
}

const MINUTES_IN_DAY = 24 * 60;

function localMinutes(date: Date): number {
  return date.getHours() * 60 + date.getMinutes();
}

/**
 * The timed entries of one day placed at their local time. An event is drawn at least
 * `minMinutes` tall, so one too short to read takes that room, and events that overlap
 * (by that room) share the width in columns.
 */
export function layoutTimed(entries: readonly Entry[], day: Day, minMinutes = 30): TimedSlot[] {
  const placed = timedOn(entries, day).map((entry) => {
    const start = new Date(entry.occ.start);
    const end = new Date(entry.occ.end);
    const top = Math.min(localMinutes(start), MINUTES_IN_DAY - minMinutes);
    const endMinutes = dayOfLocal(end) > day ? MINUTES_IN_DAY : localMinutes(end);
    const height = Math.max(minMinutes, endMinutes - top);
    return { entry, top, height, column: 0, columns: 1 };
  });
  let cluster: TimedSlot[] = [];
  let clusterEnd = -1;
  const columnEnds: number[] = [];
  const close = () => {
    for (const slot of cluster) slot.columns = columnEnds.length;
    cluster = [];
    columnEnds.length = 0;
  };
  for (const slot of placed) {
    if (slot.top >= clusterEnd) close();
    let column = columnEnds.findIndex((end) => end <= slot.top);
    if (column === -1) {
      column = columnEnds.length;
      columnEnds.push(0);
    }
    columnEnds[column] = slot.top + slot.height;
    slot.column = column;
    cluster.push(slot);
    clusterEnd = Math.max(clusterEnd, slot.top + slot.height);
  }
  close();
  return placed;
}

/** Over more than one day: the agenda lists it once, not on each of its days. */
export function isSpan(entry: Entry): boolean {
  return entry.first !== entry.last;
}

/** The order of a day's entries: bars (sprints, all-day, multi-day) first, then by start, then by title. */
function dayOrder(a: Entry, b: Entry): number {
  return (
    Number(!isBar(a)) - Number(!isBar(b)) ||
    kindRank(a) - kindRank(b) ||
    a.occ.start.localeCompare(b.occ.start) ||
    a.occ.title.localeCompare(b.occ.title) ||
    a.occ.uid.localeCompare(b.occ.uid)
  );
}

/** Everything on `day`, whatever its kind, in the day's order: the list "+N more" opens. */
export function entriesOn(entries: readonly Entry[], day: Day): Entry[] {
  return entries.filter((e) => e.first <= day && day <= e.last).sort(dayOrder);
}

/**
 * The agenda: each of `days` with what happens on it, empty days left out. An entry over several
 * days (a sprint, a conference) is listed once, on the first of `days` it covers, rather than
 * repeated on each: a fortnight's sprints would otherwise open every day.
 */
export function agendaGroups(entries: readonly Entry[], days: readonly Day[]): { day: Day; entries: Entry[] }[] {
  const first = days[0];
  if (first === undefined) return [];
  return days
    .map((day) => ({
      day,
      entries: entriesOn(entries, day).filter((e) => !isSpan(e) || (e.first < first ? first : e.first) === day),
    }))
    .filter((group) => group.entries.length > 0);
}

/** What a chip shows: a sprint with its board ("Sprint 6 · Platform"), since boards reuse sprint names. */
export function entryLabel(occ: Occurrence): string {
  if (occ.source.kind === "sprint") return `${occ.source.sprint} · ${occ.source.board}`;
  return occ.title.trim() || "(untitled)";
}

/** One color of the legend: a board (its items and sprints) or an account's calendar. */
export interface LegendRow {
  key: string;
  name: string;
  color: string;
}

/** The colors on screen and whose they are, each once, by name. */
export function legendOf(occs: readonly Occurrence[]): LegendRow[] {
  const rows = new Map<string, LegendRow>();
  for (const { source } of occs) {
    const row =
      source.kind === "item" || source.kind === "sprint"
        ? { key: `board:${source.boardId}`, name: source.board, color: source.color }
        : {
            key: `calendar:${source.accountId}:${source.calendar}`,
            name: source.calendar === source.account ? source.calendar : `${source.calendar} (${source.account})`,
            color: colorOf(source),
          };
    if (!rows.has(row.key)) rows.set(row.key, row);
  }
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
}

/**
 * The list with the item entry `uid` moved to `day`, as the server will show it once the write
 * lands: all-day from midnight UTC of that day, as many days as before.
 */
export function moveEntry(occs: readonly Occurrence[], uid: string, day: Day): Occurrence[] {
  return occs.map((occ) => {
    if (occ.uid !== uid) return occ;
    const entry = toEntry(occ);
    const length = daysBetween(entry.first, entry.last) + 1;
    return { ...occ, start: `${day}T00:00:00.000Z`, end: `${addDays(day, length)}T00:00:00.000Z` };
  });
}

/** The column (0 … count−1) under a pointer at `x` in a row of `count` equal columns from `left`, `width` wide. */
export function columnAt(x: number, left: number, width: number, count: number): number {
  if (width <= 0 || count <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.floor(((x - left) / width) * count)));
}

/** A key unique per occurrence: a series repeats its `uid`, never at the same start. */
export const entryKey = (occ: Occurrence) => `${occ.uid}@${occ.start}`;

/**
 * What fits where, as pure functions: how tall a month's week is so the month fits the window,
 * how many lines of entries that leaves a day, which entries a week shows and each day's
 * "+N more" beyond them, the dots and count of a day on a phone, the day a phone's list opens
 * on, the view the page opens in, and the hour the week's hours open at.
 */
import type { CalendarView, Day } from "./days";
import { colorOf, entriesOn, layoutBars, timedOn, type Bar, type Entry } from "./placement";

/** A phone's width: the page opens in Agenda, and the month and week show days as dots. */
export const NARROW_QUERY = "(max-width: 640px)";

/** Pixels of a week's day-number line in the month. */
export const NUMBER_PX = 22;
/** Pixels of one line of entries: an entry and the gap under it. */
export const LINE_PX = 20;
/** A week's room under its lines (padding and border). */
const ROW_CHROME_PX = 8;
/** The least lines a week keeps, however short the window: below this the page scrolls. */
const MIN_LINES = 3;
export const MIN_ROW_PX = NUMBER_PX + MIN_LINES * LINE_PX + ROW_CHROME_PX;

/** A week's height in the month: the room left in the window shared by the weeks, never less than three lines. */
export function monthRowPx(available: number, weeks: number): number {
  if (weeks <= 0) return MIN_ROW_PX;
  return Math.max(MIN_ROW_PX, Math.floor(available / weeks));
}

/** The lines of entries a week of `rowPx` holds under its day numbers. */
export function linesThatFit(rowPx: number): number {
  return Math.max(MIN_LINES, Math.floor((rowPx - NUMBER_PX - ROW_CHROME_PX) / LINE_PX));
}

/** A timed entry on its day's line. */
export interface TimedLine {
  entry: Entry;
  col: number;
  lane: number;
}

/** The "+N more" of a day: on its column, at the last line, counting what is not shown. */
export interface More {
  day: Day;
  col: number;
  lane: number;
  count: number;
}

export interface WeekLines {
  bars: Bar[];
  timed: TimedLine[];
  more: More[];
  /** Lines drawn, the "+N more" line included: at most the `lines` given. */
  lanes: number;
}

/**
 * A week's entries in at most `lines` lines. Bars keep their rows (`layoutBars`); with
 * `withTimed`, each day's timed entries then fill that day's free lines by start. When
 * everything fits it is all shown; otherwise the last line becomes the "+N more" line of the
 * days that lose something, and every line under it is hidden, so a bar is never cut short on
 * one day and whole on the next. A day's count is what it loses, bars included.
 */
export function layoutWeekLines(
  entries: readonly Entry[],
  days: readonly Day[],
  lines: number,
  withTimed: boolean,
): WeekLines {
  const { bars } = layoutBars(entries, days);
  const taken = days.map(() => new Set<number>());
  for (const bar of bars) {
    for (let col = bar.startCol; col <= bar.endCol; col++) taken[col]?.add(bar.lane);
  }
  const timed: TimedLine[] = [];
  if (withTimed) {
    days.forEach((day, col) => {
      const used = taken[col] ?? new Set<number>();
      let lane = 0;
      for (const entry of timedOn(entries, day)) {
        while (used.has(lane)) lane++;
        used.add(lane);
        timed.push({ entry, col, lane });
      }
    });
  }
  const needed = Math.max(0, ...taken.map((used) => (used.size === 0 ? 0 : Math.max(...used) + 1)));
  if (needed <= lines) return { bars, timed, more: [], lanes: needed };
  const shown = Math.max(0, lines - 1);
  const more: More[] = [];
  days.forEach((day, col) => {
    const count = [...(taken[col] ?? [])].filter((lane) => lane >= shown).length;
    if (count > 0) more.push({ day, col, lane: shown, count });
  });
  return {
    bars: bars.filter((bar) => bar.lane < shown),
    timed: timed.filter((line) => line.lane < shown),
    more,
    lanes: lines,
  };
}

/** A day on a phone: how many entries, and the colors of its first few as dots. */
export function daySummary(entries: readonly Entry[], day: Day, maxDots = 3): { count: number; colors: string[] } {
  const on = entriesOn(entries, day);
  const colors: string[] = [];
  for (const entry of on) {
    const color = colorOf(entry.occ.source);
    if (!colors.includes(color) && colors.length < maxDots) colors.push(color);
  }
  return { count: on.length, colors };
}

/**
 * The day a phone's list opens on: today when it is shown (and in the month shown), else the
 * month's first day, else the first day shown.
 */
export function pickedDay(days: readonly Day[], today: Day, month?: string): Day {
  const inMonth = month === undefined || today.startsWith(month);
  if (inMonth && days.includes(today)) return today;
  if (month !== undefined) return `${month}-01`;
  return days[0] ?? today;
}

/** The view the page opens in: the user's choice when they made one, else Agenda on a phone, else Month. */
export function initialView(stored: string | null, narrow: boolean): CalendarView {
  if (stored === "month" || stored === "week" || stored === "agenda") return stored;
  return narrow ? "agenda" : "month";
}

/**
 * The hour the week's hours open at: the working day's start, or, when today is shown and the
 * hour now is out of the hours in view from there, the hour before now.
 */
export function firstHourShown(
  nowHour: number,
  todayShown: boolean,
  workdayStart: number,
  hoursInView: number,
): number {
  if (!todayShown) return workdayStart;
  if (nowHour >= workdayStart && nowHour < workdayStart + hoursInView) return workdayStart;
  return Math.max(0, Math.min(24 - hoursInView, nowHour - 1));
}

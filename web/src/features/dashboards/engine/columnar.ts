/**
 * Column reads kept per board for the page's lifetime: the first widget that reads a column
 * turns it into typed arrays indexed by item position, and from then on a filter change only
 * loops over the filter's row numbers and those arrays, never over the items' JSON again.
 * Full reads are treated as immutable: a new read is a new board (see `prepareBoards`).
 */
import { NO_DAY, calendarDay, formatCalendarDay, mondayOf } from "./calendarDay";
import { dayTextCell, isEmptyCell, numberCell, stringsCell } from "./cellValue";
import { doneLabelNames, statusLabels } from "./columnSettings";
import { cleanNumber } from "./formatFigure";
import { builtOnce, mapFor } from "./itemColumns";
import type { SprintColumns } from "./loops";
import type { ChartCategoryKind, CodedColumn, Column, DateBucket, PreparedBoard } from "./types";

function derive<T>(board: PreparedBoard, key: string, build: () => T): T {
  return builtOnce(board.derived, key, build) as T;
}

/** What was decided per entry of a list of entries, by what it decides (`perEntries`). */
const byEntries = new WeakMap<readonly unknown[], Map<string, unknown>>();

/**
 * `build`'s result for `coded`'s entries, made once for every board whose column holds the same
 * list: boards read with shared dictionaries (`dicts=shared`) do, so a dashboard's fifty boards
 * decide what each status, number or day means once instead of fifty times. `key` names the
 * decision and everything it reads besides the entries (the column's type, its labels), since
 * boards sharing a list may give the same key other settings.
 */
function perEntries<T>(coded: CodedColumn, key: string, build: () => T): T {
  return builtOnce(mapFor(byEntries, coded.entries), key, build) as T;
}

/** `out` filled per slot of `coded` with what `of` makes of its value (undefined for slot 0). */
function bySlot<A extends Float64Array | Int32Array | Uint8Array>(
  { entries }: CodedColumn,
  out: A,
  of: (value: unknown) => number,
): A {
  out[0] = of(undefined);
  for (let e = 0; e < entries.length; e++) out[e + 1] = of(entries[e]);
  return out;
}

/**
 * Per slot, the entry's number (NaN at slot 0 and for an entry that is not a finite number).
 * A number column's entries are all numbers as the server keeps them: they are then checked and
 * copied by the engine's builtins, with no call of ours per entry, which a newly opened page's
 * worker would run uncompiled for every distinct number of every board.
 */
function numbersBySlot(coded: CodedColumn): Float64Array {
  const out = new Float64Array(coded.entries.length + 1);
  if (coded.entries.every(Number.isFinite)) {
    out[0] = Number.NaN;
    out.set(coded.entries as number[], 1);
    return out;
  }
  return bySlot(coded, out, numberCell);
}

/** The days of date texts met so far, by text, within a bound. */
const daysOfText = new Map<string, number>();
const DAYS_KEPT = 100_000;

/**
 * `calendarDay` of a day's text, parsed once per text for the page's lifetime: the boards of a
 * dashboard share their dates (sprint ends, a batch's creation time), and a first load would
 * otherwise parse each again on every board, in code not yet compiled.
 */
function dayOfText(text: string | null): number {
  if (text === null) return NO_DAY;
  let day = daysOfText.get(text);
  if (day === undefined) {
    if (daysOfText.size >= DAYS_KEPT) daysOfText.clear();
    day = calendarDay(text);
    daysOfText.set(text, day);
  }
  return day;
}

/**
 * Fills `out` with what `of` makes of each row's value: decided once per entry (and once for
 * no value), for every board reading the same entries (`perEntries` under `key`, which names
 * all that `of` reads besides the value), then copied by code, so a board of 2,000 items and a
 * few distinct values costs a few calls of `of` and one loop over typed arrays.
 */
function byEntry<A extends Float64Array | Int32Array | Uint8Array>(
  coded: CodedColumn,
  key: string,
  out: A,
  of: (value: unknown) => number,
): A {
  return copyDecided(coded.codes, decidedPerSlot(coded, key, of), out);
}

/** Per slot, what `of` makes of its value: once per list of entries and `key` (see `byEntry`). */
function decidedPerSlot(coded: CodedColumn, key: string, of: (value: unknown) => number): Float64Array {
  return perEntries(coded, key, () => bySlot(coded, new Float64Array(coded.entries.length + 1), of));
}

/** Each row's decision into `out`, by its code. */
function copyDecided<A extends Float64Array | Int32Array | Uint8Array>(
  codes: Int32Array,
  decided: Float64Array,
  out: A,
): A {
  // One loop per element type: a loop storing into all three stays slow while the worker's
  // code is cold, and it runs over every item of every board.
  if (out instanceof Float64Array) copyByCode(codes, decided, out);
  else if (out instanceof Int32Array) copyByCodeToInt32(codes, decided, out);
  else copyByCodeToUint8(codes, decided, out);
  return out;
}

/** `out[i] = decided[codes[i] + 1]`: row i's decided value, at 0 the one for no value. */
function copyByCode(codes: Int32Array, decided: Float64Array, out: Float64Array): void {
  for (let i = 0; i < codes.length; i++) out[i] = decided[(codes[i] as number) + 1] as number;
}

function copyByCodeToInt32(codes: Int32Array, decided: Float64Array, out: Int32Array): void {
  for (let i = 0; i < codes.length; i++) out[i] = decided[(codes[i] as number) + 1] as number;
}

function copyByCodeToUint8(codes: Int32Array, decided: Float64Array, out: Uint8Array): void {
  for (let i = 0; i < codes.length; i++) out[i] = decided[(codes[i] as number) + 1] as number;
}

/** Per item: the column's number, NaN where the cell is empty or not a number. */
export function numberValues(board: PreparedBoard, column: Column): Float64Array {
  return derive(board, `number\u0000${column.id}`, () => {
    const out = new Float64Array(board.items.count);
    copyByCode(board.items.coded(column.id).codes, slotNumbers(board, column), out);
    return out;
  });
}

/**
 * Per slot of the column (0 for no value, code + 1 for entry `code`): its number, NaN where the
 * cell is empty or not a number. What a widget tallying items by slot reads instead of a
 * number per item.
 */
export function slotNumbers(board: PreparedBoard, column: Column): Float64Array {
  return derive(board, `slotNumbers\u0000${column.id}`, () => {
    const coded = board.items.coded(column.id);
    return perEntries(coded, "numbers", () => numbersBySlot(coded));
  });
}

/** Per slot of the column: 1 where the cell is non-empty for the column's type, NaN where empty. */
export function slotWeights(board: PreparedBoard, column: Column): Float64Array {
  return derive(board, `slotWeights\u0000${column.id}\u0000${column.type}`, () => {
    const coded = board.items.coded(column.id);
    return decidedPerSlot(coded, `weights\u0000${column.type}`, (v) => (isEmptyCell(column, v) ? Number.NaN : 1));
  });
}

/** `YYYY-MM-DD` text as the number YYYYMMDD, which orders like the text; NaN for other text. */
export function dayKey(text: string): number {
  let key = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    key = key * 10 + digit;
  }
  return key;
}

/**
 * Per item: the day key (`dayKey`) of a date column's day or a timeline's first or last day, NaN
 * where there is none; null when some cell has a day's shape but not its digits, since such
 * text still compares (as text) and only the item predicate can say how.
 */
export function dayKeys(board: PreparedBoard, column: Column, end: "from" | "to"): Float64Array | null {
  return derive(board, `dayKeys\u0000${column.id}\u0000${column.type}\u0000${end}`, () => {
    const coded = board.items.coded(column.id);
    const keyOf = (value: unknown) => {
      const text = dayTextCell(column.type, value, end);
      return text === null ? Number.NaN : dayKey(text);
    };
    const key = `dayKeys\u0000${column.type}\u0000${end}`;
    const decided = decidedPerSlot(coded, key, keyOf);
    const misshapen = decidedPerSlot(coded, `misshapen\u0000${key}`, (value) =>
      dayTextCell(column.type, value, end) !== null && Number.isNaN(keyOf(value)) ? 1 : 0,
    );
    // Only the board's own cells count: an entry of another board sharing the list is none of them.
    const { codes } = coded;
    for (let i = 0; i < codes.length; i++) if (misshapen[(codes[i] as number) + 1] === 1) return null;
    return copyDecided(codes, decided, new Float64Array(board.items.count));
  });
}

/** Per item: 1 where the cell is non-empty for the column's type (see `isEmptyCell`). */
export function filledFlags(board: PreparedBoard, column: Column): Uint8Array {
  return derive(board, `filled\u0000${column.id}\u0000${column.type}`, () =>
    byEntry(board.items.coded(column.id), `filled\u0000${column.type}`, new Uint8Array(board.items.count), (value) =>
      isEmptyCell(column, value) ? 0 : 1,
    ),
  );
}

/** One bucket a board's items fall into, before buckets of the same key merge across boards. */
export interface BucketEntry {
  key: string;
  label: string;
  kind: ChartCategoryKind;
  /** Orders number and date buckets. */
  sortValue: number;
  color?: string;
}

export interface BucketCodes {
  entries: BucketEntry[];
  /** The leading entries shown even without items (status labels, checkbox states, groups). */
  preset: number;
  /**
   * Per item (single-valued columns): an index into `entries`, or −1 for an empty cell.
   * Multi-valued columns (people, dropdown): item i's entries are `codes[offsets[i] …
   * offsets[i + 1])`, no entry meaning empty.
   */
  codes: Int32Array;
  offsets: Int32Array | null;
}

/** Entries keyed by bucket key, so values naming the same bucket share one entry. */
class EntryTable {
  readonly entries: BucketEntry[] = [];
  private readonly byKey = new Map<string, number>();

  add(key: string, label: string, kind: ChartCategoryKind, sortValue = 0, color?: string): number {
    let i = this.byKey.get(key);
    if (i === undefined) {
      i = this.entries.length;
      this.byKey.set(key, i);
      this.entries.push(color === undefined ? { key, label, kind, sortValue } : { key, label, kind, sortValue, color });
    }
    return i;
  }
}

function dateBucketEntry(day: number, bucket: DateBucket): { key: string; label: string; start: number } {
  if (bucket === "week") {
    const monday = mondayOf(day);
    const text = formatCalendarDay(monday);
    return { key: text, label: `Week of ${text}`, start: monday };
  }
  if (bucket === "month") {
    const text = formatCalendarDay(day).slice(0, 7);
    return { key: text, label: text, start: calendarDay(`${text}-01`) };
  }
  const text = formatCalendarDay(day);
  return { key: text, label: text, start: day };
}

/**
 * What a board's items fall into when grouped by a column, by group or by board, decided once per
 * entry of what is read: per slot (0 for no value, code + 1 for entry `code`), its buckets,
 * `buckets[from[slot]]` up to `from[slot + 1]`, each an entry + 1, or the one bucket 0 (the empty
 * bucket) when it names none; beside the codes per item as read. The loops over items read an
 * item's code and its slot's buckets (`loops.ts`), never a copy per item.
 */
export interface SlotBuckets {
  entries: BucketEntry[];
  /** The leading entries shown even without items (status labels, checkbox states, groups). */
  preset: number;
  /** Per item: the code of what it holds, −1 for no value. */
  codes: Int32Array;
  from: Int32Array;
  buckets: Int32Array;
  /** The most buckets a slot names. */
  widest: number;
  /** A people or dropdown column, whose items may fall into several buckets. */
  multi: boolean;
}

/** Per slot of `coded`, the one bucket `read` gives its value (−1: none), decided once per entry. */
function singleSlots(
  { entries, codes }: CodedColumn,
  table: EntryTable,
  preset: number,
  read: (value: unknown) => number,
): SlotBuckets {
  const slots = entries.length + 1;
  // One bucket per slot: slot s's is at s.
  const from = new Int32Array(slots + 1);
  const buckets = new Int32Array(slots);
  for (let slot = 0; slot < slots; slot++) {
    from[slot + 1] = slot + 1;
    buckets[slot] = read(slot === 0 ? undefined : entries[slot - 1]) + 1;
  }
  return { entries: table.entries, preset, codes, from, buckets, widest: 1, multi: false };
}

/** Per slot of a people or dropdown column: each person or option once, in the order listed. */
function multiSlots({ entries, codes }: CodedColumn, table: EntryTable, kind: ChartCategoryKind): SlotBuckets {
  const from = new Int32Array(entries.length + 2);
  // No value (slot 0): the empty bucket.
  const buckets: number[] = [0];
  from[1] = 1;
  let widest = 1;
  for (let e = 0; e < entries.length; e++) {
    const at = buckets.length;
    const values = stringsCell(entries[e]);
    // A person or option listed twice on one item still counts once.
    for (let j = 0; j < values.length; j++) {
      const v = values[j];
      if (typeof v === "string" && values.indexOf(v) === j) buckets.push(table.add(v, v, kind) + 1);
    }
    if (buckets.length === at) buckets.push(0);
    from[e + 2] = buckets.length;
    widest = Math.max(widest, buckets.length - at);
  }
  return { entries: table.entries, preset: 0, codes, from, buckets: Int32Array.from(buckets), widest, multi: true };
}

/** A column's buckets per slot, decided once per list of entries; the board's own codes beside them. */
function columnSlots(board: PreparedBoard, column: Column, dateBucket: DateBucket): SlotBuckets {
  const coded = board.items.coded(column.id);
  const labels = column.type === "status" ? JSON.stringify(statusLabels(column)) : "";
  const key = `slots\u0000${column.type}\u0000${dateBucket}\u0000${labels}`;
  const perSlot = perEntries(coded, key, () => columnSlotsOf(coded, column, dateBucket));
  return { ...perSlot, codes: coded.codes };
}

function columnSlotsOf(coded: CodedColumn, column: Column, dateBucket: DateBucket): SlotBuckets {
  const table = new EntryTable();
  switch (column.type) {
    case "status": {
      for (const label of statusLabels(column)) table.add(label.name, label.name, "label", 0, label.color);
      const preset = table.entries.length;
      return singleSlots(coded, table, preset, (v) =>
        typeof v === "string" && v !== "" ? table.add(v, v, "label") : -1,
      );
    }
    case "people":
    case "dropdown":
      return multiSlots(coded, table, column.type === "people" ? "person" : "label");
    case "date":
    case "timeline": {
      const type = column.type;
      // Timelines of the JSON form are an entry each: their first days are what repeats.
      const byText = new Map<string, number>();
      // A timeline sits in the bucket of its first day.
      return singleSlots(coded, table, 0, (v) => {
        const text = dayTextCell(type, v, "from");
        if (text === null) return -1;
        let code = byText.get(text);
        if (code === undefined) {
          const day = calendarDay(text);
          const bucket = day === NO_DAY ? null : dateBucketEntry(day, dateBucket);
          code = bucket ? table.add(bucket.key, bucket.label, "date", bucket.start) : -1;
          byText.set(text, code);
        }
        return code;
      });
    }
    case "number":
      return singleSlots(coded, table, 0, (value) => {
        const v = numberCell(value);
        if (v !== v) return -1;
        const text = String(cleanNumber(v));
        return table.add(text, text, "value", v);
      });
    case "checkbox": {
      table.add("true", "Checked", "value");
      table.add("false", "Unchecked", "value");
      return singleSlots(coded, table, 2, (v) => (v === true ? 0 : 1));
    }
    default:
      return singleSlots(coded, table, 0, (v) => {
        const text = typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
        return text === "" ? -1 : table.add(text, text, "value");
      });
  }
}

function groupSlots(board: PreparedBoard): SlotBuckets {
  const table = new EntryTable();
  const byGroupId = new Map<string, number>();
  for (const [groupId, title] of board.groupTitleById)
    byGroupId.set(groupId, table.add(`group:${title}`, title, "group"));
  const preset = table.entries.length;
  return singleSlots(board.items.codedField("groupId"), table, preset, (groupId) =>
    typeof groupId === "string" ? (byGroupId.get(groupId) ?? -1) : -1,
  );
}

/**
 * The buckets each item of a board falls into when grouped by a column (dates bucketed by
 * `dateBucket`), by its group, or all into the board's own bucket, decided per slot.
 */
export function slotBuckets(board: PreparedBoard, by: Column | "group" | "board", dateBucket: DateBucket): SlotBuckets {
  if (by === "group") return derive(board, "slots\u0000group", () => groupSlots(board));
  if (by === "board") {
    return derive(board, "slots\u0000board", () => ({
      entries: [{ key: `board:${board.id}`, label: board.name, kind: "board", sortValue: 0 }],
      preset: 1,
      // Every item holds the board's one entry (slot 1); no item has no value (slot 0).
      codes: new Int32Array(board.items.count),
      from: Int32Array.of(0, 1, 2),
      buckets: Int32Array.of(0, 1),
      widest: 1,
      multi: false,
    }));
  }
  return derive(board, `slots\u0000${slotsKey(by, dateBucket)}`, () => columnSlots(board, by, dateBucket));
}

function slotsKey(by: Column | "group" | "board", dateBucket: DateBucket): string {
  if (by === "group" || by === "board") return by;
  const dated = by.type === "date" || by.type === "timeline";
  return `${by.id}\u0000${by.type}\u0000${dated ? dateBucket : ""}`;
}

/** Per item, its buckets as `BucketCodes` lay them out, from the slots' decisions. */
function itemBuckets({ entries, preset, codes, from, buckets, multi }: SlotBuckets): BucketCodes {
  if (!multi) {
    const decided = new Float64Array(from.length - 1);
    for (let slot = 0; slot < decided.length; slot++) decided[slot] = (buckets[from[slot] as number] as number) - 1;
    const out = new Int32Array(codes.length);
    copyByCodeToInt32(codes, decided, out);
    return { entries, preset, codes: out, offsets: null };
  }
  // The empty bucket is no entry here: a slot that names none gives its items an empty range.
  const named = new Int32Array(from.length - 1);
  for (let slot = 0; slot < named.length; slot++)
    named[slot] = buckets[from[slot] as number] === 0 ? 0 : (from[slot + 1] as number) - (from[slot] as number);
  const offsets = new Int32Array(codes.length + 1);
  let n = 0;
  for (let i = 0; i < codes.length; i++) {
    n += named[(codes[i] as number) + 1] as number;
    offsets[i + 1] = n;
  }
  const flat = new Int32Array(n);
  let at = 0;
  for (let i = 0; i < codes.length; i++) {
    const slot = (codes[i] as number) + 1;
    const start = from[slot] as number;
    const to = start + (named[slot] as number);
    for (let j = start; j < to; j++) flat[at++] = (buckets[j] as number) - 1;
  }
  return { entries, preset, codes: flat, offsets };
}

/**
 * The buckets each item of a board falls into when grouped by a column (dates bucketed by
 * `dateBucket`), by its group, or all into the board's own bucket.
 */
export function bucketCodes(board: PreparedBoard, by: Column | "group" | "board", dateBucket: DateBucket): BucketCodes {
  return derive(board, `bucket\u0000${slotsKey(by, dateBucket)}`, () =>
    itemBuckets(slotBuckets(board, by, dateBucket)),
  );
}

/**
 * What the sprint widgets read of one board's items, for one choice of their columns: per
 * column, its codes per item (−1: no value) and what each slot of them means (0 for no value,
 * code + 1 for entry `code`), decided once per entry, so the widgets' loops over items read
 * codes and never a copy of a column per item. A column the choice lacks reads as the sprint
 * column's codes, with one meaning in every slot.
 */
export interface SprintColumnChoice {
  sprint: Column;
  /** Only a number column is read. */
  effort: Column | undefined;
  done: Column | undefined;
  /** Only a date or timeline column is read. */
  date: Column | undefined;
}

/** The sprint an item names: text, a status label, or the first option of a dropdown. */
function sprintName(value: unknown): string | undefined {
  let v = value;
  if (Array.isArray(v)) v = v[0];
  if (typeof v === "number") return String(v);
  if (typeof v !== "string") return undefined;
  const name = v.trim();
  return name === "" ? undefined : name;
}

/** A status column is done on a `done: true` label, a checkbox when ticked, a date when set. */
function doneTest(column: Column | undefined): (value: unknown) => boolean {
  if (!column) return () => false;
  switch (column.type) {
    case "status": {
      const done = doneLabelNames(column);
      return (v) => typeof v === "string" && done.has(v);
    }
    case "checkbox":
      return (v) => v === true;
    case "date":
    case "timeline": {
      const type = column.type;
      return (v) => dayTextCell(type, v, "to") !== null;
    }
    default:
      return () => false;
  }
}

/** Per slot of a sprint column: its sprint's index in `names`, −1 for none. */
function sprintSlots(sprint: CodedColumn): { names: string[]; sprintOf: Int32Array } {
  const names: string[] = [];
  const byName = new Map<string, number>();
  const sprintOf = bySlot(sprint, new Int32Array(sprint.entries.length + 1), (raw) => {
    const name = sprintName(raw);
    if (name === undefined) return -1;
    let s = byName.get(name);
    if (s === undefined) {
      s = names.length;
      byName.set(name, s);
      names.push(name);
    }
    return s;
  });
  return { names, sprintOf };
}

/** What a done column's labels make of its values: the key its slots are shared under. */
function doneKey(column: Column): string {
  const labels = column.type === "status" ? [...doneLabelNames(column)] : [];
  return `done\u0000${column.type}\u0000${JSON.stringify(labels)}`;
}

/** Per slot of a date or timeline column: its first and last day, NO_DAY without one. */
function daySlots(coded: CodedColumn, type: "date" | "timeline"): { firstDayOf: Int32Array; lastDayOf: Int32Array } {
  const last = (v: unknown) => dayOfText(dayTextCell(type, v, "to"));
  const lastDayOf = bySlot(coded, new Int32Array(coded.entries.length + 1), last);
  // A date's first day is its last: one array serves both (neither is ever written to).
  const firstDayOf =
    type === "date"
      ? lastDayOf
      : bySlot(coded, new Int32Array(coded.entries.length + 1), (v) =>
          last(v) === NO_DAY ? NO_DAY : dayOfText(dayTextCell("timeline", v, "from")),
        );
  return { firstDayOf, lastDayOf };
}

function readSprintColumns(board: PreparedBoard, choice: SprintColumnChoice): SprintColumns {
  const { items } = board;
  const sprint = items.coded(choice.sprint.id);
  const slots = sprint.entries.length + 1;
  const { names, sprintOf } = perEntries(sprint, "sprint", () => sprintSlots(sprint));
  const effortColumn = choice.effort?.type === "number" ? items.coded(choice.effort.id) : null;
  const effortOf = effortColumn
    ? perEntries(effortColumn, "numbers", () => numbersBySlot(effortColumn))
    : new Float64Array(slots).fill(Number.NaN);
  const done = choice.done;
  const doneColumn = done ? items.coded(done.id) : null;
  const doneOf =
    done && doneColumn
      ? perEntries(doneColumn, doneKey(done), () => {
          const isDone = doneTest(done);
          return bySlot(doneColumn, new Uint8Array(doneColumn.entries.length + 1), (v) => (isDone(v) ? 1 : 0));
        })
      : new Uint8Array(slots);
  const dateType = choice.date?.type;
  let dates: { codes: Int32Array; firstDayOf: Int32Array; lastDayOf: Int32Array };
  if (choice.date && (dateType === "date" || dateType === "timeline")) {
    const coded = items.coded(choice.date.id);
    dates = { codes: coded.codes, ...perEntries(coded, `days\u0000${dateType}`, () => daySlots(coded, dateType)) };
  } else {
    const none = new Int32Array(slots).fill(NO_DAY);
    dates = { codes: sprint.codes, firstDayOf: none, lastDayOf: none };
  }
  // Items made in one batch share one timestamp: its day is read once.
  const created = items.codedField("createdAt");
  return {
    names,
    sprintCodes: sprint.codes,
    sprintOf,
    effortCodes: effortColumn?.codes ?? sprint.codes,
    effortOf,
    doneCodes: doneColumn?.codes ?? sprint.codes,
    doneOf,
    dateCodes: dates.codes,
    firstDayOf: dates.firstDayOf,
    lastDayOf: dates.lastDayOf,
    createdCodes: created.codes,
    createdDayOf: perEntries(created, "createdDay", () =>
      bySlot(created, new Int32Array(created.entries.length + 1), (v) => dayOfText(typeof v === "string" ? v : null)),
    ),
  };
}

export function sprintColumns(board: PreparedBoard, choice: SprintColumnChoice): SprintColumns {
  const key = ["sprint", choice.sprint.id, choice.effort?.id, choice.done?.id, choice.date?.id].join("\u0000");
  return derive(board, key, () => readSprintColumns(board, choice));
}

/**
 * Per item: an index into `values`, the distinct primitive cells (strings, numbers, booleans,
 * null, absent) of the column; −1 for arrays and objects. A rule's verdict depends only on the
 * cell, so the filter step decides once per distinct value instead of once per item.
 */
export interface PrimitiveCodes {
  /** Each distinct value that is not an array or an object (undefined for a missing one). */
  values: (string | number | boolean | null | undefined)[];
  codes: Int32Array;
  /** How many items hold an array or an object. */
  objects: number;
}

/** Per slot of a column: its primitive value's index in `values`, −1 for an object. */
function primitiveSlots(coded: CodedColumn): { values: PrimitiveCodes["values"]; valueOfSlot: Float64Array } {
  const values: PrimitiveCodes["values"] = [];
  const byValue = new Map<unknown, number>();
  const valueOfSlot = bySlot(coded, new Float64Array(coded.entries.length + 1), (v) => {
    if (typeof v === "object" && v !== null) return -1;
    let code = byValue.get(v);
    if (code === undefined) {
      code = values.length;
      values.push(v as PrimitiveCodes["values"][number]);
      byValue.set(v, code);
    }
    return code;
  });
  return { values, valueOfSlot };
}

export function primitiveCodes(board: PreparedBoard, column: Column): PrimitiveCodes {
  return derive(board, `primitive\u0000${column.id}`, () => {
    const coded = board.items.coded(column.id);
    const { values, valueOfSlot } = perEntries(coded, "primitive", () => primitiveSlots(coded));
    const codes = copyDecided(coded.codes, valueOfSlot, new Int32Array(board.items.count));
    let objects = 0;
    for (let i = 0; i < codes.length; i++) objects += codes[i] === -1 ? 1 : 0;
    return { values, codes, objects };
  });
}

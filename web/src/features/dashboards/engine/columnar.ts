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
import { builtOnce } from "./itemColumns";
import type { ChartCategoryKind, CodedColumn, Column, DateBucket, PreparedBoard } from "./types";

function derive<T>(board: PreparedBoard, key: string, build: () => T): T {
  return builtOnce(board.derived, key, build) as T;
}

/**
 * Fills `out` with what `of` makes of each row's value: decided once per entry (and once for
 * no value), then copied by code, so a board of 2,000 items and a few distinct values costs a
 * few calls of `of` and one loop over typed arrays.
 */
function byEntry<A extends Float64Array | Int32Array | Uint8Array>(
  { entries, codes }: CodedColumn,
  out: A,
  of: (value: unknown) => number,
): A {
  const decided = new Float64Array(entries.length + 1);
  decided[0] = of(undefined);
  for (let e = 0; e < entries.length; e++) decided[e + 1] = of(entries[e]);
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

/**
 * Per row, `read`'s code for its value (−1 or more), decided once per entry. Widgets order what
 * they show by the kept rows that hold it, never by the order a board's entries came in.
 */
function codesByEntry(column: CodedColumn, read: (value: unknown) => number): Int32Array {
  return byEntry(column, new Int32Array(column.codes.length), read);
}

/** Per item: the column's number, NaN where the cell is empty or not a number. */
export function numberValues(board: PreparedBoard, column: Column): Float64Array {
  return derive(board, `number\u0000${column.id}`, () =>
    byEntry(board.items.coded(column.id), new Float64Array(board.items.count), numberCell),
  );
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
    const misshapen = coded.entries.some(
      (value) => dayTextCell(column.type, value, end) !== null && Number.isNaN(keyOf(value)),
    );
    return misshapen ? null : byEntry(coded, new Float64Array(board.items.count), keyOf);
  });
}

/** More distinct values than this and a column's median copies values instead of counting them. */
const MAX_DISTINCT_NUMBERS = 256;

/**
 * A number column as its distinct values and, per item, the index of its value (−1 when
 * empty); null when the board holds more than `MAX_DISTINCT_NUMBERS` distinct values.
 */
export function numberCodes(
  board: PreparedBoard,
  column: Column,
): { distinct: Float64Array; codes: Int32Array } | null {
  return derive(board, `numberCodes\u0000${column.id}`, () => {
    const byValue = new Map<number, number>();
    const distinct: number[] = [];
    let tooMany = false;
    const codes = codesByEntry(board.items.coded(column.id), (value) => {
      const v = numberCell(value);
      if (v !== v) return -1;
      let c = byValue.get(v);
      if (c === undefined) {
        if (distinct.length === MAX_DISTINCT_NUMBERS) {
          tooMany = true;
          return -1;
        }
        c = distinct.length;
        byValue.set(v, c);
        distinct.push(v);
      }
      return c;
    });
    return tooMany ? null : { distinct: Float64Array.from(distinct), codes };
  });
}

/** Per item: 1 where the cell is non-empty for the column's type (see `isEmptyCell`). */
export function filledFlags(board: PreparedBoard, column: Column): Uint8Array {
  return derive(board, `filled\u0000${column.id}\u0000${column.type}`, () =>
    byEntry(board.items.coded(column.id), new Uint8Array(board.items.count), (value) =>
      isEmptyCell(column, value) ? 0 : 1,
    ),
  );
}

/**
 * Per item: 1 where the cell is non-empty, NaN where it is empty; with no column, 1 for every
 * item. Counting is then summing weights over the same loop as every other aggregate.
 */
export function countWeights(board: PreparedBoard, column: Column | null): Float64Array {
  if (column === null) {
    return derive(board, "weights", () => new Float64Array(board.items.count).fill(1));
  }
  return derive(board, `weights\u0000${column.id}\u0000${column.type}`, () => {
    const filled = filledFlags(board, column);
    const out = new Float64Array(filled.length);
    for (let i = 0; i < filled.length; i++) out[i] = filled[i] === 1 ? 1 : Number.NaN;
    return out;
  });
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

/** Single-valued codes: `read` gives each value's entry (−1 for empty), once per entry of the column. */
function singleCodes(
  board: PreparedBoard,
  table: EntryTable,
  preset: number,
  id: string,
  read: (value: unknown) => number,
): BucketCodes {
  return { entries: table.entries, preset, codes: codesByEntry(board.items.coded(id), read), offsets: null };
}

function multiCodes(board: PreparedBoard, table: EntryTable, id: string, kind: ChartCategoryKind): BucketCodes {
  const { entries, codes: rowEntries } = board.items.coded(id);
  // Each entry's buckets, decided once per entry and laid out flat (entry e's are
  // `entryBuckets[entryFrom[e]]` up to `entryFrom[e + 1]`), so the loops over rows below copy
  // typed arrays only: they run over every item while the worker's code is still cold.
  const entryFrom = new Int32Array(entries.length + 1);
  const decided: number[] = [];
  for (let e = 0; e < entries.length; e++) {
    const values = stringsCell(entries[e]);
    // A person or option listed twice on one item still counts once.
    for (let j = 0; j < values.length; j++) {
      const v = values[j];
      if (typeof v === "string" && values.indexOf(v) === j) decided.push(table.add(v, v, kind));
    }
    entryFrom[e + 1] = decided.length;
  }
  const entryBuckets = Int32Array.from(decided);
  const offsets = new Int32Array(rowEntries.length + 1);
  let n = 0;
  for (let i = 0; i < rowEntries.length; i++) {
    const e = rowEntries[i] as number;
    if (e >= 0) n += (entryFrom[e + 1] as number) - (entryFrom[e] as number);
    offsets[i + 1] = n;
  }
  const codes = new Int32Array(n);
  let at = 0;
  for (let i = 0; i < rowEntries.length; i++) {
    const e = rowEntries[i] as number;
    if (e < 0) continue;
    const to = entryFrom[e + 1] as number;
    for (let j = entryFrom[e] as number; j < to; j++) codes[at++] = entryBuckets[j] as number;
  }
  return { entries: table.entries, preset: 0, codes, offsets };
}

function columnCodes(board: PreparedBoard, column: Column, dateBucket: DateBucket): BucketCodes {
  const table = new EntryTable();
  const id = column.id;
  switch (column.type) {
    case "status": {
      for (const label of statusLabels(column)) table.add(label.name, label.name, "label", 0, label.color);
      const preset = table.entries.length;
      return singleCodes(board, table, preset, id, (v) =>
        typeof v === "string" && v !== "" ? table.add(v, v, "label") : -1,
      );
    }
    case "people":
    case "dropdown":
      return multiCodes(board, table, id, column.type === "people" ? "person" : "label");
    case "date":
    case "timeline": {
      const type = column.type;
      // Timelines of the JSON form are an entry each: their first days are what repeats.
      const byText = new Map<string, number>();
      // A timeline sits in the bucket of its first day.
      return singleCodes(board, table, 0, id, (v) => {
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
      return singleCodes(board, table, 0, id, (value) => {
        const v = numberCell(value);
        if (v !== v) return -1;
        const text = String(cleanNumber(v));
        return table.add(text, text, "value", v);
      });
    case "checkbox": {
      table.add("true", "Checked", "value");
      table.add("false", "Unchecked", "value");
      return singleCodes(board, table, 2, id, (v) => (v === true ? 0 : 1));
    }
    default:
      return singleCodes(board, table, 0, id, (v) => {
        const text = typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
        return text === "" ? -1 : table.add(text, text, "value");
      });
  }
}

function groupCodes(board: PreparedBoard): BucketCodes {
  const table = new EntryTable();
  const byGroupId = new Map<string, number>();
  for (const [groupId, title] of board.groupTitleById)
    byGroupId.set(groupId, table.add(`group:${title}`, title, "group"));
  const codes = byEntry(
    board.items.codedField("groupId"),
    new Int32Array(board.items.count),
    (groupId) => byGroupId.get(groupId as string) ?? -1,
  );
  return { entries: table.entries, preset: table.entries.length, codes, offsets: null };
}

/**
 * The buckets each item of a board falls into when grouped by a column (dates bucketed by
 * `dateBucket`), by its group, or all into the board's own bucket.
 */
export function bucketCodes(board: PreparedBoard, by: Column | "group" | "board", dateBucket: DateBucket): BucketCodes {
  if (by === "group") return derive(board, "bucket\u0000group", () => groupCodes(board));
  if (by === "board") {
    return derive(board, "bucket\u0000board", () => ({
      entries: [{ key: `board:${board.id}`, label: board.name, kind: "board", sortValue: 0 }],
      preset: 1,
      codes: new Int32Array(board.items.count),
      offsets: null,
    }));
  }
  const dated = by.type === "date" || by.type === "timeline";
  return derive(board, `bucket\u0000${by.id}\u0000${by.type}\u0000${dated ? dateBucket : ""}`, () =>
    columnCodes(board, by, dateBucket),
  );
}

/** What the sprint widgets read of each item of one board, for one choice of their columns. */
export interface SprintColumns {
  /** The board's sprint names (trimmed), in first-appearance order. */
  names: string[];
  /** Per item: an index into `names`, or −1 for an item in no sprint. */
  sprint: Int32Array;
  /** Per item: the effort, NaN when unestimated. */
  effort: Float64Array;
  done: Uint8Array;
  /** Per item: the date column's first and last day (equal for a date), NO_DAY without one. */
  firstDay: Int32Array;
  lastDay: Int32Array;
  /** Per item: the day of `createdAt`, NO_DAY when it has none. */
  createdDay: Int32Array;
}

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

function readSprintColumns(board: PreparedBoard, choice: SprintColumnChoice): SprintColumns {
  const { items } = board;
  const n = items.count;
  const names: string[] = [];
  const byName = new Map<string, number>();
  const sprint = codesByEntry(items.coded(choice.sprint.id), (raw) => {
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
  const effort =
    choice.effort?.type === "number"
      ? byEntry(items.coded(choice.effort.id), new Float64Array(n), numberCell)
      : new Float64Array(n).fill(Number.NaN);
  const isDone = doneTest(choice.done);
  const done = choice.done
    ? byEntry(items.coded(choice.done.id), new Uint8Array(n), (v) => (isDone(v) ? 1 : 0))
    : new Uint8Array(n);
  const dateType = choice.date?.type;
  // A date's first day is its last, and no date column gives neither: one array then serves
  // both (neither is ever written to).
  let lastDay: Int32Array;
  let firstDay: Int32Array;
  if (choice.date && (dateType === "date" || dateType === "timeline")) {
    const dates = items.coded(choice.date.id);
    const last = (v: unknown) => calendarDay(dayTextCell(dateType, v, "to"));
    lastDay = byEntry(dates, new Int32Array(n), last);
    firstDay =
      dateType === "date"
        ? lastDay
        : byEntry(dates, new Int32Array(n), (v) =>
            last(v) === NO_DAY ? NO_DAY : calendarDay(dayTextCell("timeline", v, "from")),
          );
  } else {
    lastDay = new Int32Array(n).fill(NO_DAY);
    firstDay = lastDay;
  }
  // Items made in one batch share one timestamp: its day is read once.
  const createdDay = byEntry(items.codedField("createdAt"), new Int32Array(n), calendarDay);
  return { names, sprint, effort, done, firstDay, lastDay, createdDay };
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

export function primitiveCodes(board: PreparedBoard, column: Column): PrimitiveCodes {
  return derive(board, `primitive\u0000${column.id}`, () => {
    const coded = board.items.coded(column.id);
    const values: PrimitiveCodes["values"] = [];
    const byValue = new Map<unknown, number>();
    const isObject = (v: unknown) => typeof v === "object" && v !== null;
    const codes = codesByEntry(coded, (v) => {
      if (isObject(v)) return -1;
      let code = byValue.get(v);
      if (code === undefined) {
        code = values.length;
        values.push(v as PrimitiveCodes["values"][number]);
        byValue.set(v, code);
      }
      return code;
    });
    const objectEntries = Uint8Array.from(coded.entries, (v) => (isObject(v) ? 1 : 0));
    let objects = 0;
    for (const c of coded.codes) objects += c >= 0 ? (objectEntries[c] as number) : 0;
    return { values, codes, objects };
  });
}

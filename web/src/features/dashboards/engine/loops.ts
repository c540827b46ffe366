/**
 * The engine's loops over items, run as WebAssembly (`wasm/engineLoops.ts`, built by
 * `engineLoops.config.ts`). A newly opened dashboard's worker has compiled none of its code: as
 * JavaScript these loops first ran in the interpreter, and V8 compiled each of them on the
 * machine's other core while the page itself was starting there, for a result it no longer
 * needed by then. WebAssembly is compiled once, in well under a millisecond, and runs at full
 * speed from the first item.
 *
 * Each call copies the typed arrays it reads into the module's memory, one after another (through
 * views of the memory made again only when it grows), runs the loop over them, and copies back
 * what the loop wrote. The copies are a few kilobytes a board; the loops read every item. A call
 * over no rows changes nothing and copies nothing: the worker derives each board's columns as it
 * arrives by computing its widgets over no rows.
 */
import wasm from "virtual:engine-loops";

/**
 * A loop of `wasm/engineLoops.ts`: numbers in (offsets into the memory, counts, bounds) in the
 * order its source lists them, a number or nothing out.
 */
type Loop = (...args: number[]) => number;

interface LoopExports {
  memory: WebAssembly.Memory;
  unpack: Loop;
  countBySlot: Loop;
  accumulateRows: Loop;
  tallyByBuckets: Loop;
  addKeptItems: Loop;
  addParts: Loop;
  burnPart: Loop;
}

const loops = new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports as unknown as LoopExports;

type NumberArray = Uint8Array | Int32Array | Uint32Array | Float64Array;

/** The offset the first array of a call goes to: 0 means "none" to the loops. */
const FIRST_OFFSET = 8;
const PAGE_BYTES = 65_536;

/** Views of the module's memory, made again only when it grows (which detaches the old ones). */
let views = viewsOf(loops.memory.buffer);

function viewsOf(buffer: ArrayBuffer) {
  return {
    u8: new Uint8Array(buffer),
    i32: new Int32Array(buffer),
    u32: new Uint32Array(buffer),
    f64: new Float64Array(buffer),
  };
}

/** Where the current call's next array goes. */
let end = FIRST_OFFSET;

/** Starts laying out a call's arrays, from the start of the memory. */
function newCall(): void {
  end = FIRST_OFFSET;
}

/** Room for `bytes` in the call being laid out, growing the memory if need be: its offset. */
function room(bytes: number): number {
  const at = end;
  // Every array starts 8-byte aligned, as the f64 loads and stores expect.
  end = (at + bytes + 7) & ~7;
  const short = end - views.u8.length;
  if (short > 0) {
    loops.memory.grow(Math.ceil(short / PAGE_BYTES));
    views = viewsOf(loops.memory.buffer);
  }
  return at;
}

/** Copies `array` into the call being laid out: its offset. */
function place(array: NumberArray): number {
  const at = room(array.byteLength);
  if (array instanceof Float64Array) views.f64.set(array, at >>> 3);
  else if (array instanceof Int32Array) views.i32.set(array, at >>> 2);
  else if (array instanceof Uint32Array) views.u32.set(array, at >>> 2);
  else views.u8.set(array, at);
  return at;
}

/** Copies each of `arrays` into the call being laid out: their offsets, in order. */
function placeAll(arrays: readonly NumberArray[]): number[] {
  return arrays.map(place);
}

/** Copies what the loop left at `at` back into `array`. */
function copyBack(at: number, array: Float64Array | Int32Array): void {
  if (array instanceof Float64Array) array.set(views.f64.subarray(at >>> 3, (at >>> 3) + array.length));
  else array.set(views.i32.subarray(at >>> 2, (at >>> 2) + array.length));
}

/** Copies back each of `arrays` from the offset `placeAll` gave it. */
function copyAllBack(offsets: readonly number[], arrays: readonly (Float64Array | Int32Array)[]): void {
  arrays.forEach((array, i) => copyBack(offsets[i] as number, array));
}

/**
 * Packed codes (`width` bytes each, little-endian, a code + 1 with 0 for no value) into
 * `codes`; returns the highest value stored, a stored 0 counting as `absentAs`.
 */
export function unpack(width: 1 | 2 | 4, bytes: Uint8Array, codes: Int32Array, absentAs: number): number {
  newCall();
  const from = place(bytes);
  const to = room(codes.byteLength);
  const highest = loops.unpack(width, from, to, codes.length, absentAs);
  copyBack(to, codes);
  return highest;
}

/** Per slot of `codes` (`slots` of them): how many of `rows` hold it. */
export function countBySlot(rows: Uint32Array, codes: Int32Array, slots: number): Float64Array {
  const counts = new Float64Array(slots);
  if (rows.length === 0) return counts;
  newCall();
  const countsAt = place(counts);
  loops.countBySlot(place(rows), rows.length, place(codes), countsAt);
  copyBack(countsAt, counts);
  return counts;
}

/**
 * Adds the number of each row of `rows` (`numbers` at its slot; NaN: none), in row order, to
 * `figures` (count, sum, min, max) and, given `kept`, stores them there from `keptFrom` on;
 * returns how many were stored.
 */
export function accumulateNumbers(
  rows: Uint32Array,
  codes: Int32Array,
  numbers: Float64Array,
  figures: Float64Array,
  kept: Float64Array | null,
  keptFrom: number,
): number {
  if (rows.length === 0) return 0;
  newCall();
  const figuresAt = place(figures);
  const keptAt = kept ? room(rows.length * 8) : 0;
  const stored = loops.accumulateRows(place(rows), rows.length, place(codes), place(numbers), figuresAt, keptAt);
  copyBack(figuresAt, figures);
  if (kept) kept.set(views.f64.subarray(keptAt >>> 3, (keptAt >>> 3) + stored), keptFrom);
  return stored;
}

/**
 * Per bucket (0 for the empty one, entry + 1 for the others): its running figures, and where in
 * the kept rows it was first met (buckets appear in that order).
 */
export interface BucketTally {
  first: Float64Array;
  count: Float64Array;
  sum: Float64Array;
  min: Float64Array;
  max: Float64Array;
}

export function bucketTally(buckets: number): BucketTally {
  return {
    first: new Float64Array(buckets),
    count: new Float64Array(buckets),
    sum: new Float64Array(buckets),
    min: new Float64Array(buckets).fill(Infinity),
    max: new Float64Array(buckets).fill(-Infinity),
  };
}

/**
 * Each kept row's value (`valueOfSlot` at the slot of its `valueCodes`; NaN leaves the row out)
 * added, in row order, to each bucket its slot of `codes` names: `buckets[from[slot]]` up to
 * `from[slot + 1]`, each bucket + 1 (0 for the empty bucket), at least one per slot. Where a
 * bucket was first met counts positions within a row too: row k's j-th bucket is met at
 * k · `stride` + j (`stride` above any slot's count).
 */
export function tallyByBuckets(
  rows: Uint32Array,
  codes: Int32Array,
  from: Int32Array,
  buckets: Int32Array,
  stride: number,
  valueCodes: Int32Array,
  valueOfSlot: Float64Array,
  t: BucketTally,
): void {
  if (rows.length === 0) return;
  newCall();
  const totals = [t.first, t.count, t.sum, t.min, t.max];
  const totalsAt = placeAll(totals);
  loops.tallyByBuckets(
    place(rows),
    rows.length,
    ...placeAll([codes, from, buckets]),
    stride,
    ...placeAll([valueCodes, valueOfSlot]),
    ...totalsAt,
  );
  copyAllBack(totalsAt, totals);
}

/** A board's columns as the sprint widgets read them, each per row or per slot. */
export interface SprintColumns {
  /** The board's sprint names (trimmed), in first-appearance order. */
  names: string[];
  sprintCodes: Int32Array;
  /** Per slot: an index into `names`, or −1 for no sprint. */
  sprintOf: Int32Array;
  effortCodes: Int32Array;
  /** Per slot: the effort, NaN when unestimated. */
  effortOf: Float64Array;
  doneCodes: Int32Array;
  doneOf: Uint8Array;
  dateCodes: Int32Array;
  /** Per slot: the date column's first and last day (equal for a date), NO_DAY without one. */
  firstDayOf: Int32Array;
  lastDayOf: Int32Array;
  createdCodes: Int32Array;
  /** Per slot: the day of `createdAt`, NO_DAY when it has none. */
  createdDayOf: Int32Array;
}

/** One board's sprint totals, per board-local sprint. */
export interface LocalTotals {
  committed: Float64Array;
  completed: Float64Array;
  items: Int32Array;
  done: Int32Array;
  spanFirst: Int32Array;
  spanLast: Int32Array;
}

/** Adds one board's kept items to its local totals; returns how many had no effort. */
export function addKeptItems(rows: Uint32Array, columns: SprintColumns, t: LocalTotals): number {
  if (rows.length === 0) return 0;
  newCall();
  const c = columns;
  const totals = [t.committed, t.completed, t.items, t.done, t.spanFirst, t.spanLast];
  const totalsAt = placeAll(totals);
  const unestimated = loops.addKeptItems(
    place(rows),
    rows.length,
    ...placeAll([
      c.sprintCodes,
      c.sprintOf,
      c.effortCodes,
      c.effortOf,
      c.doneCodes,
      c.doneOf,
      c.dateCodes,
      c.firstDayOf,
      c.lastDayOf,
    ]),
    ...totalsAt,
  );
  copyAllBack(totalsAt, totals);
  return unestimated;
}

/** One board's kept items as the sprint widgets read them. */
export interface SprintBoardPart {
  rows: Uint32Array;
  columns: SprintColumns;
  /** Per board-local sprint (`columns.names`): its index in `SprintSummary.sprints`, or −1. */
  toSprint: Int32Array;
}

/** Per sprint and part (planned, unplanned, unknown, at `sprint * 3 + part`). */
export interface PartTotals {
  effort: Float64Array;
  count: Int32Array;
  doneEffort: Float64Array;
  doneCount: Int32Array;
}

/** Adds one board's kept items in a sprint to their sprint's planned, unplanned or unknown part. */
export function addParts({ rows, columns: c, toSprint }: SprintBoardPart, starts: Int32Array, t: PartTotals): void {
  if (rows.length === 0) return;
  newCall();
  const totals = [t.effort, t.count, t.doneEffort, t.doneCount];
  const totalsAt = placeAll(totals);
  loops.addParts(
    place(rows),
    rows.length,
    ...placeAll([
      c.sprintCodes,
      c.sprintOf,
      toSprint,
      starts,
      c.createdCodes,
      c.createdDayOf,
      c.effortCodes,
      c.effortOf,
      c.doneCodes,
      c.doneOf,
    ]),
    ...totalsAt,
  );
  copyAllBack(totalsAt, totals);
}

/**
 * Burns one board's kept done items of the sprint at `sprint` on their day (into `burned`, a day
 * each from `first` to `last`; before `first` on the first); returns the effort of those with no
 * date, burned on `last`.
 */
export function burnPart(
  { rows, columns: c, toSprint }: SprintBoardPart,
  sprint: number,
  first: number,
  last: number,
  burned: Float64Array,
): number {
  if (rows.length === 0) return 0;
  newCall();
  const burnedAt = place(burned);
  const withoutDate = loops.burnPart(
    place(rows),
    rows.length,
    ...placeAll([c.sprintCodes, c.sprintOf, toSprint]),
    sprint,
    ...placeAll([c.doneCodes, c.doneOf, c.effortCodes, c.effortOf, c.dateCodes, c.lastDayOf]),
    first,
    last,
    burnedAt,
  );
  copyBack(burnedAt, burned);
  return withoutDate;
}

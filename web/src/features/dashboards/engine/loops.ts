/**
 * The engine's loops over items, run as WebAssembly (`wasm/engineLoops.ts`, built by
 * `engineLoops.config.ts`). A newly opened dashboard's worker has compiled none of its code: as
 * JavaScript these loops first ran in the interpreter, and V8 compiled each of them on the
 * machine's other core while the page itself was starting there, for a result it no longer
 * needed by then. WebAssembly is compiled once, in well under a millisecond, and runs at full
 * speed from the first item.
 *
 * Each call copies the typed arrays it reads into the module's memory, one after another, runs
 * the loop over them, and copies back what the loop wrote. The copies are a few kilobytes a
 * board; the loops read every item. A call over no rows changes nothing and copies nothing: the
 * worker derives each board's columns as it arrives by computing its widgets over no rows.
 */
import wasm from "virtual:engine-loops";

interface LoopExports {
  memory: WebAssembly.Memory;
  unpack(width: number, bytes: number, codes: number, count: number, absentAs: number): number;
  countBySlot(rows: number, count: number, codes: number, counts: number): void;
  accumulateRows(rows: number, count: number, codes: number, numbers: number, figures: number, kept: number): number;
  tallyByBuckets(
    rows: number,
    count: number,
    codes: number,
    from: number,
    buckets: number,
    stride: number,
    valueCodes: number,
    valueOfSlot: number,
    first: number,
    counts: number,
    sums: number,
    mins: number,
    maxes: number,
  ): void;
  addKeptItems(...offsets: number[]): number;
  addParts(...offsets: number[]): void;
  burnPart(...args: number[]): number;
}

function wasmBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const loops = new WebAssembly.Instance(new WebAssembly.Module(wasmBytes(wasm))).exports as unknown as LoopExports;

type NumberArray = Uint8Array | Int32Array | Uint32Array | Float64Array;

/** The offset the first array of a call goes to: 0 means "none" to the loops. */
const FIRST_OFFSET = 8;
const PAGE_BYTES = 65_536;

/** Where the current call's arrays go, and which are copied in before it runs. */
let end = FIRST_OFFSET;
let copiedIn: [NumberArray, number][] = [];

function take(bytes: number): number {
  const at = end;
  // Every array starts 8-byte aligned, as the f64 loads and stores expect.
  end = (at + bytes + 7) & ~7;
  return at;
}

/** Places `array` in the module's memory for the call being laid out: its offset. */
function place(array: NumberArray): number {
  const at = take(array.byteLength);
  copiedIn.push([array, at]);
  return at;
}

/** Reserves room for `bytes` the loop writes without reading them first: its offset. */
function room(bytes: number): number {
  return take(bytes);
}

/**
 * Copies the placed arrays in, growing the memory first if the call needs more, and starts the
 * next call's layout. The buffer returned reads what the loop wrote, until the next call.
 */
function run(): ArrayBuffer {
  const { memory } = loops;
  const short = end - memory.buffer.byteLength;
  if (short > 0) memory.grow(Math.ceil(short / PAGE_BYTES));
  const buffer = memory.buffer;
  for (const [array, at] of copiedIn)
    new Uint8Array(buffer, at, array.byteLength).set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  copiedIn = [];
  end = FIRST_OFFSET;
  return buffer;
}

function copyBack(buffer: ArrayBuffer, at: number, array: Float64Array | Int32Array): void {
  if (array instanceof Float64Array) array.set(new Float64Array(buffer, at, array.length));
  else array.set(new Int32Array(buffer, at, array.length));
}

/**
 * Packed codes (`width` bytes each, little-endian, a code + 1 with 0 for no value) into
 * `codes`; returns the highest value stored, a stored 0 counting as `absentAs`.
 */
export function unpack(width: 1 | 2 | 4, bytes: Uint8Array, codes: Int32Array, absentAs: number): number {
  const from = place(bytes);
  const to = room(codes.byteLength);
  const buffer = run();
  const highest = loops.unpack(width, from, to, codes.length, absentAs);
  codes.set(new Int32Array(buffer, to, codes.length));
  return highest;
}

/** Per slot of `codes` (`slots` of them): how many of `rows` hold it. */
export function countBySlot(rows: Uint32Array, codes: Int32Array, slots: number): Float64Array {
  const counts = new Float64Array(slots);
  if (rows.length === 0) return counts;
  const args = [place(rows), rows.length, place(codes), place(counts)] as const;
  const buffer = run();
  loops.countBySlot(...args);
  copyBack(buffer, args[3], counts);
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
  const figuresAt = place(figures);
  const keptAt = kept ? room(rows.length * 8) : 0;
  const args = [place(rows), rows.length, place(codes), place(numbers)] as const;
  const buffer = run();
  const stored = loops.accumulateRows(...args, figuresAt, keptAt);
  copyBack(buffer, figuresAt, figures);
  if (kept) kept.set(new Float64Array(buffer, keptAt, stored), keptFrom);
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
  const totals = [t.first, t.count, t.sum, t.min, t.max];
  const args = [place(rows), rows.length, place(codes), place(from), place(buckets), stride] as const;
  const values = [place(valueCodes), place(valueOfSlot)] as const;
  const [first, count, sum, min, max] = totals.map(place) as [number, number, number, number, number];
  const buffer = run();
  loops.tallyByBuckets(...args, ...values, first, count, sum, min, max);
  totals.forEach((array, i) => copyBack(buffer, [first, count, sum, min, max][i] as number, array));
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
  const c = columns;
  const read = [c.sprintCodes, c.sprintOf, c.effortCodes, c.effortOf, c.doneCodes, c.doneOf, c.dateCodes];
  const head = [place(rows), rows.length, ...read.map(place), place(c.firstDayOf), place(c.lastDayOf)];
  const totals = [t.committed, t.completed, t.items, t.done, t.spanFirst, t.spanLast];
  const totalsAt = totals.map(place);
  const buffer = run();
  const unestimated = loops.addKeptItems(...head, ...totalsAt);
  totals.forEach((array, i) => copyBack(buffer, totalsAt[i] as number, array));
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
  const read = [c.sprintCodes, c.sprintOf, toSprint, starts, c.createdCodes, c.createdDayOf];
  const more = [c.effortCodes, c.effortOf, c.doneCodes, c.doneOf];
  const head = [place(rows), rows.length, ...read.map(place), ...more.map(place)];
  const totals = [t.effort, t.count, t.doneEffort, t.doneCount];
  const totalsAt = totals.map(place);
  const buffer = run();
  loops.addParts(...head, ...totalsAt);
  totals.forEach((array, i) => copyBack(buffer, totalsAt[i] as number, array));
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
  const head = [place(rows), rows.length, place(c.sprintCodes), place(c.sprintOf), place(toSprint), sprint];
  const read = [c.doneCodes, c.doneOf, c.effortCodes, c.effortOf, c.dateCodes, c.lastDayOf].map(place);
  const burnedAt = place(burned);
  const buffer = run();
  const withoutDate = loops.burnPart(...head, ...read, first, last, burnedAt);
  copyBack(buffer, burnedAt, burned);
  return withoutDate;
}

/**
 * The dashboard engine's loops over items, in AssemblyScript, compiled to WebAssembly when the
 * web app is built (`vite.config.ts`). A newly opened page's worker has compiled none of its
 * JavaScript: these loops ran in the interpreter, then in code V8 optimised on the machine's
 * other core while the page started there. WebAssembly runs compiled from its first item.
 *
 * Every argument named like a typed array is the byte offset of one in this module's memory,
 * laid out by `src/features/dashboards/engine/loops.ts`, which keeps each loop's contract (and
 * its JavaScript name); a slot is a code + 1, 0 for no value.
 */

const NO_DAY: i32 = -2147483648;

function i32At(array: usize, index: usize): i32 {
  return load<i32>(array + (index << 2));
}

function f64At(array: usize, index: usize): f64 {
  return load<f64>(array + (index << 3));
}

function slotAt(codes: usize, row: usize): usize {
  return <usize>(i32At(codes, row) + 1);
}

/** The `k`-th of a list of rows (u32). */
function rowAt(rows: usize, k: i32): usize {
  return <usize>load<u32>(rows + ((<usize>k) << 2));
}

function addF64(array: usize, index: usize, value: f64): void {
  const at = array + (index << 3);
  store<f64>(at, load<f64>(at) + value);
}

function addI32(array: usize, index: usize, value: i32): void {
  const at = array + (index << 2);
  store<i32>(at, load<i32>(at) + value);
}

/** The effort at `slot`, 0 for none (NaN). */
function effortOrZero(effortOf: usize, slot: usize): f64 {
  const raw = f64At(effortOf, slot);
  return raw == raw ? raw : 0;
}

/**
 * Packed codes (`width` bytes each, little-endian, a code + 1 with 0 for no value) into i32
 * codes; returns the highest stored value, a stored 0 counting as `absentAs`.
 */
export function unpack(width: i32, bytes: usize, codes: usize, count: i32, absentAs: u32): f64 {
  let highest: u32 = 0;
  for (let i = 0; i < count; i++) {
    const at = <usize>i;
    const stored: u32 =
      width == 1
        ? <u32>load<u8>(bytes + at)
        : width == 2
          ? <u32>load<u16>(bytes + (at << 1))
          : load<u32>(bytes + (at << 2));
    store<i32>(codes + (at << 2), <i32>stored - 1);
    const seen = stored == 0 ? absentAs : stored;
    if (seen > highest) highest = seen;
  }
  return <f64>highest;
}

/** Per slot of `codes`: how many of the `count` rows hold it, added to `counts` (f64). */
export function countBySlot(rows: usize, count: i32, codes: usize, counts: usize): void {
  for (let k = 0; k < count; k++) addF64(counts, slotAt(codes, rowAt(rows, k)), 1);
}

/**
 * Each row's number (`numbers` at its slot; NaN leaves it out) into the running figures at
 * `figures` (count, sum, min, max) and, when `kept` is not 0, one after another into `kept`;
 * returns how many were kept.
 */
export function accumulateRows(
  rows: usize,
  count: i32,
  codes: usize,
  numbers: usize,
  figures: usize,
  kept: usize,
): i32 {
  let n = load<f64>(figures);
  let sum = load<f64>(figures, 8);
  let min = load<f64>(figures, 16);
  let max = load<f64>(figures, 24);
  let stored = 0;
  for (let k = 0; k < count; k++) {
    const v = f64At(numbers, slotAt(codes, rowAt(rows, k)));
    if (v != v) continue;
    if (kept != 0) store<f64>(kept + ((<usize>stored) << 3), v);
    stored++;
    n += 1;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  store<f64>(figures, n);
  store<f64>(figures, sum, 8);
  store<f64>(figures, min, 16);
  store<f64>(figures, max, 24);
  return kept != 0 ? stored : 0;
}

/**
 * Each row's value (`valueOfSlot` at its slot of `valueCodes`; NaN leaves it out) added to each
 * bucket its slot of `codes` names (`buckets[from[slot]]` up to `from[slot + 1]`): count, sum,
 * min, max and where it was first met (row k's j-th bucket at k · `stride` + j), all f64.
 */
export function tallyByBuckets(
  rows: usize,
  count: i32,
  codes: usize,
  from: usize,
  buckets: usize,
  stride: f64,
  valueCodes: usize,
  valueOfSlot: usize,
  first: usize,
  counts: usize,
  sums: usize,
  mins: usize,
  maxes: usize,
): void {
  for (let k = 0; k < count; k++) {
    const row = rowAt(rows, k);
    const v = f64At(valueOfSlot, slotAt(valueCodes, row));
    if (v != v) continue;
    const slot = slotAt(codes, row);
    const start = i32At(from, slot);
    const end = i32At(from, slot + 1);
    for (let j = start; j < end; j++) {
      const b = (<usize>i32At(buckets, <usize>j)) << 3;
      const seen = load<f64>(counts + b);
      if (seen == 0) store<f64>(first + b, <f64>k * stride + <f64>(j - start));
      store<f64>(counts + b, seen + 1);
      store<f64>(sums + b, load<f64>(sums + b) + v);
      if (v < load<f64>(mins + b)) store<f64>(mins + b, v);
      if (v > load<f64>(maxes + b)) store<f64>(maxes + b, v);
    }
  }
}

/**
 * One board's kept rows added to its board-local sprint totals (`committed`, `completed` f64;
 * `items`, `done`, `spanFirst`, `spanLast` i32); returns how many had no effort.
 */
export function addKeptItems(
  rows: usize,
  count: i32,
  sprintCodes: usize,
  sprintOf: usize,
  effortCodes: usize,
  effortOf: usize,
  doneCodes: usize,
  doneOf: usize,
  dateCodes: usize,
  firstDayOf: usize,
  lastDayOf: usize,
  committed: usize,
  completed: usize,
  items: usize,
  done: usize,
  spanFirst: usize,
  spanLast: usize,
): i32 {
  let unestimated = 0;
  for (let k = 0; k < count; k++) {
    const i = rowAt(rows, k);
    const l = i32At(sprintOf, slotAt(sprintCodes, i));
    if (l < 0) continue;
    let e = f64At(effortOf, slotAt(effortCodes, i));
    if (e != e) {
      e = 0;
      unestimated++;
    }
    const at = <usize>l;
    addF64(committed, at, e);
    addI32(items, at, 1);
    if (load<u8>(doneOf + slotAt(doneCodes, i)) == 1) {
      addF64(completed, at, e);
      addI32(done, at, 1);
    }
    const dateSlot = slotAt(dateCodes, i);
    const last = i32At(lastDayOf, dateSlot);
    if (last != NO_DAY) {
      const at4 = at << 2;
      const firstDay = i32At(firstDayOf, dateSlot);
      const lo = firstDay == NO_DAY ? last : firstDay;
      if (lo < load<i32>(spanFirst + at4)) store<i32>(spanFirst + at4, lo);
      if (last > load<i32>(spanLast + at4)) store<i32>(spanLast + at4, last);
    }
  }
  return unestimated;
}

/**
 * One board's kept rows in a sprint added to that sprint's planned, unplanned or unknown part
 * (at sprint · 3 + part: `effort`, `doneEffort` f64; `counts`, `doneCounts` i32).
 */
export function addParts(
  rows: usize,
  count: i32,
  sprintCodes: usize,
  sprintOf: usize,
  toSprint: usize,
  starts: usize,
  createdCodes: usize,
  createdDayOf: usize,
  effortCodes: usize,
  effortOf: usize,
  doneCodes: usize,
  doneOf: usize,
  effort: usize,
  counts: usize,
  doneEffort: usize,
  doneCounts: usize,
): void {
  for (let k = 0; k < count; k++) {
    const i = rowAt(rows, k);
    const l = i32At(sprintOf, slotAt(sprintCodes, i));
    if (l < 0) continue;
    const s = i32At(toSprint, <usize>l);
    if (s < 0) continue;
    const start = i32At(starts, <usize>s);
    const created = i32At(createdDayOf, slotAt(createdCodes, i));
    const part = start == NO_DAY || created == NO_DAY ? 2 : created <= start ? 0 : 1;
    const at = <usize>(s * 3 + part);
    const e = effortOrZero(effortOf, slotAt(effortCodes, i));
    addF64(effort, at, e);
    addI32(counts, at, 1);
    if (load<u8>(doneOf + slotAt(doneCodes, i)) == 1) {
      addF64(doneEffort, at, e);
      addI32(doneCounts, at, 1);
    }
  }
}

/**
 * One board's kept done rows of `sprint` burned into `burned` (f64, a day each from `first`, up
 * to `last`) on their day, before `first` on the first; returns the effort of those without a
 * day, burned on `last`.
 */
export function burnPart(
  rows: usize,
  count: i32,
  sprintCodes: usize,
  sprintOf: usize,
  toSprint: usize,
  sprint: i32,
  doneCodes: usize,
  doneOf: usize,
  effortCodes: usize,
  effortOf: usize,
  dateCodes: usize,
  lastDayOf: usize,
  first: i32,
  last: i32,
  burned: usize,
): f64 {
  let withoutDate: f64 = 0;
  for (let k = 0; k < count; k++) {
    const i = rowAt(rows, k);
    const l = i32At(sprintOf, slotAt(sprintCodes, i));
    if (l < 0 || i32At(toSprint, <usize>l) != sprint || load<u8>(doneOf + slotAt(doneCodes, i)) != 1) continue;
    const e = effortOrZero(effortOf, slotAt(effortCodes, i));
    let day = i32At(lastDayOf, slotAt(dateCodes, i));
    if (day == NO_DAY) {
      withoutDate += e;
      day = last;
    }
    // Done before the sprint began: burned on its first day; after its end: never within it.
    if (day <= last) addF64(burned, <usize>(day < first ? 0 : day - first), e);
  }
  return withoutDate;
}

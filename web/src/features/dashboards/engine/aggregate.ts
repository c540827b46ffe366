/**
 * The six aggregate functions shared by Numbers and Chart, as a streaming accumulator: values
 * are only kept when the median needs them.
 */
import { cleanNumber } from "./formatFigure";
import { accumulateNumbers } from "./loops";
import type { AggregateFunction } from "./types";

export const AGGREGATE_FUNCTIONS: readonly AggregateFunction[] = ["count", "sum", "avg", "median", "min", "max"];

export function isAggregateFunction(value: unknown): value is AggregateFunction {
  return typeof value === "string" && (AGGREGATE_FUNCTIONS as readonly string[]).includes(value);
}

export interface Accumulator {
  count: number;
  sum: number;
  min: number;
  max: number;
  /** Values one by one (the first `stored` slots), kept only for the median. */
  values: Float64Array | null;
  stored: number;
  /** Values with how many items hold each, for the median over columns of few distinct values. */
  counted: Map<number, number> | null;
}

export function newAccumulator(fn: AggregateFunction): Accumulator {
  const median = fn === "median";
  return {
    count: 0,
    sum: 0,
    min: Infinity,
    max: -Infinity,
    values: median ? new Float64Array(16) : null,
    stored: 0,
    counted: median ? new Map() : null,
  };
}

function reserve(acc: Accumulator, more: number): Float64Array | null {
  const values = acc.values;
  if (!values || values.length >= acc.stored + more) return values;
  const grown = new Float64Array(Math.max(acc.stored + more, values.length * 2));
  grown.set(values.subarray(0, acc.stored));
  acc.values = grown;
  return grown;
}

export function accumulate(acc: Accumulator, value: number): void {
  const values = reserve(acc, 1);
  if (values) values[acc.stored++] = value;
  acc.count++;
  acc.sum += value;
  if (value < acc.min) acc.min = value;
  if (value > acc.max) acc.max = value;
}

/**
 * Adds the number of each row of `rows` (`numbers` at the slot of its code; NaN: none), in item
 * order: the loop the Numbers widget runs over every kept item (`loops.ts`), the values kept for
 * the median in one buffer grown once.
 */
export function accumulateRows(acc: Accumulator, rows: Uint32Array, codes: Int32Array, numbers: Float64Array): void {
  const kept = reserve(acc, rows.length);
  const figures = Float64Array.of(acc.count, acc.sum, acc.min, acc.max);
  acc.stored += accumulateNumbers(rows, codes, numbers, figures, kept, acc.stored);
  acc.count = figures[0] as number;
  acc.sum = figures[1] as number;
  acc.min = figures[2] as number;
  acc.max = figures[3] as number;
}

/**
 * Adds, for the median, how many kept items hold each slot of one number column (`numbers` per
 * slot): a column of few distinct values is counted, never copied.
 */
export function addCounted(acc: Accumulator, numbers: Float64Array, counts: Float64Array): void {
  const counted = acc.counted;
  for (let slot = 0; slot < counts.length; slot++) {
    const times = counts[slot] as number;
    const value = numbers[slot] as number;
    if (times === 0 || value !== value) continue;
    acc.count += times;
    counted?.set(value, (counted.get(value) ?? 0) + times);
  }
}

/** The k-th smallest value (0-based), partially reordering `a` in place (Hoare's quickselect). */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k] as number;
}

/**
 * The middle value, or the mean of the two middle values on an even count; linear time. It
 * reorders `a`, which only the finished accumulator holds.
 */
function median(a: Float64Array): number {
  const mid = a.length >> 1;
  const upper = select(a, mid);
  if (a.length % 2 === 1) return upper;
  // After selecting `mid`, everything before it is no larger: the lower middle is their maximum.
  let lower = -Infinity;
  for (let i = 0; i < mid; i++) if ((a[i] as number) > lower) lower = a[i] as number;
  return (lower + upper) / 2;
}

/** The middle of everything added: counted values alone are walked, mixed ones expanded. */
function finishMedian(acc: Accumulator): number {
  const counted = acc.counted;
  if (counted && counted.size > 0 && acc.stored === 0) return medianOfCounts(counted, acc.count);
  if (counted && counted.size > 0) {
    const values = reserve(acc, acc.count - acc.stored) as Float64Array;
    for (const [value, times] of counted) {
      values.fill(value, acc.stored, acc.stored + times);
      acc.stored += times;
    }
    counted.clear();
  }
  return median((acc.values ?? new Float64Array(0)).subarray(0, acc.stored));
}

/** The median of `total` values given as value → how many. */
function medianOfCounts(counted: ReadonlyMap<number, number>, total: number): number {
  const values = [...counted.keys()].sort((a, b) => a - b);
  // 0-based positions of the two middle values (equal on an odd count).
  const lowAt = (total - 1) >> 1;
  const highAt = total >> 1;
  let seen = 0;
  let low = Number.NaN;
  for (const value of values) {
    seen += counted.get(value) as number;
    if (low !== low && seen > lowAt) low = value;
    if (seen > highAt) return (low + value) / 2;
  }
  return low;
}

/** The function's result; null for an empty set (except count, which is 0). */
export function finishAggregate(fn: AggregateFunction, acc: Accumulator): number | null {
  if (fn === "count") return acc.count;
  if (acc.count === 0) return null;
  switch (fn) {
    case "sum":
      return cleanNumber(acc.sum);
    case "avg":
      return cleanNumber(acc.sum / acc.count);
    case "median":
      return cleanNumber(finishMedian(acc));
    case "min":
      return acc.min;
    case "max":
      return acc.max;
  }
}

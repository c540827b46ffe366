/**
 * The six aggregate functions shared by Numbers and Chart, as a streaming accumulator: values
 * are only kept when the median needs them.
 */
import { cleanNumber } from "./formatFigure";
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
  /** Every value (the first `count` slots), kept only for the median. */
  values: Float64Array | null;
}

export function newAccumulator(fn: AggregateFunction): Accumulator {
  return { count: 0, sum: 0, min: Infinity, max: -Infinity, values: fn === "median" ? new Float64Array(16) : null };
}

export function accumulate(acc: Accumulator, value: number): void {
  const values = acc.values;
  if (values) {
    if (acc.count === values.length) {
      const grown = new Float64Array(values.length * 2);
      grown.set(values);
      acc.values = grown;
    }
    (acc.values as Float64Array)[acc.count] = value;
  }
  acc.count++;
  acc.sum += value;
  if (value < acc.min) acc.min = value;
  if (value > acc.max) acc.max = value;
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
      return cleanNumber(median((acc.values ?? new Float64Array(0)).subarray(0, acc.count)));
    case "min":
      return acc.min;
    case "max":
      return acc.max;
  }
}

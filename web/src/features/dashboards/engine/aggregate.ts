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
  /** Every value, kept only for the median. */
  values: number[] | null;
}

export function newAccumulator(fn: AggregateFunction): Accumulator {
  return { count: 0, sum: 0, min: Infinity, max: -Infinity, values: fn === "median" ? [] : null };
}

export function accumulate(acc: Accumulator, value: number): void {
  acc.count++;
  acc.sum += value;
  if (value < acc.min) acc.min = value;
  if (value > acc.max) acc.max = value;
  if (acc.values) acc.values.push(value);
}

function median(values: readonly number[]): number {
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
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
      return cleanNumber(median(acc.values ?? []));
    case "min":
      return acc.min;
    case "max":
      return acc.max;
  }
}

/**
 * Kept items tallied through their codes, the loops over items of the widgets that aggregate: a
 * board's columns hold few distinct values beside its items, and what each value means (its
 * number, its buckets) is decided once per entry, in a table per slot (0 for no value, code + 1
 * for entry `code`; `columnar.ts`). These loops read an item's code and its slot's meaning; no
 * column is first copied into a value per item, which took a loop of its own per column, each run
 * first in the interpreter of a worker whose code nothing has compiled yet.
 */

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
  const { first, count, sum, min, max } = t;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const v = valueOfSlot[(valueCodes[row] as number) + 1] as number;
    if (v !== v) continue;
    const slot = (codes[row] as number) + 1;
    const start = from[slot] as number;
    const to = from[slot + 1] as number;
    for (let j = start; j < to; j++) {
      const b = buckets[j] as number;
      if (count[b] === 0) first[b] = k * stride + j - start;
      count[b] = (count[b] as number) + 1;
      sum[b] = (sum[b] as number) + v;
      if (v < (min[b] as number)) min[b] = v;
      if (v > (max[b] as number)) max[b] = v;
    }
  }
}

/** Per slot of `codes` (`slots` of them): how many kept rows hold it. */
export function countBySlot(rows: Uint32Array, codes: Int32Array, slots: number): Float64Array {
  const counts = new Float64Array(slots);
  for (let k = 0; k < rows.length; k++) {
    const slot = (codes[rows[k] as number] as number) + 1;
    counts[slot] = (counts[slot] as number) + 1;
  }
  return counts;
}

import { describe, expect, test } from "vitest";
import { bucketTally, countBySlot, tallyByBuckets } from "./codeTally";

// Items 0‥5 hold codes 2, −1, 0, 2, 1, 0 of a column with three entries (slots 0‥3).
const codes = Int32Array.of(2, -1, 0, 2, 1, 0);
const all = Uint32Array.of(0, 1, 2, 3, 4, 5);

describe("the tallies through codes", () => {
  test("tallyByBuckets adds each kept item's value to each bucket its slot names, in item order, and leaves NaN out", () => {
    // Slot 0 (no value): the empty bucket 0; slot 1: buckets 1 and 2; slot 2: the empty bucket; slot 3: bucket 2.
    const from = Int32Array.of(0, 1, 3, 4, 5);
    const buckets = Int32Array.of(0, 1, 2, 0, 2);
    const t = bucketTally(3);
    tallyByBuckets(all, codes, from, buckets, 3, codes, Float64Array.of(Number.NaN, 10, 20, 30), t);
    // Item 1 holds no value, whose value is NaN: left out. Items 2 and 5 (slot 1) add 10 to buckets
    // 1 and 2, item 4 (slot 2) 20 to the empty bucket, items 0 and 3 (slot 3) 30 each to bucket 2.
    expect([...t.count]).toEqual([1, 2, 4]);
    expect([...t.sum]).toEqual([20, 20, 80]);
    expect([t.min[2], t.max[2]]).toEqual([10, 30]);
    // Where the kept items first met each bucket: row k's j-th bucket at 3k + j.
    expect([...t.first]).toEqual([12, 6, 0]);
  });

  test("countBySlot counts the kept items per slot, and only the kept ones", () => {
    expect([...countBySlot(all, codes, 4)]).toEqual([1, 2, 1, 2]);
    expect([...countBySlot(Uint32Array.of(0, 3), codes, 4)]).toEqual([0, 0, 0, 2]);
  });
});

import { describe, expect, test } from "vitest";
import { accumulateNumbers, bucketTally, countBySlot, tallyByBuckets, unpack } from "./loops";

// Items 0‥5 hold codes 2, −1, 0, 2, 1, 0 of a column with three entries (slots 0‥3).
const codes = Int32Array.of(2, -1, 0, 2, 1, 0);
const all = Uint32Array.of(0, 1, 2, 3, 4, 5);

describe("the loops over items, in WebAssembly", () => {
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

  test("unpack reads each width little-endian as a code + 1, and reports the highest stored", () => {
    const codes = new Int32Array(3);
    expect(unpack(1, Uint8Array.of(0, 3, 1), codes, 0)).toBe(3);
    expect([...codes]).toEqual([-1, 2, 0]);
    // A stored 0 (no value) counts as `absentAs` where no value may be.
    expect(unpack(1, Uint8Array.of(0, 3, 1), codes, 9)).toBe(9);
    expect(unpack(2, Uint8Array.of(1, 1, 0, 0, 2, 0), codes, 0)).toBe(257);
    expect([...codes]).toEqual([256, -1, 1]);
    // The highest is unsigned: a stored 2^32 − 1 is not a −1.
    expect(unpack(4, Uint8Array.of(255, 255, 255, 255, 1, 0, 0, 0, 0, 0, 0, 0), codes, 0)).toBe(2 ** 32 - 1);
  });

  test("accumulateNumbers adds the kept rows' numbers in row order, and stores them after those kept before", () => {
    const numbers = Float64Array.of(Number.NaN, 1, 2, 3);
    const figures = Float64Array.of(1, 5, 5, 5);
    const kept = Float64Array.of(5, 0, 0, 0, 0, 0);
    // Items 0‥5 are at slots 3, 0, 1, 3, 2, 1; slot 0 (no value) is NaN, so item 1 is left out.
    expect(accumulateNumbers(all, codes, numbers, figures, kept, 1)).toBe(5);
    expect([...figures]).toEqual([6, 15, 1, 5]);
    expect([...kept]).toEqual([5, 3, 1, 3, 2, 1]);
    // Without a buffer (no median) nothing is stored.
    expect(accumulateNumbers(all, codes, numbers, figures, null, 0)).toBe(0);
    expect([...figures]).toEqual([11, 25, 1, 5]);
  });

  test("a call larger than the module's memory grows it, and reads back what it wrote", () => {
    const count = 3_000_000;
    const rows = new Uint32Array(count).map((_, i) => i);
    const many = new Int32Array(count).map((_, i) => i % 3);
    expect([...countBySlot(rows, many, 4)]).toEqual([0, count / 3, count / 3, count / 3]);
  });
});

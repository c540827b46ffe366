import { describe, expect, test } from "vitest";
import { tallyBySlot } from "./codeTally";

describe("tallyBySlot", () => {
  // Items 0‥5 hold codes 2, −1, 0, 2, 1, 0 of a column with three entries (slots 0‥3).
  const codes = Int32Array.of(2, -1, 0, 2, 1, 0);
  const values = Float64Array.of(Number.NaN, 10, 20, 30);

  test("counts, sums and bounds each slot's kept items, slots in the order the items first meet them", () => {
    const t = tallyBySlot(Uint32Array.of(0, 1, 2, 3, 4, 5), codes, 4, codes, values);
    // Item 1 holds no value (slot 0, NaN): left out.
    expect([...t.met.subarray(0, t.metCount)]).toEqual([3, 1, 2]);
    expect([...t.count]).toEqual([0, 2, 1, 2]);
    expect([...t.sum]).toEqual([0, 20, 20, 60]);
    expect([t.min[3], t.max[3]]).toEqual([30, 30]);
  });

  test("reads only the kept rows, and values through another column's slots", () => {
    const weights = Float64Array.of(1, 1, Number.NaN);
    // Item values come from a second column: codes 0, 0, 1, 1, 0, −1.
    const other = Int32Array.of(0, 0, 1, 1, 0, -1);
    const t = tallyBySlot(Uint32Array.of(3, 4, 5), codes, 4, other, weights);
    // Item 3 reads slot 2 of the other column (NaN): only items 4 and 5 count.
    expect([...t.met.subarray(0, t.metCount)]).toEqual([2, 1]);
    expect([...t.count]).toEqual([0, 1, 1, 0]);
  });
});

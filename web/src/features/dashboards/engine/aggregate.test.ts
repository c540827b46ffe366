import { describe, expect, it } from "vitest";
import { accumulate, finishAggregate, newAccumulator } from "./aggregate";

function sortedMedian(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

describe("finishAggregate median", () => {
  it("matches a sort-based median on many lists with ties, odd and even lengths", () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 300; round++) {
      const length = 1 + Math.floor(random() * 60);
      const spread = 1 + Math.floor(random() * 10);
      const values = Array.from({ length }, () => Math.floor(random() * spread) - spread / 2);
      const acc = newAccumulator("median");
      for (const v of values) accumulate(acc, v);
      expect(finishAggregate("median", acc)).toBe(sortedMedian(values));
    }
  });

  it("is null on an empty set, and count is 0", () => {
    expect(finishAggregate("median", newAccumulator("median"))).toBeNull();
    expect(finishAggregate("count", newAccumulator("count"))).toBe(0);
  });
});

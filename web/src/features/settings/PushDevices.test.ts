import { describe, expect, it } from "vitest";
import { outcomeWords } from "./PushDevices";

describe("outcomeWords", () => {
  it("says what became of a test push", () => {
    expect(outcomeWords({ state: "delivered" })).toMatch(/^Sent/);
    expect(outcomeWords({ state: "retrying", status: 429, at: "2026-01-05T09:02:00.000Z" })).toContain("(429)");
    expect(outcomeWords({ state: "gone" })).toContain("removed");
    expect(outcomeWords({ state: "failed", status: 400, reason: "the push service refused it (400)" })).toBe(
      "Not sent: the push service refused it (400)",
    );
  });
});

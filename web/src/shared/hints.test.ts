import { describe, expect, it } from "vitest";
import { hintsShown } from "./hints";

describe("the optional tips", () => {
  it("show by default and while helpfulHintsEnabled is on, and hide only when it is off", () => {
    expect(hintsShown(undefined)).toBe(true);
    expect(hintsShown({})).toBe(true);
    expect(hintsShown({ helpfulHintsEnabled: true })).toBe(true);
    expect(hintsShown({ helpfulHintsEnabled: false })).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { isSessionPage } from "./presence";

describe("isSessionPage", () => {
  it("is one session's page, not the list or another page", () => {
    expect(isSessionPage("/sessions/abc")).toBe(true);
    expect(isSessionPage("/sessions/abc/files")).toBe(true);
    expect(isSessionPage("/sessions")).toBe(false);
    expect(isSessionPage("/sessions/")).toBe(false);
    expect(isSessionPage("/inbox")).toBe(false);
  });
});

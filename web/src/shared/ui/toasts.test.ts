import { describe, expect, it } from "vitest";
import { errorToastMs } from "./toasts";

describe("errorToastMs", () => {
  it("follows toastDisplayDurationSeconds within 3 to 30 s", () => {
    expect(errorToastMs(8)).toBe(8000);
    expect(errorToastMs(1)).toBe(3000);
    expect(errorToastMs(60)).toBe(30000);
  });
  it("uses the default (5 s) for a value that is not a number", () => {
    expect(errorToastMs(undefined)).toBe(5000);
    expect(errorToastMs("7")).toBe(5000);
  });
});

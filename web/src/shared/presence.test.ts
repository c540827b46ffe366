import { describe, expect, it } from "vitest";
import { presenceReport } from "./presence";

describe("presenceReport", () => {
  it("reports the tab's visibility on load, on each change and on each heartbeat", () => {
    for (const moment of ["load", "visibilitychange", "heartbeat"] as const) {
      expect(presenceReport("tab", moment, "visible")).toEqual({ appId: "tab", visible: true });
      expect(presenceReport("tab", moment, "hidden")).toEqual({ appId: "tab", visible: false });
    }
  });

  it("says gone when the page goes away, whatever it showed", () => {
    expect(presenceReport("tab", "pagehide", "visible")).toEqual({ appId: "tab", visible: false, gone: true });
    expect(presenceReport("tab", "pagehide", "hidden")).toEqual({ appId: "tab", visible: false, gone: true });
  });
});

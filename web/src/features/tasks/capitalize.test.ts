import { describe, expect, it } from "vitest";
import { autoCapitalize } from "./capitalize";

describe("autoCapitalize", () => {
  it("capitalizes the first word once it is complete", () => {
    expect(autoCapitalize("fix")).toBe("fix");
    expect(autoCapitalize("fix ")).toBe("Fix ");
    expect(autoCapitalize("fix the build")).toBe("Fix the build");
  });

  it("capitalizes each sentence start", () => {
    expect(autoCapitalize("fix it. then ship it! why not? ok ")).toBe("Fix it. Then ship it! Why not? Ok ");
  });

  it("leaves links, paths and file names alone", () => {
    expect(autoCapitalize("https://example.com is down")).toBe("https://example.com is down");
    expect(autoCapitalize("www.example.com is down")).toBe("www.example.com is down");
    expect(autoCapitalize("src/main.rs needs tests")).toBe("src/main.rs needs tests");
    expect(autoCapitalize("~/notes first")).toBe("~/notes first");
    expect(autoCapitalize("main.rs panics")).toBe("main.rs panics");
    expect(autoCapitalize("done. ./run.sh again")).toBe("Done. ./run.sh again");
  });

  it("does not start a sentence after an abbreviation", () => {
    expect(autoCapitalize("use a queue, e.g. redis for it")).toBe("Use a queue, e.g. redis for it");
    expect(autoCapitalize("tabs vs. spaces again")).toBe("Tabs vs. spaces again");
  });

  it("keeps words that have their own case", () => {
    expect(autoCapitalize("iOS build fails")).toBe("iOS build fails");
    expect(autoCapitalize("2fa setup")).toBe("2fa setup");
  });

  it("keeps the spacing the person typed", () => {
    expect(autoCapitalize("  fix   it  ")).toBe("  Fix   it  ");
  });
});

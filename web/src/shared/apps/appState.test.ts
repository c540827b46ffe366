import { describe, expect, it } from "vitest";
import { appsEnabled, appStateLabel, appStateTone, declaredToStart, isLive, startedFrom, uptimeText } from "./appState";
import { runningApp } from "./fixtures";

const STARTED = "2026-01-01T10:00:00Z";
const at = (ms: number) => Date.parse(STARTED) + ms;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("an app's uptime", () => {
  it("counts seconds, then minutes, then hours and minutes, then days and hours", () => {
    expect(uptimeText(STARTED, at(0))).toBe("0 s");
    expect(uptimeText(STARTED, at(42 * SECOND + 900))).toBe("42 s");
    expect(uptimeText(STARTED, at(MINUTE))).toBe("1 min");
    expect(uptimeText(STARTED, at(3 * MINUTE + 59 * SECOND))).toBe("3 min");
    expect(uptimeText(STARTED, at(59 * MINUTE + 59 * SECOND))).toBe("59 min");
    expect(uptimeText(STARTED, at(2 * HOUR))).toBe("2 h");
    expect(uptimeText(STARTED, at(2 * HOUR + 5 * MINUTE + 30 * SECOND))).toBe("2 h 5 min");
    expect(uptimeText(STARTED, at(23 * HOUR + 59 * MINUTE))).toBe("23 h 59 min");
    expect(uptimeText(STARTED, at(3 * DAY))).toBe("3 d");
    expect(uptimeText(STARTED, at(3 * DAY + 4 * HOUR + 59 * MINUTE))).toBe("3 d 4 h");
  });

  it("is 0 s for a start a little ahead of this clock, and nothing for a time it cannot read", () => {
    expect(uptimeText(STARTED, at(-5 * SECOND))).toBe("0 s");
    expect(uptimeText("yesterday-ish", at(0))).toBe("");
  });
});

describe("an app's state", () => {
  it("is said in words, an exit with its status", () => {
    expect(appStateLabel(runningApp())).toBe("Running");
    expect(appStateLabel(runningApp({ state: "failing", exitStatus: 1 }))).toBe("Failing");
    expect(appStateLabel(runningApp({ state: "exited", exitStatus: 1 }))).toBe("Exited (1)");
    expect(appStateLabel(runningApp({ state: "exited", exitStatus: 0 }))).toBe("Exited (0)");
    expect(appStateLabel(runningApp({ state: "exited", exitStatus: null }))).toBe("Exited");
  });

  it("is coloured running, failed for a crash loop, neutral once exited however it ended", () => {
    expect(appStateTone(runningApp())).toBe("running");
    expect(appStateTone(runningApp({ state: "failing" }))).toBe("failed");
    expect(appStateTone(runningApp({ state: "exited", exitStatus: 143 }))).toBe("neutral");
  });

  it("is live only while it runs: a failing one is no longer started again", () => {
    expect(isLive(runningApp())).toBe(true);
    expect(isLive(runningApp({ state: "failing" }))).toBe(false);
    expect(isLive(runningApp({ state: "exited" }))).toBe(false);
  });
});

describe("the setting", () => {
  it("leaves running apps on unless it is turned off, and before the settings are read", () => {
    expect(appsEnabled(undefined)).toBe(true);
    expect(appsEnabled({})).toBe(true);
    expect(appsEnabled({ runningAppsEnabled: true })).toBe(true);
    expect(appsEnabled({ runningAppsEnabled: false })).toBe(false);
  });
});

describe("declared apps", () => {
  it("are matched to the apps named after them, on a branch or not", () => {
    expect(startedFrom({ name: "web" }, { name: "web" })).toBe(true);
    expect(startedFrom({ name: "web.fix-login" }, { name: "web" })).toBe(true);
    expect(startedFrom({ name: "webhooks.fix-login" }, { name: "web" })).toBe(false);
    expect(startedFrom({ name: "api.web" }, { name: "web" })).toBe(false);
  });

  it("offer Start only for those with no app listed, whatever its state", () => {
    const declared = [
      { name: "web", command: "npm run dev" },
      { name: "api", command: "cargo run" },
      { name: "docs", command: "mdbook serve" },
      { name: "storybook", command: "npm run storybook" },
    ];
    const apps = [
      runningApp({ name: "web.fix-login" }),
      runningApp({ name: "api.fix-login", state: "exited", exitStatus: 1 }),
      runningApp({ name: "docs", state: "failing" }),
    ];
    expect(declaredToStart(declared, apps).map((d) => d.name)).toEqual(["storybook"]);
    expect(declaredToStart(declared, []).map((d) => d.name)).toEqual(["web", "api", "docs", "storybook"]);
  });
});

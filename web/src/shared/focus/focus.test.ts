import { describe, expect, it } from "vitest";
import type { InboxRow, RunState } from "../api/types.generated";
import { inboxRow } from "../inbox/fixtures";
import { heldByFocus, phaseLabel, releaseText, timeLeft } from "./focus";

const row = (category: InboxRow["category"], reason?: string): InboxRow => inboxRow("r1", { category, reason });

const run: RunState = {
  plan: { focusMinutes: 25, shortBreakMinutes: 5, longBreakMinutes: 15, blocks: 4, longBreakEvery: 4 },
  phase: "focus",
  block: 2,
  phaseStartedAt: "2026-01-05T08:30:00.000Z",
  phaseEndsAt: "2026-01-05T08:55:00.000Z",
  managesFocus: true,
  ruleId: null,
};

describe("heldByFocus", () => {
  const on = { on: true, alarmsPierce: true };
  it("holds what needs the user while focus mode is on", () => {
    expect(heldByFocus(row("webhook"), on)).toBe("held: focus mode");
    expect(heldByFocus(row("session", "question"), on)).toBe("held: focus mode");
    expect(heldByFocus(row("webhook"), { ...on, on: false })).toBeNull();
  });
  it("lets failed sessions through, and alarms while they pierce", () => {
    expect(heldByFocus(row("session", "failed"), on)).toBeNull();
    expect(heldByFocus(row("alarm"), on)).toBeNull();
    expect(heldByFocus(row("alarm"), { ...on, alarmsPierce: false })).toBe("held: focus mode");
  });
});

describe("releaseText", () => {
  it("counts what was held in words, one summary", () => {
    expect(releaseText({ since: "x", count: 3, categories: { session: 2, webhook: 1 } })).toBe(
      "While you focused: 2 sessions need you, 1 webhook.",
    );
    expect(releaseText({ since: "x", count: 1, categories: { session: 1 } })).toBe(
      "While you focused: 1 session needs you.",
    );
    expect(releaseText({ since: "x", count: 0, categories: {} })).toBe(
      "Focus mode is off. Nothing needed you meanwhile.",
    );
  });
});

describe("the timer", () => {
  it("names the phase and counts down to it", () => {
    expect(phaseLabel(run)).toBe("Focus 2/4");
    expect(phaseLabel({ ...run, phase: "long_break" })).toBe("Long break");
    expect(timeLeft(run, Date.parse("2026-01-05T08:42:30.400Z"))).toBe("12:30");
    expect(timeLeft(run, Date.parse("2026-01-05T09:00:00.000Z"))).toBe("0:00");
  });
});

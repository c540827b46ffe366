import { describe, expect, it } from "vitest";
import type { InboxRow } from "../api/types.generated";
import { inboxRow } from "./fixtures";
import { appendChime, HISTORY_CAP, parseHistory, type Chime } from "./history";
import {
  badgedTitle,
  chimingRow,
  hiddenCategories,
  IDLE_MS,
  needsUserCount,
  notifyDecision,
  shouldAutoSwitch,
  type NotifyContext,
} from "./rules";

const NOW = "2026-01-01T00:00:00Z";

const row = (over: Partial<InboxRow> = {}): InboxRow =>
  inboxRow("r1", { category: "session", title: "Session failed", source: { sessionId: "s1" }, ...over });

const background: NotifyContext = {
  behavior: "backgrounded",
  foreground: false,
  permission: "granted",
  hidden: new Set(),
};

describe("notifyDecision", () => {
  it("holds a notification while focus mode is on, but not a failed session's", () => {
    const focus = { on: true, alarmsPierce: true };
    expect(notifyDecision(row(), { ...background, focus })).toEqual({ show: false, reason: "held: focus mode" });
    expect(notifyDecision(row(), { ...background, focus: { ...focus, on: false } }).show).toBe(true);
    expect(notifyDecision(row({ reason: "failed" }), { ...background, focus }).show).toBe(true);
  });

  it("shows a row needing the user in a background tab", () => {
    expect(notifyDecision(row(), background)).toEqual({ show: true, reason: "shown (backgrounded)" });
    expect(notifyDecision(row(), { ...background, behavior: "always", foreground: true }).show).toBe(true);
  });

  it("says why it does not, in order", () => {
    const reason = (r: InboxRow, c: Partial<NotifyContext>) => notifyDecision(r, { ...background, ...c }).reason;
    expect(reason(row({ category: "digest" }), {})).toBe("suppressed: routine category");
    expect(reason(row({ reason: "routine" }), {})).toBe("suppressed: routine update");
    expect(reason(row({ reason: "question" }), {})).toBe("shown (backgrounded)");
    expect(reason(row(), { hidden: new Set(["session"]) })).toBe("suppressed: category hidden");
    expect(reason(row(), { behavior: "never" })).toBe("suppressed: notifications never");
    expect(reason(row(), { foreground: true })).toBe("suppressed: tab in foreground (backgrounded)");
    expect(reason(row(), { permission: "denied" })).toBe("permission denied");
    expect(reason(row(), { permission: "default" })).toBe("suppressed: permission not granted yet");
  });

  it("notifies a calendar reminder, held by focus and hidden with its category, but never the agenda", () => {
    const reminder = row({ category: "calendar", reason: "reminder", source: {} });
    expect(notifyDecision(reminder, background)).toEqual({ show: true, reason: "shown (backgrounded)" });
    expect(notifyDecision(row({ category: "calendar", reason: "agenda", source: {} }), background).reason).toBe(
      "suppressed: routine category",
    );
    expect(notifyDecision(reminder, { ...background, focus: { on: true, alarmsPierce: true } }).reason).toBe(
      "held: focus mode",
    );
    expect(notifyDecision(reminder, { ...background, hidden: new Set(["calendar"]) }).reason).toBe(
      "suppressed: category hidden",
    );
  });

  it("chimes only for rows that arrive or come again unread", () => {
    expect(chimingRow({ change: "created", ...row() })?.id).toBe("r1");
    expect(chimingRow({ change: "repeated", ...row() })?.id).toBe("r1");
    expect(chimingRow({ change: "updated", ...row() })).toBeNull();
    expect(chimingRow({ change: "read_all", category: null, count: 1 })).toBeNull();
    expect(chimingRow({ change: "created", ...row({ readAt: NOW }) })).toBeNull();
  });

  it("reads the hidden categories from the inboxShow settings", () => {
    expect([...hiddenCategories({ inboxShowSessions: false, inboxShowDigest: true })]).toEqual(["session"]);
    expect(hiddenCategories(undefined).size).toBe(0);
  });
});

describe("badge", () => {
  it("counts unread rows of the categories needing the user", () => {
    expect(needsUserCount({ session: 2, alert: 1, digest: 5, pm_event: 3, webhook: 1 })).toBe(4);
    expect(needsUserCount(undefined)).toBe(0);
  });

  it("puts the count in front of the title once", () => {
    expect(badgedTitle("Inbox · Switchboard", 3)).toBe("(3) Inbox · Switchboard");
    expect(badgedTitle("(3) Inbox · Switchboard", 4)).toBe("(4) Inbox · Switchboard");
    expect(badgedTitle("(3) Inbox · Switchboard", 0)).toBe("Inbox · Switchboard");
    expect(badgedTitle("Inbox", 150)).toBe("(99+) Inbox");
    expect(badgedTitle("(99+) Inbox", 1)).toBe("(1) Inbox");
  });
});

describe("shouldAutoSwitch", () => {
  const now = 1_000_000;
  const idle = { enabled: true, pathname: "/boards", lastInputAt: now - IDLE_MS, now };

  it("moves to the inbox for another session once idle 5 s", () => {
    expect(shouldAutoSwitch(row(), idle)).toBe(true);
    expect(shouldAutoSwitch(row(), { ...idle, lastInputAt: now - IDLE_MS + 1 })).toBe(false);
  });

  it("stays when off, on the inbox, on that session's page, or for a row not about a session", () => {
    expect(shouldAutoSwitch(row(), { ...idle, enabled: false })).toBe(false);
    expect(shouldAutoSwitch(row(), { ...idle, pathname: "/inbox" })).toBe(false);
    expect(shouldAutoSwitch(row(), { ...idle, pathname: "/sessions/s1" })).toBe(false);
    expect(shouldAutoSwitch(row(), { ...idle, pathname: "/sessions/s2" })).toBe(true);
    expect(shouldAutoSwitch(row({ category: "webhook" }), idle)).toBe(false);
    expect(shouldAutoSwitch(row({ reason: "routine" }), idle)).toBe(false);
  });
});

describe("chime history", () => {
  const chime = (n: number): Chime => ({
    at: NOW,
    rowId: `r${n}`,
    category: "alert",
    title: "t",
    shown: false,
    reason: "permission denied",
  });

  it("keeps the newest first, capped", () => {
    let log: Chime[] = [];
    for (let n = 0; n < HISTORY_CAP + 5; n++) log = appendChime(log, chime(n));
    expect(log).toHaveLength(HISTORY_CAP);
    expect(log[0]?.rowId).toBe(`r${HISTORY_CAP + 4}`);
  });

  it("reads back what it stored and survives garbage", () => {
    expect(parseHistory(JSON.stringify([chime(1)]))).toEqual([chime(1)]);
    expect(parseHistory("not json")).toEqual([]);
    expect(parseHistory('{"a":1}')).toEqual([]);
    expect(parseHistory(null)).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { Drip, ScheduledMessage } from "../../shared/api/types.generated";
import {
  dripFields,
  dripStatus,
  itemParam,
  itemView,
  messageFields,
  orderMessages,
  previewPath,
  ruleOnly,
  rruleWords,
  timingText,
  untilText,
  wallTime,
  type DripDraft,
  type MessageDraft,
} from "./drips";
import { whenDraft } from "../../shared/schedule/when";

const message = (over: Partial<MessageDraft>): MessageDraft => ({
  ...whenDraft("once", "Europe/Berlin"),
  markdown: "# Hi",
  ...over,
});

const drip = (over: Partial<DripDraft>): DripDraft => ({
  ...whenDraft("daily", "UTC"),
  name: "Tips",
  source: "app",
  folder: "",
  ...over,
});

const NOW = new Date("2026-01-05T06:00:00Z");

describe("the forms' requests", () => {
  it("makes a one-off at a local time in its zone", () => {
    expect(messageFields(message({ at: "2026-01-05T09:30" }), NOW)).toEqual({
      ok: true,
      value: { markdown: "# Hi", at: "2026-01-05T09:30", timeZone: "Europe/Berlin" },
    });
  });

  it("sends a preset as the shared picker's cron pattern", () => {
    expect(messageFields(message({ repeat: "weekdays", time: "08:45" }), NOW)).toEqual({
      ok: true,
      value: { markdown: "# Hi", cron: "45 8 * * 1-5", timeZone: "Europe/Berlin" },
    });
  });

  it("names the field a draft is missing", () => {
    expect(messageFields(message({ markdown: "  " }), NOW)).toMatchObject({
      ok: false,
      errors: { byField: { markdown: [expect.any(String)] } },
    });
    expect(messageFields(message({ at: "" }), NOW)).toMatchObject({
      ok: false,
      errors: { byField: { at: [expect.any(String)] } },
    });
    expect(messageFields(message({ repeat: "custom", syntax: "rrule", rule: " " }), NOW)).toMatchObject({
      ok: false,
      errors: { byField: { rrule: [expect.any(String)] } },
    });
    expect(messageFields(message({ repeat: "daily", time: "9" }), NOW)).toMatchObject({
      ok: false,
      errors: { byField: { time: [expect.any(String)] } },
    });
    expect(messageFields(message({ at: "2026-01-05T09:30", timeZone: "" }), NOW)).toMatchObject({
      ok: false,
      errors: { byField: { timeZone: [expect.any(String)] } },
    });
    expect(dripFields(drip({ name: "" }), NOW)).toMatchObject({
      ok: false,
      errors: { byField: { name: [expect.any(String)] } },
    });
    expect(dripFields(drip({ source: "folder", folder: " " }), NOW)).toMatchObject({
      ok: false,
      errors: { byField: { folder: [expect.any(String)] } },
    });
    expect(dripFields(drip({ repeat: "once", at: "2026-01-05T09:30" }), NOW)).toMatchObject({
      ok: false,
      errors: { byField: { repeat: [expect.any(String)] } },
    });
  });

  it("says every problem at once, in the server's words", () => {
    const bad = messageFields(message({ markdown: " ", at: "2026-01-05T06:30", timeZone: "Europe/Berlin" }), NOW);
    expect(bad.ok ? null : bad.errors.byField).toEqual({
      markdown: ["Write the note."],
      at: ["That time has passed: 06:30 this morning."],
    });
    const drip2 = dripFields(drip({ name: "", repeat: "custom", rule: "61 25 * * *", timeZone: "Mars/Olympus" }), NOW);
    expect(drip2.ok ? null : drip2.errors.byField).toEqual({
      name: ["Name the drip."],
      timeZone: ["No time zone is called Mars/Olympus: use a name such as Europe/Berlin."],
      cron: ["The minute must be 0–59, not 61.", "The hour must be 0–23, not 25."],
    });
  });

  it("sends a folder only for a folder drip", () => {
    expect(dripFields(drip({ repeat: "custom", rule: "0 9 * * 1", folder: "/ignored" }), NOW)).toEqual({
      ok: true,
      value: { name: "Tips", cron: "0 9 * * 1", timeZone: "UTC" },
    });
    expect(dripFields(drip({ source: "folder", folder: " /home/me/course " }), NOW)).toEqual({
      ok: true,
      value: { name: "Tips", folder: "/home/me/course", cron: "0 9 * * *", timeZone: "UTC" },
    });
  });
});

describe("timings in words", () => {
  const stored =
    "DTSTART;TZID=Europe/Berlin:20260105T091800\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0";

  it("reads the simple rules and leaves the rest as written", () => {
    expect(ruleOnly(stored)).toBe("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0");
    expect(rruleWords(stored)).toBe("every weekday at 09:00");
    expect(rruleWords("FREQ=DAILY;BYHOUR=7;BYMINUTE=5")).toBe("every day at 07:05");
    expect(rruleWords("FREQ=WEEKLY;BYDAY=SA,SU;BYHOUR=10")).toBe("every Saturday, Sunday at 10:00");
    expect(rruleWords("FREQ=DAILY;BYHOUR=9;COUNT=3")).toBeNull();
    expect(rruleWords("FREQ=MONTHLY;BYHOUR=9")).toBeNull();
    expect(rruleWords("FREQ=WEEKLY;BYDAY=1MO;BYHOUR=9")).toBeNull();
    expect(timingText({ at: "2026-01-05T08:30:00.000Z", cron: null, rrule: null })).toBe("Once");
    expect(timingText({ cron: "0 9 * * *", rrule: null })).toBe("Every day at 09:00");
    expect(timingText({ cron: "30 17 * * 5", rrule: null })).toBe("Every week on Friday at 17:30");
    expect(timingText({ cron: "*/15 * * * *", rrule: null })).toBe("Cron */15 * * * *");
    expect(timingText({ cron: null, rrule: stored })).toBe("Every weekday at 09:00");
    expect(timingText({ cron: null, rrule: "DTSTART:x\nRRULE:FREQ=HOURLY" })).toBe("RRULE FREQ=HOURLY");
  });

  it("says how long until a moment, on the wall of a zone", () => {
    const now = Date.parse("2026-01-05T08:00:00Z");
    expect(untilText("2026-01-05T08:05:00Z", now)).toBe("in 5 min");
    expect(untilText("2026-01-05T11:00:00Z", now)).toBe("in 3 h");
    expect(untilText("2026-01-09T08:00:00Z", now)).toBe("in 4 d");
    expect(untilText("2026-01-05T07:00:00Z", now)).toBe("now");
    expect(wallTime("2026-01-05T08:30:00.000Z", "Europe/Berlin")).toBe("5 Jan 2026, 09:30");
    expect(wallTime("2026-01-05T08:30:00.000Z", "Not/AZone")).toBe("2026-01-05T08:30:00.000Z");
  });
});

const scheduled = (id: string, over: Partial<ScheduledMessage>): ScheduledMessage => ({
  id,
  markdown: id,
  title: id,
  at: null,
  cron: "0 9 * * *",
  rrule: null,
  timeZone: "UTC",
  state: "active",
  nextAt: null,
  lastDeliveredAt: null,
  deliveries: 0,
  createdBySession: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

const aDrip = (over: Partial<Drip>): Drip => ({
  id: "d",
  name: "Tips",
  folder: null,
  at: null,
  cron: "0 9 * * *",
  rrule: null,
  timeZone: "UTC",
  state: "active",
  nextAt: "2026-01-06T09:00:00.000Z",
  lastReleasedAt: null,
  released: 2,
  remaining: 3,
  exhausted: false,
  skipped: 0,
  problem: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  ...over,
});

describe("cards", () => {
  it("puts active messages first by their next delivery, the delivered ones last", () => {
    const ordered = orderMessages([
      scheduled("done-old", { state: "done", lastDeliveredAt: "2026-01-01T00:00:00Z" }),
      scheduled("later", { nextAt: "2026-01-07T00:00:00Z" }),
      scheduled("paused", { state: "paused" }),
      scheduled("done-new", { state: "done", lastDeliveredAt: "2026-01-03T00:00:00Z" }),
      scheduled("soon", { nextAt: "2026-01-06T00:00:00Z" }),
    ]);
    expect(ordered.map((m) => m.id)).toEqual(["soon", "later", "paused", "done-new", "done-old"]);
  });

  it("says what state a drip's queue is in", () => {
    expect(dripStatus(aDrip({}))).toEqual({ tag: "Active", tone: "ok", queue: "3 waiting · 2 released" });
    expect(dripStatus(aDrip({ state: "paused" })).tag).toBe("Paused");
    expect(dripStatus(aDrip({ problem: "gone" })).tag).toBe("Folder unreadable");
    expect(dripStatus(aDrip({ remaining: 0, exhausted: true }))).toMatchObject({
      tag: "Exhausted",
      queue: "Nothing left to release: add items",
    });
    expect(dripStatus(aDrip({ remaining: 0, exhausted: true, folder: "/f" })).queue).toContain("add files");
  });

  it("frames HTML only while previews are on, and only through the sandboxed route", () => {
    expect(itemView("html", true)).toBe("frame");
    expect(itemView("html", false)).toBe("chip");
    expect(itemView("markdown", false)).toBe("markdown");
    expect(itemView("text", true)).toBe("text");
    expect(previewPath("d 1", "i/2")).toBe("/api/drips/d%201/items/i%2F2/preview");
    expect(itemParam("?item=abc")).toBe("abc");
    expect(itemParam("")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { ApiError } from "../../shared/api/client";
import type { Drip, ScheduledMessage } from "../../shared/api/types.generated";
import {
  cadenceRule,
  dripFields,
  dripStatus,
  itemParam,
  itemView,
  messageFields,
  orderMessages,
  previewPath,
  refusal,
  ruleOnly,
  rruleWords,
  timingDraft,
  timingText,
  untilText,
  wallTime,
  type DripDraft,
  type MessageDraft,
} from "./drips";

const message = (over: Partial<MessageDraft>): MessageDraft => ({
  ...timingDraft("once", "Europe/Berlin"),
  markdown: "# Hi",
  ...over,
});

const drip = (over: Partial<DripDraft>): DripDraft => ({
  ...timingDraft("daily", "UTC"),
  name: "Tips",
  source: "app",
  folder: "",
  ...over,
});

describe("the forms' requests", () => {
  it("makes a one-off at a local time in its zone", () => {
    expect(messageFields(message({ at: "2026-01-05T09:30" }))).toEqual({
      ok: true,
      value: { markdown: "# Hi", at: "2026-01-05T09:30", timeZone: "Europe/Berlin" },
    });
  });

  it("writes the common cadences as RRULEs", () => {
    expect(cadenceRule("daily", "9:05", "MO")).toBe("FREQ=DAILY;BYHOUR=9;BYMINUTE=5");
    expect(cadenceRule("weekdays", "18:30", "MO")).toBe("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=18;BYMINUTE=30");
    expect(cadenceRule("weekly", "07:00", "SU")).toBe("FREQ=WEEKLY;BYDAY=SU;BYHOUR=7;BYMINUTE=0");
    expect(cadenceRule("daily", "24:00", "MO")).toBeNull();
    expect(cadenceRule("daily", "noon", "MO")).toBeNull();
    expect(messageFields(message({ repeat: "weekdays", time: "08:45" }))).toEqual({
      ok: true,
      value: {
        markdown: "# Hi",
        rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=45",
        timeZone: "Europe/Berlin",
      },
    });
  });

  it("names the field a draft is missing", () => {
    expect(messageFields(message({ markdown: "  " }))).toMatchObject({ ok: false, field: "markdown" });
    expect(messageFields(message({ at: "" }))).toMatchObject({ ok: false, field: "at" });
    expect(messageFields(message({ repeat: "rrule", rule: " " }))).toMatchObject({ ok: false, field: "rrule" });
    expect(messageFields(message({ repeat: "daily", time: "9" }))).toMatchObject({ ok: false, field: "time" });
    expect(messageFields(message({ at: "2026-01-05T09:30", timeZone: "" }))).toMatchObject({
      ok: false,
      field: "timeZone",
    });
    expect(dripFields(drip({ name: "" }))).toMatchObject({ ok: false, field: "name" });
    expect(dripFields(drip({ source: "folder", folder: " " }))).toMatchObject({ ok: false, field: "folder" });
    expect(dripFields(drip({ repeat: "once", at: "2026-01-05T09:30" }))).toMatchObject({ ok: false, field: "repeat" });
  });

  it("sends a folder only for a folder drip", () => {
    expect(dripFields(drip({ repeat: "cron", rule: "0 9 * * 1", folder: "/ignored" }))).toEqual({
      ok: true,
      value: { name: "Tips", cron: "0 9 * * 1", timeZone: "UTC" },
    });
    expect(dripFields(drip({ source: "folder", folder: " /home/me/course " }))).toEqual({
      ok: true,
      value: { name: "Tips", folder: "/home/me/course", rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", timeZone: "UTC" },
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
    expect(timingText({ cron: "0 9 * * *", rrule: null })).toBe("Cron 0 9 * * *");
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

  it("puts a refusal beside its field when the form has it", () => {
    const bad = new ApiError(400, "invalid_request", "rrule: bad", "rrule");
    expect(refusal(bad, ["rrule"])).toEqual({ field: "rrule", message: "rrule: bad" });
    expect(refusal(bad, ["markdown"])).toEqual({ field: null, message: "rrule: bad" });
    expect(refusal("boom", ["x"])).toEqual({ field: null, message: "Something went wrong." });
  });
});

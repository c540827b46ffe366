import { describe, expect, it } from "vitest";
import { schedule } from "./fixtures";
import {
  capitalized,
  describeCron,
  describePattern,
  describeRrule,
  describeSchedule,
  nextRunText,
  rruleLines,
  scheduleDraft,
  scheduleFields,
  scheduleRule,
  untilText,
  zonedTime,
  type ScheduleDraft,
} from "./schedules";
import type { WhenDraft } from "../../shared/schedule/when";

describe("describeCron", () => {
  it("says the common shapes in words", () => {
    expect(describeCron("30 2 * * *")).toBe("every day at 02:30");
    expect(describeCron("0 9 * * 1-5")).toBe("every weekday at 09:00");
    expect(describeCron("0 9 * * MON-FRI")).toBe("every weekday at 09:00");
    expect(describeCron("0 10 * * 0,6")).toBe("on weekends at 10:00");
    expect(describeCron("15 8 * * 1,3,5")).toBe("every Monday, Wednesday and Friday at 08:15");
    expect(describeCron("0 7 * * 7")).toBe("every Sunday at 07:00");
    expect(describeCron("0 9,17 * * *")).toBe("every day at 09:00 and 17:00");
    expect(describeCron("0 8 1 * *")).toBe("on the 1st of every month at 08:00");
    expect(describeCron("0 8 22 * *")).toBe("on the 22nd of every month at 08:00");
    expect(describeCron("0 8 11 * *")).toBe("on the 11th of every month at 08:00");
    expect(describeCron("0 0 25 12 *")).toBe("every year on 25 December at 00:00");
    expect(describeCron("*/15 * * * *")).toBe("every 15 minutes");
    expect(describeCron("* * * * *")).toBe("every minute");
    expect(describeCron("0 * * * *")).toBe("every hour, on the hour");
    expect(describeCron("5 * * * *")).toBe("every hour at :05");
    expect(describeCron("0 */6 * * *")).toBe("every 6 hours at :00");
    expect(describeCron("  @daily ")).toBe("every day at 00:00");
    expect(describeCron("@hourly")).toBe("every hour, on the hour");
  });

  it("gives up on what it cannot say plainly", () => {
    expect(describeCron("0 9 1 * 1")).toBeNull();
    expect(describeCron("0-30/5 9 * * *")).toBeNull();
    expect(describeCron("0 9 * *")).toBeNull();
    expect(describeCron("61 9 * * *")).toBeNull();
    expect(describeCron("0 9 * * 5-1")).toBeNull();
    expect(describeCron("@reboot")).toBeNull();
  });
});

describe("describeRrule", () => {
  it("says the common shapes in words", () => {
    expect(describeRrule("FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0")).toBe("every week on Monday at 09:00");
    expect(describeRrule("RRULE:FREQ=DAILY;INTERVAL=2;BYHOUR=6;BYMINUTE=30;COUNT=10")).toBe(
      "every 2 days at 06:30, 10 times",
    );
    expect(describeRrule("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=0")).toBe(
      "every week on weekdays at 08:00",
    );
    expect(describeRrule("FREQ=WEEKLY;BYDAY=SA")).toBe("every week on Saturday");
    expect(describeRrule("FREQ=MONTHLY;BYMONTHDAY=1,15;BYHOUR=12;BYMINUTE=0;UNTIL=20261231T000000Z")).toBe(
      "every month on the 1st and 15th at 12:00, until 2026-12-31",
    );
    expect(describeRrule("FREQ=HOURLY;BYMINUTE=0,30")).toBe("every hour at :00 and :30");
    expect(describeRrule("freq=yearly;bymonth=3")).toBe("every year in March");
  });

  it("takes a time the rule leaves out from its DTSTART line, as RFC 5545 does", () => {
    const start = "DTSTART;TZID=America/New_York:20261125T144200\n";
    expect(describeRrule(`${start}RRULE:FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9`)).toBe("every month on the 1st at 09:42");
    expect(describeRrule(`${start}RRULE:FREQ=DAILY`)).toBe("every day at 14:42");
    expect(describeRrule(`${start}RRULE:FREQ=HOURLY`)).toBe("every hour at :42");
    expect(describeRrule(`${start}RRULE:FREQ=MINUTELY;INTERVAL=5`)).toBe("every 5 minutes");
    // Without the start, or with one in UTC, the minute is not known here.
    expect(describeRrule("FREQ=DAILY;BYHOUR=9")).toBeNull();
    expect(describeRrule("DTSTART:20261125T144200Z\nRRULE:FREQ=DAILY;BYHOUR=9")).toBeNull();
    expect(describeRrule("FREQ=DAILY;BYMINUTE=5")).toBeNull();
    expect(describeRrule("FREQ=HOURLY;BYHOUR=9")).toBeNull();
  });

  it("shows the RRULE line apart from the DTSTART line", () => {
    expect(rruleLines("DTSTART;TZID=UTC:20260101T000000\nRRULE:FREQ=DAILY")).toEqual({
      rrule: "RRULE:FREQ=DAILY",
      start: "DTSTART;TZID=UTC:20260101T000000",
    });
    expect(rruleLines("FREQ=DAILY")).toEqual({ rrule: "FREQ=DAILY", start: null });
  });

  it("reads past a DTSTART line", () => {
    expect(describeRrule("DTSTART;TZID=Europe/Berlin:20260301T090000\nRRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0")).toBe(
      "every day at 09:00",
    );
  });

  it("gives up on what it cannot say plainly", () => {
    expect(describeRrule("FREQ=MONTHLY;BYDAY=1MO")).toBeNull();
    expect(describeRrule("FREQ=MONTHLY;BYSETPOS=-1;BYDAY=FR")).toBeNull();
    expect(describeRrule("BYHOUR=9")).toBeNull();
    expect(describeRrule("FREQ=DAILY;BYHOUR")).toBeNull();
    expect(describeRrule("")).toBeNull();
  });
});

describe("a schedule's rule", () => {
  it("is read under the syntax it was written in", () => {
    const cron = schedule("s1", { cron: "30 2 * * *" });
    const rrule = schedule("s2", { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0" });
    expect(scheduleRule(cron)).toEqual({ syntax: "cron", text: "30 2 * * *" });
    expect(scheduleRule(rrule)).toEqual({ syntax: "rrule", text: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0" });
    expect(describeSchedule(cron)).toBe("every day at 02:30");
    expect(describeSchedule(rrule)).toBe("every day at 09:00");
    expect(describePattern("cron", "  ")).toBeNull();
    expect(capitalized("every day")).toBe("Every day");
  });
});

describe("when a schedule runs next", () => {
  const now = Date.parse("2026-03-01T10:00:00Z");

  it("counts forward", () => {
    expect(untilText("2026-03-01T09:00:00Z", now)).toBe("due now");
    expect(untilText("2026-03-01T10:00:30Z", now)).toBe("in under a minute");
    expect(untilText("2026-03-01T10:05:00Z", now)).toBe("in 5 min");
    expect(untilText("2026-03-01T13:00:00Z", now)).toBe("in 3 h");
    expect(untilText("2026-03-04T10:00:00Z", now)).toBe("in 3 d");
  });

  it("is not while pending or paused, nor once the rule has ended", () => {
    expect(nextRunText({ state: "pending", nextAt: null }, now)).toBe("Not until approved");
    expect(nextRunText({ state: "paused", nextAt: null }, now)).toBe("Not while paused");
    expect(nextRunText({ state: "active", nextAt: null }, now)).toBe("No more runs");
    expect(nextRunText({ state: "active", nextAt: "2026-03-01T10:30:00Z" }, now)).toBe("in 30 min");
  });

  it("reads in the schedule's zone", () => {
    expect(zonedTime("2026-03-02T08:00:00Z", "Europe/Berlin", "en-GB")).toBe("Mon 2 Mar, 09:00");
    expect(zonedTime("2026-03-02T08:00:00Z", "America/New_York", "en-GB")).toBe("Mon 2 Mar, 03:00");
  });
});

describe("scheduleFields", () => {
  const now = new Date("2026-11-27T08:00:00Z");
  const base = scheduleDraft("r1", "Europe/Berlin");
  const draft = (when: Partial<WhenDraft>, over: Partial<ScheduleDraft> = {}): ScheduleDraft => ({
    ...base,
    ...over,
    when: { ...base.when, ...when },
  });

  it("sends a preset as its cron pattern, a custom rule as written, and the values the prompt names", () => {
    expect(scheduleFields(draft({ repeat: "weekdays", time: "08:30" }), [], now)).toEqual({
      ok: true,
      value: { recipeId: "r1", cron: "30 8 * * 1-5", timeZone: "Europe/Berlin", missed: "run_once" },
    });
    const rrule = draft(
      { repeat: "custom", syntax: "rrule", rule: "FREQ=DAILY" },
      { missed: "skip", values: { label: "bug", old: "x" } },
    );
    expect(scheduleFields(rrule, ["label"], now)).toEqual({
      ok: true,
      value: {
        recipeId: "r1",
        rrule: "FREQ=DAILY",
        timeZone: "Europe/Berlin",
        missed: "skip",
        values: { label: "bug" },
      },
    });
  });

  it("names what is missing: the rule under its own field, the zone, a placeholder's value", () => {
    const field = (when: Partial<WhenDraft>, over: Partial<ScheduleDraft> = {}, names: string[] = []) => {
      const checked = scheduleFields(draft(when, over), names, now);
      return checked.ok ? null : Object.keys(checked.errors.byField).join(",");
    };
    expect(field({}, { recipeId: "" })).toBe("recipeId");
    expect(field({ repeat: "custom", rule: "" })).toBe("cron");
    expect(field({ repeat: "custom", rule: "", syntax: "rrule" })).toBe("rrule");
    expect(field({ timeZone: " " })).toBe("timeZone");
    expect(field({}, {}, ["label"])).toBe("values");
  });

  it("says every problem at once, in the server's words", () => {
    const bad = scheduleFields(
      draft({ repeat: "custom", rule: "61 25 * * *", timeZone: "Mars/Olympus" }),
      ["label"],
      now,
    );
    expect(bad.ok ? null : bad.errors.byField).toEqual({
      cron: ["The minute must be 0–59, not 61.", "The hour must be 0–23, not 25."],
      timeZone: ["No time zone is called Mars/Olympus: use a name such as Europe/Berlin."],
      values: ["Give a value for {{label}}."],
    });
  });
});

import { describe, expect, it } from "vitest";
import {
  changedFields,
  comingWords,
  cronPreset,
  nextCronTimes,
  presetCron,
  presetWords,
  previewText,
  whenDraft,
  whenFields,
  type WhenDraft,
} from "./when";

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe("presets and their cron patterns", () => {
  it("write each preset as a cron pattern and read it back", () => {
    const table: [Parameters<typeof presetCron>, string][] = [
      [["daily", "09:00", 1], "0 9 * * *"],
      [["weekdays", "7:05", 1], "5 7 * * 1-5"],
      [["weekly", "17:30", 5], "30 17 * * 5"],
      [["weekly", "00:00", 0], "0 0 * * 0"],
    ];
    for (const [args, pattern] of table) {
      expect(presetCron(...args)).toBe(pattern);
      const back = cronPreset(pattern);
      expect(back && presetCron(back.repeat, back.time, back.weekday)).toBe(pattern);
    }
    expect(presetCron("daily", "24:00", 1)).toBeNull();
    expect(presetCron("daily", "noon", 1)).toBeNull();
    expect(cronPreset("0 9 * * 7")).toEqual({ repeat: "weekly", time: "09:00", weekday: 0 });
    expect(cronPreset("*/15 * * * *")).toBeNull();
    expect(cronPreset("0 9 1 * *")).toBeNull();
    expect(presetWords({ repeat: "weekly", time: "17:30", weekday: 5 })).toBe("every week on Friday at 17:30");
    expect(presetWords({ repeat: "weekdays", time: "09:00", weekday: 1 })).toBe("every weekday at 09:00");
  });
});

describe("changedFields", () => {
  it("names the refusals an edit answers", () => {
    expect(changedFields({ rule: "0 9 * * *" })).toEqual(["cron", "rrule"]);
    expect(changedFields({ timeZone: "UTC" })).toEqual(["timeZone", "at"]);
    expect(changedFields({ weekday: 5 })).toEqual(["time"]);
  });
});

describe("whenFields", () => {
  const now = new Date("2026-11-27T08:00:00Z");
  const draft = (over: Partial<WhenDraft>): WhenDraft => ({ ...whenDraft("daily", "Europe/Berlin"), ...over });

  it("sends a preset as cron, a custom rule as written, a one-off as its local time", () => {
    expect(whenFields(draft({ repeat: "weekdays", time: "08:45" }), now)).toEqual({
      fields: { cron: "45 8 * * 1-5", timeZone: "Europe/Berlin" },
      problems: [],
    });
    expect(whenFields(draft({ repeat: "custom", syntax: "rrule", rule: " FREQ=DAILY " }), now).fields).toEqual({
      rrule: "FREQ=DAILY",
      timeZone: "Europe/Berlin",
    });
    expect(whenFields(draft({ repeat: "once", at: "2026-11-28T10:00" }), now).fields).toEqual({
      at: "2026-11-28T10:00",
      timeZone: "Europe/Berlin",
    });
  });

  it("says every problem at once", () => {
    const bad = whenFields(draft({ repeat: "custom", rule: "61 25 * * *", timeZone: "Mars/Olympus" }), now);
    expect(bad.problems).toEqual([
      ["timeZone", "No time zone is called Mars/Olympus: use a name such as Europe/Berlin."],
      ["cron", "The minute must be 0–59, not 61."],
      ["cron", "The hour must be 0–23, not 25."],
    ]);
    expect(whenFields(draft({ time: "9" }), now).problems).toEqual([
      ["time", "Give the time as HH:MM, such as 09:00."],
    ]);
    expect(whenFields(draft({ repeat: "once", at: "2026-11-27T08:30" }), now).problems).toEqual([
      ["at", "That time has passed: 08:30 this morning."],
    ]);
  });
});

describe("the next three times", () => {
  it("follow a cron pattern on its zone's wall", () => {
    // Friday 27 November 2026, 08:00 UTC (09:00 in Berlin).
    const now = new Date("2026-11-27T08:00:00Z");
    expect(iso(nextCronTimes("0 9 * * 1-5", "Europe/Berlin", now))).toEqual([
      "2026-11-30T08:00:00.000Z",
      "2026-12-01T08:00:00.000Z",
      "2026-12-02T08:00:00.000Z",
    ]);
    expect(iso(nextCronTimes("*/15 * * * *", "UTC", now))).toEqual([
      "2026-11-27T08:15:00.000Z",
      "2026-11-27T08:30:00.000Z",
      "2026-11-27T08:45:00.000Z",
    ]);
    expect(iso(nextCronTimes("0 0 29 2 *", "UTC", now, 1))).toEqual(["2028-02-29T00:00:00.000Z"]);
    // A restricted day of the month and of the week: either one, as Vixie cron reads it.
    expect(iso(nextCronTimes("0 12 1 * SUN", "UTC", now, 2))).toEqual([
      "2026-11-29T12:00:00.000Z",
      "2026-12-01T12:00:00.000Z",
    ]);
    expect(iso(nextCronTimes("@daily", "UTC", now, 1))).toEqual(["2026-11-28T00:00:00.000Z"]);
    // Across the spring change in New York: 09:00 stays 09:00 on the wall.
    const march = nextCronTimes("0 9 * * *", "America/New_York", new Date("2026-03-07T20:00:00Z"), 2);
    expect(iso(march)).toEqual(["2026-03-08T13:00:00.000Z", "2026-03-09T13:00:00.000Z"]);
    expect(nextCronTimes("61 * * * *", "UTC", now)).toEqual([]);
    expect(nextCronTimes("0 9 * * *", "Mars/Olympus", now)).toEqual([]);
  });

  it("are said as a person would", () => {
    const now = new Date("2026-11-27T08:00:00Z");
    expect(comingWords(new Date("2026-11-27T17:00:00Z"), now, "UTC")).toBe("today at 17:00");
    expect(comingWords(new Date("2026-11-28T09:00:00Z"), now, "UTC")).toBe("tomorrow at 09:00");
    expect(comingWords(new Date("2026-11-30T09:00:00Z"), now, "UTC")).toBe("Monday at 09:00");
    expect(comingWords(new Date("2026-12-11T09:00:00Z"), now, "UTC")).toBe("Friday 11 December at 09:00");
    const weekdays = { ...whenDraft("weekdays", "Europe/Berlin"), time: "10:00" };
    expect(previewText(weekdays, now)).toBe("Next: today at 10:00, Monday at 10:00 and Tuesday at 10:00.");
    expect(previewText({ ...weekdays, repeat: "once", at: "2026-11-28T10:00" }, now)).toBe("Once, tomorrow at 10:00.");
    expect(previewText({ ...weekdays, repeat: "custom", syntax: "rrule", rule: "FREQ=DAILY" }, now)).toBeNull();
  });
});

/**
 * The Upcoming list takes only account events, not over yet and starting within seven days, at
 * most five, earliest first (an all-day event by its date); its times read "Now", "Today 14:30",
 * "Tomorrow 09:00"; a reminder reads "Standup in 10 min"; and the reminders focus mode held are
 * told once, leaving out those already over.
 */
import { describe, expect, it } from "vitest";
import type { CalendarSource, Occurrence } from "../../shared/api/types.generated";
import { heldRemindersText, isReminder, reminderText, upcoming, upcomingRange, whenLabel } from "./upcoming";

process.env.TZ = "America/Los_Angeles";

const account: CalendarSource = {
  kind: "ics",
  accountId: "a1",
  account: "Home",
  calendar: "Family",
  color: "#aa3300",
  organizer: null,
  invitation: false,
};
const item: CalendarSource = {
  kind: "item",
  boardId: "b1",
  board: "Platform",
  itemId: "i1",
  columnId: "due",
  color: "#0a7d5a",
};

/** Local wall time in March 2026. */
const at = (day: number, h: number, m = 0) => new Date(2026, 2, day, h, m);

function event(uid: string, start: Date, end: Date, source: CalendarSource = account): Occurrence {
  return {
    uid,
    title: uid,
    location: null,
    start: start.toISOString(),
    end: end.toISOString(),
    allDay: false,
    recurring: false,
    source,
  };
}

function allDay(uid: string, first: string, endExclusive: string): Occurrence {
  return {
    ...event(uid, at(1, 0), at(1, 0)),
    start: `${first}T00:00:00.000Z`,
    end: `${endExclusive}T00:00:00.000Z`,
    allDay: true,
  };
}

const NOW = at(18, 10, 0);

describe("upcoming", () => {
  it("reads today and the seven days after it", () => {
    expect(upcomingRange(NOW)).toEqual({ from: "2026-03-18", to: "2026-03-25" });
  });

  it("keeps the next account events within seven days, at most five, earliest first", () => {
    const occs = [
      event("later", at(18, 15), at(18, 16)),
      event("over", at(18, 8), at(18, 9)),
      event("running", at(18, 9, 30), at(18, 10, 30)),
      event("due-item", at(18, 11), at(18, 12), item),
      event("next-week", at(26, 9), at(26, 10)),
      event("tomorrow", at(19, 9), at(19, 10)),
      allDay("holiday", "2026-03-20", "2026-03-21"),
      allDay("yesterday", "2026-03-17", "2026-03-18"),
      event("sunday", at(22, 9), at(22, 10)),
      event("monday", at(23, 9), at(23, 10)),
    ];
    expect(upcoming(occs, NOW).map((o) => o.uid)).toEqual(["running", "later", "tomorrow", "holiday", "sunday"]);
    expect(upcoming(occs, NOW, 2).map((o) => o.uid)).toEqual(["running", "later"]);
  });

  it("counts an all-day event of today even though its UTC midnight has passed", () => {
    // 10:00 in Los Angeles is 17:00 UTC: the event's start instant is long gone.
    expect(upcoming([allDay("today", "2026-03-18", "2026-03-19")], NOW).map((o) => o.uid)).toEqual(["today"]);
  });

  it("says when in few words", () => {
    expect(whenLabel(event("a", at(18, 9, 30), at(18, 10, 30)), NOW, "en-GB")).toBe("Now");
    expect(whenLabel(event("b", at(18, 14, 30), at(18, 15)), NOW, "en-GB")).toBe("Today 14:30");
    expect(whenLabel(event("c", at(19, 9), at(19, 10)), NOW, "en-GB")).toBe("Tomorrow 09:00");
    expect(whenLabel(event("d", at(20, 9), at(20, 10)), NOW, "en-GB")).toBe("Fri 09:00");
    expect(whenLabel(allDay("e", "2026-03-18", "2026-03-19"), NOW, "en-GB")).toBe("Today, all day");
    expect(whenLabel(allDay("f", "2026-03-20", "2026-03-21"), NOW, "en-GB")).toBe("Fri, all day");
  });

  it("words a reminder", () => {
    const standup = event("Standup", at(18, 10, 10), at(18, 10, 25));
    expect(reminderText({ kind: "reminder", minutesBefore: 10, event: standup })).toBe("Standup in 10 min");
    expect(reminderText({ kind: "reminder", minutesBefore: 0, event: standup })).toBe("Standup starts now");
    expect(reminderText({ kind: "reminder", minutesBefore: 5, event: { ...standup, title: " " } })).toBe(
      "An event in 5 min",
    );
    expect(isReminder({ kind: "reminder", minutesBefore: 10, event: standup })).toBe(true);
    expect(isReminder({ kind: "agenda" })).toBe(false);
    expect(isReminder(null)).toBe(false);
  });

  it("tells the held reminders once, without those already over", () => {
    const standup = event("Standup", at(18, 10, 10), at(18, 10, 25));
    const review = event("Review", at(18, 11, 30), at(18, 12));
    const held = [
      { kind: "reminder" as const, minutesBefore: 10, event: standup },
      { kind: "reminder" as const, minutesBefore: 10, event: review },
      { kind: "reminder" as const, minutesBefore: 10, event: review },
    ];
    expect(heldRemindersText(held, NOW, "en-GB")).toBe("While you focused: Standup at 10:10, Review at 11:30.");
    expect(heldRemindersText(held, at(18, 11, 0), "en-GB")).toBe("While you focused: Review at 11:30.");
    expect(heldRemindersText(held, at(18, 13, 0), "en-GB")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import type { Occurrence } from "../../shared/api/types.generated";
import { markable, markedText, parseEntries, spamSender, spamToolsShown } from "./spam";

const event = (kind: "caldav" | "ics", organizer: string | null, invitation = organizer !== null): Occurrence => ({
  uid: "u",
  title: "You won",
  location: null,
  start: "2026-03-18T09:00:00.000Z",
  end: "2026-03-18T10:00:00.000Z",
  allDay: false,
  recurring: false,
  source: { kind, accountId: "a", account: "Work", calendar: "Team", color: null, organizer, invitation },
});

describe("spam invitations", () => {
  it("offers the tools while the calendars and the filter are on", () => {
    expect(spamToolsShown({ calendarEnabled: true })).toBe(true);
    expect(spamToolsShown({ calendarEnabled: true, spamFilterCalendarEnabled: false })).toBe(false);
    expect(spamToolsShown({ calendarEnabled: false, spamFilterCalendarEnabled: true })).toBe(false);
    expect(spamToolsShown(undefined)).toBe(false);
  });

  it("marks a CalDAV event's organizer only", () => {
    expect(spamSender(event("caldav", "win@prizes.example"))).toBe("win@prizes.example");
    expect(spamSender(event("caldav", null))).toBeNull();
    expect(spamSender(event("ics", "win@prizes.example"))).toBeNull();
  });

  it("offers marking only on an invitation from someone else", () => {
    expect(markable(event("caldav", "win@prizes.example"))).toBe(true);
    expect(markable(event("caldav", "me@work.example", false))).toBe(false);
    expect(markable(event("caldav", null))).toBe(false);
    expect(markable(event("ics", "win@prizes.example", true))).toBe(false);
  });

  it("says what marking did", () => {
    expect(markedText({ sender: "a@b.example", trashed: 0, failure: null })).toBe("a@b.example is marked spam.");
    expect(markedText({ sender: "a@b.example", trashed: 2, failure: "412" })).toBe(
      "a@b.example is marked spam; 2 invitations deleted and kept in the trash for 30 days (not all: 412).",
    );
  });

  it("reads the organization's entries", () => {
    expect(parseEntries(" Partner.example,\nbob@x.example  partner.example ")).toEqual([
      "partner.example",
      "bob@x.example",
    ]);
    expect(parseEntries("  ")).toEqual([]);
  });
});

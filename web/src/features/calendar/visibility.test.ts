/** The calendar's page shows while either setting is on (the overlay by default); Upcoming only with calendars on. */
import { expect, it } from "vitest";
import { calendarShown, upcomingShown } from "./visibility";

it("shows the page while the overlay or the calendars are on", () => {
  expect(calendarShown({})).toBe(true);
  expect(calendarShown({ pmCalendarOverlayEnabled: false })).toBe(false);
  expect(calendarShown({ pmCalendarOverlayEnabled: false, calendarEnabled: true })).toBe(true);
  expect(calendarShown({ pmCalendarOverlayEnabled: true, calendarEnabled: false })).toBe(true);
});

it("shows Upcoming only while calendars are on", () => {
  expect(upcomingShown({})).toBe(false);
  expect(upcomingShown({ calendarEnabled: true })).toBe(true);
  expect(upcomingShown({ calendarEnabled: false, pmCalendarOverlayEnabled: true })).toBe(false);
});

it("drops the overlay with the board module (projectBoardsEnabled) and brings it back", () => {
  expect(calendarShown({ projectBoardsEnabled: false })).toBe(false);
  expect(calendarShown({ projectBoardsEnabled: false, calendarEnabled: true })).toBe(true);
  expect(calendarShown({ projectBoardsEnabled: true })).toBe(true);
});

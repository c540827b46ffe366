import { describe, expect, it } from "vitest";
import { clockText, isWorking, localTime, meetingWindows, parseClock, wallText, type Worker } from "./zones";

const nineToFive = (name: string, zone: string): Worker => ({
  name,
  zone,
  startMinute: 9 * 60,
  endMinute: 17 * 60,
  workdays: [1, 2, 3, 4, 5],
});

const newYork = nineToFive("Ny", "America/New_York");
const london = nineToFive("Lo", "Europe/London");
const saoPaulo = nineToFive("Sp", "America/Sao_Paulo");

const iso = (w: { start: Date; end: Date }) => [w.start.toISOString(), w.end.toISOString()];

describe("local time", () => {
  it("follows each zone's daylight-saving change", () => {
    // New York moves to EDT at 2026-03-08 07:00Z; London stays on GMT until the 29th.
    expect(localTime(new Date("2026-03-06T15:00:00Z"), "America/New_York")).toEqual({
      weekday: 5,
      minute: 10 * 60,
      date: "2026-03-06",
    });
    expect(localTime(new Date("2026-03-09T15:00:00Z"), "America/New_York").minute).toBe(11 * 60);
    expect(localTime(new Date("2026-03-09T15:00:00Z"), "Europe/London").minute).toBe(15 * 60);
    expect(wallText(new Date("2026-03-09T23:30:00Z"), "Asia/Kolkata")).toBe("Tue 05:00");
  });

  it("says who is working now, in their own zone and days", () => {
    const monday = new Date("2026-03-09T13:30:00Z");
    expect(isWorking(newYork, monday)).toBe(true); // 09:30 EDT
    expect(isWorking(london, monday)).toBe(true);
    expect(isWorking(nineToFive("Tk", "Asia/Tokyo"), monday)).toBe(false); // 22:30
    expect(isWorking(london, new Date("2026-03-07T12:00:00Z"))).toBe(false); // Saturday
  });
});

describe("the meeting planner", () => {
  it("finds a week's shared hours across three zones over a daylight-saving change", () => {
    // Thursday 2026-03-05 to Wednesday 2026-03-11: New York springs forward on Sunday the 8th.
    const windows = meetingWindows([newYork, london, saoPaulo], new Date("2026-03-05T00:00:00Z"));
    expect(windows.map(iso)).toEqual([
      // Before: New York is UTC-5, so everyone is in between 14:00 and 17:00 UTC.
      ["2026-03-05T14:00:00.000Z", "2026-03-05T17:00:00.000Z"],
      ["2026-03-06T14:00:00.000Z", "2026-03-06T17:00:00.000Z"],
      // After: UTC-4, an hour more of overlap; no weekend.
      ["2026-03-09T13:00:00.000Z", "2026-03-09T17:00:00.000Z"],
      ["2026-03-10T13:00:00.000Z", "2026-03-10T17:00:00.000Z"],
      ["2026-03-11T13:00:00.000Z", "2026-03-11T17:00:00.000Z"],
    ]);
  });

  it("keeps Europe's autumn change too, and drops windows shorter than the meeting", () => {
    // Europe falls back on 2026-10-25, New York on 2026-11-01: for that week Berlin is five hours ahead, not six.
    const berlin = nineToFive("Be", "Europe/Berlin");
    const lateNy = { ...newYork, startMinute: 8 * 60 };
    const windows = meetingWindows([berlin, lateNy], new Date("2026-10-22T00:00:00Z"), 7, 60);
    expect(windows.map(iso)).toEqual([
      ["2026-10-22T12:00:00.000Z", "2026-10-22T15:00:00.000Z"],
      ["2026-10-23T12:00:00.000Z", "2026-10-23T15:00:00.000Z"],
      ["2026-10-26T12:00:00.000Z", "2026-10-26T16:00:00.000Z"],
      ["2026-10-27T12:00:00.000Z", "2026-10-27T16:00:00.000Z"],
      ["2026-10-28T12:00:00.000Z", "2026-10-28T16:00:00.000Z"],
    ]);
    // Berlin and Tokyo share one hour while Berlin is on summer time, and none after.
    const tokyo = nineToFive("Tk", "Asia/Tokyo");
    expect(meetingWindows([berlin, tokyo], new Date("2026-10-22T00:00:00Z"), 7, 60).map(iso)).toEqual([
      ["2026-10-22T07:00:00.000Z", "2026-10-22T08:00:00.000Z"],
      ["2026-10-23T07:00:00.000Z", "2026-10-23T08:00:00.000Z"],
    ]);
    expect(meetingWindows([], new Date())).toEqual([]);
  });
});

describe("clock text", () => {
  it("reads and writes times of day", () => {
    expect(clockText(9 * 60 + 5)).toBe("09:05");
    expect(parseClock("17:30")).toBe(17 * 60 + 30);
    expect(parseClock("24:00")).toBe(1440);
    expect(parseClock("9:75")).toBeNull();
    expect(parseClock("noon")).toBeNull();
  });
});

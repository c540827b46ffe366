import { describe, expect, it } from "vitest";
import { atProblem, cronProblems, passedWords, zonedInstant, zoneProblem } from "./checks";

describe("cronProblems", () => {
  it("says each bad part in the server's words", () => {
    const table: [string, string[]][] = [
      ["30 2 * * *", []],
      ["0 9 * * MON-FRI", []],
      ["@daily", []],
      ["61 25 * * *", ["The minute must be 0–59, not 61.", "The hour must be 0–23, not 25."]],
      [
        "0 9 32 13 8",
        [
          "The day of the month must be 1–31, not 32.",
          "The month must be 1–12 or JAN–DEC, not 13.",
          "The day of the week must be 0–7 or SUN–SAT, not 8.",
        ],
      ],
      ["0 9 * * FUNDAY", ["The day of the week must be 0–7 or SUN–SAT, not FUNDAY."]],
      ["*/0 * * * *", ["The step after / in */0 must be a whole number above 0."]],
      ["0 17-9 * * *", ["The hour range 17-9 runs backwards: write the smaller end first."]],
      [
        "0 9 * *",
        ["A cron pattern has five parts (minute, hour, day of the month, month, day of the week); this one has 4."],
      ],
      ["", ["Write a cron pattern, such as 30 2 * * * for 02:30 every day."]],
    ];
    for (const [pattern, expected] of table) expect(cronProblems(pattern), pattern).toEqual(expected);
  });
});

describe("zoneProblem", () => {
  it("names a zone no one has", () => {
    expect(zoneProblem("Europe/Berlin")).toBeNull();
    expect(zoneProblem("Mars/Olympus")).toBe("No time zone is called Mars/Olympus: use a name such as Europe/Berlin.");
    expect(zoneProblem(" ")).toBe("Choose a time zone, such as Europe/Berlin.");
  });
});

describe("a time that has passed", () => {
  const now = new Date("2026-11-27T15:00:00Z");

  it("is said as a person would", () => {
    expect(passedWords(new Date("2026-11-27T10:00:00Z"), now, "UTC")).toBe("10:00 this morning");
    expect(passedWords(new Date("2026-11-27T13:15:00Z"), now, "UTC")).toBe("13:15 this afternoon");
    expect(passedWords(new Date("2026-11-26T21:30:00Z"), now, "UTC")).toBe("21:30 yesterday");
    expect(passedWords(new Date("2026-11-26T23:30:00Z"), now, "Europe/Berlin")).toBe("00:30 this morning");
    expect(passedWords(new Date("2026-03-03T09:00:00Z"), now, "UTC")).toBe("09:00 on 3 March 2026");
  });

  it("reads a local time on its zone's wall and refuses one gone by", () => {
    expect(zonedInstant("2026-11-27T10:00", "Europe/Berlin")?.toISOString()).toBe("2026-11-27T09:00:00.000Z");
    expect(zonedInstant("2026-07-01T10:00", "America/New_York")?.toISOString()).toBe("2026-07-01T14:00:00.000Z");
    expect(atProblem("2026-11-27T10:00", "Europe/Berlin", now)).toBe("That time has passed: 10:00 this morning.");
    expect(atProblem("2026-11-28T10:00", "Europe/Berlin", now)).toBeNull();
    expect(atProblem("", "UTC", now)).toBe("Choose the date and time.");
  });
});

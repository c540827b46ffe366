import { describe, expect, it } from "vitest";
import type { Alarm } from "../../shared/api/types.generated";
import { applyAlarmChange, canSnooze, presentationOf, ringingOf, soundPlan, volumeAt } from "./ringing";

function alarm(id: string, status: Alarm["status"], extra: Partial<Alarm> = {}): Alarm {
  return {
    id,
    label: `Alarm ${id}`,
    at: "2026-01-05T08:00:00.000Z",
    repeat: null,
    timeOfDay: null,
    status,
    snoozes: 0,
    ringingSince: status === "ringing" ? "2026-01-05T08:00:00.000Z" : null,
    createdAt: "2026-01-05T07:00:00.000Z",
    updatedAt: "2026-01-05T07:00:00.000Z",
    ...extra,
  };
}

describe("the ringing alarms", () => {
  it("adds an alarm that begins ringing and drops it on any other move", () => {
    const one = applyAlarmChange([], { id: "a", alarm: alarm("a", "ringing"), deleted: false });
    expect(one.map((a) => a.id)).toEqual(["a"]);
    const two = applyAlarmChange(one, { id: "b", alarm: alarm("b", "ringing"), deleted: false });
    expect(two.map((a) => a.id)).toEqual(["a", "b"]);
    expect(applyAlarmChange(two, { id: "a", alarm: alarm("a", "snoozed"), deleted: false }).map((a) => a.id)).toEqual([
      "b",
    ]);
    expect(applyAlarmChange(two, { id: "b", alarm: null, deleted: true }).map((a) => a.id)).toEqual(["a"]);
    // A ringing alarm rung again (after a snooze) is not shown twice.
    expect(applyAlarmChange(two, { id: "a", alarm: alarm("a", "ringing"), deleted: false })).toHaveLength(2);
  });

  it("takes the ringing ones of a list, oldest ring first", () => {
    const list = [
      alarm("late", "ringing", { ringingSince: "2026-01-05T09:00:00.000Z" }),
      alarm("s", "scheduled"),
      alarm("early", "ringing", { ringingSince: "2026-01-05T08:00:00.000Z" }),
    ];
    expect(ringingOf(list).map((a) => a.id)).toEqual(["early", "late"]);
  });
});

describe("how an alarm is shown", () => {
  it("follows alarmsAssertiveness, a modal when unknown", () => {
    expect(presentationOf("modal")).toEqual({ modal: true, audible: true });
    expect(presentationOf("banner")).toEqual({ modal: false, audible: true });
    expect(presentationOf("silent-banner")).toEqual({ modal: false, audible: false });
    expect(presentationOf(undefined)).toEqual({ modal: true, audible: true });
  });

  it("offers Snooze until the limit, always with -1", () => {
    expect(canSnooze(alarm("a", "ringing", { snoozes: 2 }), 3)).toBe(true);
    expect(canSnooze(alarm("a", "ringing", { snoozes: 3 }), 3)).toBe(false);
    expect(canSnooze(alarm("a", "ringing", { snoozes: 30 }), -1)).toBe(true);
    expect(canSnooze(alarm("a", "ringing", { snoozes: 1 }), 0)).toBe(false);
  });
});

describe("the sound", () => {
  it("plays a URL or the built-in beep, once or looped, for a duration or until answered", () => {
    expect(soundPlan({ sound: "default", playMode: "loop", fadeInSeconds: 5, durationSeconds: 60 })).toEqual({
      source: { kind: "beep" },
      loop: true,
      fadeInSeconds: 5,
      durationSeconds: 60,
    });
    expect(soundPlan({ sound: "/sounds/bell.mp3", playMode: "once", durationSeconds: -1 })).toEqual({
      source: { kind: "url", url: "/sounds/bell.mp3" },
      loop: false,
      fadeInSeconds: 0,
      durationSeconds: null,
    });
    expect(soundPlan({ sound: "https://example.test/a.ogg" }).source).toEqual({
      kind: "url",
      url: "https://example.test/a.ogg",
    });
    expect(soundPlan({}).source).toEqual({ kind: "beep" });
  });

  it("fades in linearly from silent to full", () => {
    expect(volumeAt(0, 10)).toBe(0);
    expect(volumeAt(5, 10)).toBe(0.5);
    expect(volumeAt(20, 10)).toBe(1);
    expect(volumeAt(0, 0)).toBe(1);
  });
});

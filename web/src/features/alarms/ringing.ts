/**
 * The pure rules of the alarm display: which alarms are ringing after an `alarm` event, how a
 * ringing alarm is shown for `alarmsAssertiveness`, whether Snooze is still offered, and what to
 * play for the `alarmsDefaultSound*` settings.
 */
import type { Alarm, AlarmChanged } from "../../shared/api/types.generated";

/** The ringing alarms after `change`: added when one begins ringing, dropped on any other move. */
export function applyAlarmChange(ringing: readonly Alarm[], change: AlarmChanged): Alarm[] {
  const others = ringing.filter((a) => a.id !== change.id);
  if (change.alarm?.status === "ringing") return [...others, change.alarm];
  return others;
}

/** The ringing alarms among a `GET /alarms` list, the oldest ring first. */
export function ringingOf(alarms: readonly Alarm[]): Alarm[] {
  return alarms
    .filter((a) => a.status === "ringing")
    .sort((a, b) => (a.ringingSince ?? "").localeCompare(b.ringingSince ?? ""));
}

export type Assertiveness = "modal" | "banner" | "silent-banner";

export interface Presentation {
  /** A modal dialog that holds the page until answered, or a banner above it. */
  modal: boolean;
  /** Whether the sound plays (and the label is spoken). */
  audible: boolean;
}

export function presentationOf(assertiveness: unknown): Presentation {
  switch (assertiveness) {
    case "banner":
      return { modal: false, audible: true };
    case "silent-banner":
      return { modal: false, audible: false };
    default:
      return { modal: true, audible: true };
  }
}

/** Snooze stays offered until the alarm was snoozed `maxSnoozes` times (-1: no limit). */
export function canSnooze(alarm: Alarm, maxSnoozes: unknown): boolean {
  if (typeof maxSnoozes !== "number" || maxSnoozes < 0) return true;
  return alarm.snoozes < maxSnoozes;
}

export interface SoundPlan {
  /** A URL to play, or the built-in beep. */
  source: { kind: "beep" } | { kind: "url"; url: string };
  loop: boolean;
  /** Seconds from silent to full volume (0: full at once). */
  fadeInSeconds: number;
  /** Seconds until the sound stops; `null`: until the alarm is answered. */
  durationSeconds: number | null;
}

/** What to play for the sound settings (`default` or any name that is not a URL: the beep). */
export function soundPlan(settings: {
  sound?: unknown;
  playMode?: unknown;
  fadeInSeconds?: unknown;
  durationSeconds?: unknown;
}): SoundPlan {
  const sound = typeof settings.sound === "string" ? settings.sound.trim() : "";
  const isUrl = /^(https?:\/\/|\/)/.test(sound);
  const fade = typeof settings.fadeInSeconds === "number" ? Math.max(0, settings.fadeInSeconds) : 0;
  const duration = typeof settings.durationSeconds === "number" ? settings.durationSeconds : 60;
  return {
    source: isUrl ? { kind: "url", url: sound } : { kind: "beep" },
    loop: settings.playMode !== "once",
    fadeInSeconds: fade,
    durationSeconds: duration < 0 ? null : duration,
  };
}

/** The volume (0..1) `elapsedSeconds` after the start of a fade-in of `fadeInSeconds`. */
export function volumeAt(elapsedSeconds: number, fadeInSeconds: number): number {
  if (fadeInSeconds <= 0) return 1;
  return Math.min(1, Math.max(0, elapsedSeconds / fadeInSeconds));
}

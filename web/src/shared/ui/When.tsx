/**
 * The one way a page shows a time or a day: a `<time>` in words from `shared/time` ("5 min ago",
 * "yesterday 14:05", "tomorrow"), the exact time in its tooltip. The voice test finds every date
 * on a page in one of these.
 */
import { exactDay, exactTime, relativeDay, relativeTime } from "../time";

export function When({ at, now, className }: { at: string; now: number; className?: string }) {
  return (
    <time className={className} dateTime={at} title={exactTime(at)}>
      {relativeTime(at, now)}
    </time>
  );
}

/** A calendar day ("2026-11-26", a due date). */
export function Day({ day, now, className }: { day: string; now: number; className?: string }) {
  return (
    <time className={className} dateTime={day} title={exactDay(day)}>
      {relativeDay(day, now)}
    </time>
  );
}

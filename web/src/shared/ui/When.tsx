/**
 * The one way a page shows a time or a day: a `<time>` in words from `shared/time` ("5 min ago",
 * "yesterday 14:05", "tomorrow"), the exact time in its tooltip. The voice test finds every date
 * on a page in one of these.
 */
import { exactTime, relativeTime } from "../time";

export function When({ at, now, className }: { at: string; now: number; className?: string }) {
  return (
    <time className={className} dateTime={at} title={exactTime(at)}>
      {relativeTime(at, now)}
    </time>
  );
}

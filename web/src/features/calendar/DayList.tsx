/**
 * A day's entries as a list, each with when it happens beside it ("All day", "09:30", or "Until
 * 4 Dec" for one over several days): the agenda's days, the month's "+N more" and a phone's day.
 */
import type { Occurrence } from "../../shared/api/types.generated";
import { utcMs } from "./days";
import { EntryChip } from "./EntryChip";
import { entryKey, isBar, isSpan, type Entry } from "./placement";
import { clock } from "./upcoming";

const until = (entry: Entry) =>
  `Until ${new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(utcMs(entry.last)))}`;

export function DayList({ entries, onOpen }: { entries: readonly Entry[]; onOpen: (occ: Occurrence) => void }) {
  return (
    <ul className="cal-day-list">
      {entries.map((entry) => (
        <li key={entryKey(entry.occ)}>
          <span className="cal-list-time">
            {isSpan(entry) ? until(entry) : isBar(entry) ? "All day" : clock(new Date(entry.occ.start))}
          </span>
          <EntryChip occ={entry.occ} onOpen={onOpen} />
        </li>
      ))}
    </ul>
  );
}

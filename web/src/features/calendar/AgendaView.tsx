/** The agenda: the coming days that have something on them, each with its entries in order. */
import type { Occurrence } from "../../shared/api/types.generated";
import { EmptyState } from "../../shared/ui/EmptyState";
import { utcMs, type Day } from "./days";
import { agendaGroups, entryKey, isBar, type Entry } from "./placement";
import { EntryChip } from "./EntryChip";
import { clock } from "./upcoming";

const dayTitle = (day: Day) =>
  new Intl.DateTimeFormat(undefined, { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" }).format(
    new Date(utcMs(day)),
  );

export function AgendaView({
  days,
  today,
  entries,
  onOpen,
}: {
  days: readonly Day[];
  today: Day;
  entries: readonly Entry[];
  onOpen: (occ: Occurrence) => void;
}) {
  const groups = agendaGroups(entries, days);
  if (groups.length === 0) return <EmptyState>Nothing on these days.</EmptyState>;
  return (
    <div className="cal-agenda">
      {groups.map(({ day, entries }) => (
        <section key={day} className="cal-agenda-day" data-day={day} aria-labelledby={`agenda-${day}`}>
          <h3 id={`agenda-${day}`}>
            {dayTitle(day)}
            {day === today && <span className="cal-today-tag"> · today</span>}
          </h3>
          <ul>
            {entries.map((entry) => (
              <li key={entryKey(entry.occ)}>
                <span className="cal-agenda-time">{isBar(entry) ? "All day" : clock(new Date(entry.occ.start))}</span>
                <EntryChip occ={entry.occ} onOpen={onOpen} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

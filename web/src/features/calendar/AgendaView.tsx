/**
 * The agenda: the coming days that have something on them, each with its entries in order. An
 * entry over several days (a sprint) is listed once, on the first day shown it covers, with the
 * day it runs until.
 */
import type { Occurrence } from "../../shared/api/types.generated";
import { EmptyState } from "../../shared/ui/EmptyState";
import { dayTitle, type Day } from "./days";
import { DayList } from "./DayList";
import { agendaGroups, type Entry } from "./placement";

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
        <section
          key={day}
          className="cal-agenda-day"
          data-day={day}
          data-today={day === today || undefined}
          aria-labelledby={`agenda-${day}`}
        >
          <h3 id={`agenda-${day}`}>
            {dayTitle(day)}
            {day === today && <span className="cal-today-tag"> · today</span>}
          </h3>
          <DayList entries={entries} onOpen={onOpen} />
        </section>
      ))}
    </div>
  );
}

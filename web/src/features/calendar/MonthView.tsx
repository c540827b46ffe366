/**
 * The month: whole weeks from the chosen weekday; in each week the bars (sprints, all-day and
 * multi-day entries, board items among them) in rows under the day numbers, then each day's
 * timed events by start. Items are dragged to another day of any week shown.
 */
import type { Occurrence } from "../../shared/api/types.generated";
import { DayCells } from "./DayCells";
import { EntryChip, SpanBars } from "./EntryChip";
import { utcMs, type Day } from "./days";
import { entryKey, layoutBars, timedOn, type Entry } from "./placement";
import { useDayDrop } from "./useDayDrop";

const weekdayName = (day: Day, style: "short" | "long") =>
  new Intl.DateTimeFormat(undefined, { weekday: style, timeZone: "UTC" }).format(new Date(utcMs(day)));

const dateName = (day: Day) =>
  new Intl.DateTimeFormat(undefined, { day: "numeric", month: "long", timeZone: "UTC" }).format(new Date(utcMs(day)));

export function MonthView({
  weeks,
  month,
  today,
  entries,
  onOpen,
  onMove,
}: {
  weeks: readonly Day[][];
  /** `YYYY-MM` of the month shown: the neighbours' days are dimmed. */
  month: string;
  today: Day;
  entries: readonly Entry[];
  onOpen: (occ: Occurrence) => void;
  onMove: (uid: string, day: Day) => void;
}) {
  const first = weeks[0] ?? [];
  return (
    <div className="cal-month" data-week-start={first[0] ? weekdayName(first[0], "long") : undefined}>
      <div className="cal-weekdays" aria-hidden="true">
        {first.map((day) => (
          <div key={day} className="cal-weekday" data-weekday={weekdayName(day, "long")}>
            {weekdayName(day, "short")}
          </div>
        ))}
      </div>
      {weeks.map((days) => (
        <MonthWeek
          key={days[0]}
          days={days}
          month={month}
          today={today}
          entries={entries}
          onOpen={onOpen}
          onMove={onMove}
        />
      ))}
    </div>
  );
}

function MonthWeek({
  days,
  month,
  today,
  entries,
  onOpen,
  onMove,
}: {
  days: readonly Day[];
  month: string;
  today: Day;
  entries: readonly Entry[];
  onOpen: (occ: Occurrence) => void;
  onMove: (uid: string, day: Day) => void;
}) {
  const { bars, lanes } = layoutBars(entries, days);
  const { over, handlers } = useDayDrop(days, onMove);
  return (
    <div className="cal-week-row" style={{ gridTemplateRows: `auto repeat(${lanes}, auto) 1fr` }} {...handlers}>
      <DayCells days={days} today={today} over={over} month={month} />
      {days.map((day, i) => (
        <time key={`n-${day}`} className="cal-day-number" dateTime={day} style={{ gridColumn: i + 1, gridRow: 1 }}>
          <span className="visually-hidden">{dateName(day)}</span>
          <span aria-hidden="true">{Number(day.slice(8))}</span>
        </time>
      ))}
      <SpanBars bars={bars} firstRow={2} onOpen={onOpen} />
      {days.map((day, i) => {
        const timed = timedOn(entries, day);
        if (timed.length === 0) return null;
        return (
          <ul key={`t-${day}`} className="cal-day-timed" style={{ gridColumn: i + 1, gridRow: lanes + 2 }}>
            {timed.map((entry) => (
              <li key={entryKey(entry.occ)}>
                <EntryChip occ={entry.occ} showTime className="cal-timed-chip" onOpen={onOpen} />
              </li>
            ))}
          </ul>
        );
      })}
    </div>
  );
}

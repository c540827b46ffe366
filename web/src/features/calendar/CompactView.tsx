/**
 * The month or the week on a phone, where a day's column is too narrow for a title: each day a
 * button with its number, a dot per color of its first entries and how many there are; the day
 * picked (today, else the month's first) lists its entries under the days.
 */
import { useState } from "react";
import type { Occurrence } from "../../shared/api/types.generated";
import { dayTitle, utcMs, type Day } from "./days";
import { DayList } from "./DayList";
import { daySummary, pickedDay } from "./fit";
import { entriesOn, type Entry } from "./placement";
import { EmptyState } from "../../shared/ui/EmptyState";

const weekdayName = (day: Day, style: "narrow" | "long") =>
  new Intl.DateTimeFormat(undefined, { weekday: style, timeZone: "UTC" }).format(new Date(utcMs(day)));

const countWords = (count: number) => (count === 0 ? "nothing on it" : count === 1 ? "1 entry" : `${count} entries`);

export function CompactView({
  weeks,
  month,
  today,
  entries,
  onOpen,
}: {
  weeks: readonly Day[][];
  /** `YYYY-MM` of the month shown, when a month is: the neighbours' days are dimmed. */
  month?: string;
  today: Day;
  entries: readonly Entry[];
  onOpen: (occ: Occurrence) => void;
}) {
  const [picked, setPicked] = useState(() => pickedDay(weeks.flat(), today, month));
  const list = entriesOn(entries, picked);
  return (
    <div className="cal-compact">
      <div className="cal-compact-days" role="group" aria-label="Days">
        {(weeks[0] ?? []).map((day) => (
          <div key={`w-${day}`} className="cal-compact-weekday" aria-hidden="true">
            {weekdayName(day, "narrow")}
          </div>
        ))}
        {weeks.flat().map((day) => {
          const { count, colors } = daySummary(entries, day);
          return (
            <button
              key={day}
              type="button"
              className="cal-compact-day"
              data-day={day}
              data-today={day === today || undefined}
              data-outside={(month !== undefined && !day.startsWith(month)) || undefined}
              aria-pressed={day === picked}
              onClick={() => setPicked(day)}
            >
              {/* Named in words; the number, dots and count are the picture of it. */}
              <span className="visually-hidden">
                {dayTitle(day)}, {countWords(count)}
              </span>
              <span className="cal-compact-number" aria-hidden="true">
                {Number(day.slice(8))}
              </span>
              <span className="cal-dots" aria-hidden="true">
                {colors.map((color) => (
                  <span key={color} className="cal-dot" style={{ background: color }} />
                ))}
              </span>
              <span className="cal-compact-count" aria-hidden="true">
                {count > 0 ? count : "\u00a0"}
              </span>
            </button>
          );
        })}
      </div>
      <section className="cal-compact-list" aria-labelledby="cal-picked-day">
        <h3 id="cal-picked-day">
          {dayTitle(picked)}
          {picked === today && <span className="cal-today-tag"> · today</span>}
        </h3>
        {list.length === 0 ? <EmptyState>Nothing on this day.</EmptyState> : <DayList entries={list} onOpen={onOpen} />}
      </section>
    </div>
  );
}

/**
 * The week: a heading per day, the all-day row (sprints, all-day and multi-day entries as bars,
 * board items among them, as many lines as `ALL_DAY_LINES`, then a day's "+N more") and the
 * day's hours with each timed event at its local time, side by side where events overlap; the
 * hours open at the working day, or at now when that is later. Items are dragged to another day
 * in the all-day row or onto a day's hours.
 */
import { useEffect, useRef } from "react";
import type { Occurrence } from "../../shared/api/types.generated";
import { DayCells } from "./DayCells";
import { DayMores } from "./DayMore";
import { EntryChip, SpanBars } from "./EntryChip";
import { utcMs, type Day } from "./days";
import { firstHourShown, layoutWeekLines } from "./fit";
import { entryKey, layoutTimed, type Entry } from "./placement";
import { useDayDrop } from "./useDayDrop";

/** Pixels an hour is tall. */
const HOUR_PX = 40;
/** The working day's first hour: the hours open here. */
const WORKDAY_START = 7;
/** The hours in view at once (the hours' 560 px). */
const HOURS_IN_VIEW = 14;
/** Lines of the all-day row before a day's "+N more". */
const ALL_DAY_LINES = 5;

const dayHeading = (day: Day) => {
  const at = new Date(utcMs(day));
  return {
    weekday: new Intl.DateTimeFormat(undefined, { weekday: "short", timeZone: "UTC" }).format(at),
    narrow: new Intl.DateTimeFormat(undefined, { weekday: "narrow", timeZone: "UTC" }).format(at),
    long: new Intl.DateTimeFormat(undefined, { weekday: "long", timeZone: "UTC" }).format(at),
    date: new Intl.DateTimeFormat(undefined, { day: "numeric", month: "long", timeZone: "UTC" }).format(at),
  };
};

const hourLabel = (hour: number) =>
  new Intl.DateTimeFormat(undefined, { hour: "numeric" }).format(new Date(2000, 0, 1, hour));

export function WeekView({
  days,
  today,
  entries,
  onOpen,
  onMove,
}: {
  days: readonly Day[];
  today: Day;
  entries: readonly Entry[];
  onOpen: (occ: Occurrence) => void;
  onMove: (uid: string, day: Day) => void;
}) {
  const { bars, more, lanes } = layoutWeekLines(entries, days, ALL_DAY_LINES, false);
  const allDay = useDayDrop(days, onMove);
  const hours = useRef<HTMLDivElement>(null);
  const todayShown = days.includes(today);
  useEffect(() => {
    const first = firstHourShown(new Date().getHours(), todayShown, WORKDAY_START, HOURS_IN_VIEW);
    if (hours.current) hours.current.scrollTop = first * HOUR_PX;
  }, [todayShown]);
  return (
    <div className="cal-weekview">
      <div className="cal-week-head">
        <div className="cal-gutter" />
        {days.map((day) => {
          const name = dayHeading(day);
          return (
            <div
              key={day}
              className="cal-week-day"
              data-day={day}
              data-weekday={name.long}
              data-today={day === today || undefined}
            >
              <span aria-hidden="true">
                <span className="cal-wd-short">{name.weekday}</span>
                <span className="cal-wd-narrow">{name.narrow}</span> <strong>{Number(day.slice(8))}</strong>
              </span>
              <span className="visually-hidden">
                {name.long} {name.date}
              </span>
            </div>
          );
        })}
      </div>
      <div className="cal-week-allday">
        <div className="cal-gutter cal-gutter-label">All day</div>
        <div
          className="cal-week-row cal-allday-row"
          style={{ gridTemplateRows: `repeat(${Math.max(lanes, 1)}, auto)` }}
          {...allDay.handlers}
        >
          <DayCells days={days} today={today} over={allDay.over} />
          <SpanBars bars={bars} firstRow={1} onOpen={onOpen} />
          <DayMores more={more} entries={entries} firstRow={1} onOpen={onOpen} />
        </div>
      </div>
      <div className="cal-hours" ref={hours} role="region" aria-label="Hours of the week" tabIndex={0}>
        <div className="cal-hours-inner" style={{ height: 24 * HOUR_PX }}>
          <div className="cal-gutter">
            {Array.from({ length: 24 }, (_, h) => (
              <div key={h} className="cal-hour-label" style={{ top: h * HOUR_PX }}>
                {hourLabel(h)}
              </div>
            ))}
          </div>
          {days.map((day) => (
            <DayHours key={day} day={day} today={today} entries={entries} onOpen={onOpen} onMove={onMove} />
          ))}
        </div>
      </div>
    </div>
  );
}

function DayHours({
  day,
  today,
  entries,
  onOpen,
  onMove,
}: {
  day: Day;
  today: Day;
  entries: readonly Entry[];
  onOpen: (occ: Occurrence) => void;
  onMove: (uid: string, day: Day) => void;
}) {
  const { over, handlers } = useDayDrop([day], onMove);
  return (
    <div
      className="cal-day-hours"
      data-day={day}
      data-today={day === today || undefined}
      data-drop={over === day || undefined}
      {...handlers}
    >
      {layoutTimed(entries, day).map((slot) => (
        <EntryChip
          key={entryKey(slot.entry.occ)}
          occ={slot.entry.occ}
          showTime
          className="cal-timed"
          style={{
            top: (slot.top / 60) * HOUR_PX,
            height: (slot.height / 60) * HOUR_PX - 2,
            left: `${(slot.column / slot.columns) * 100}%`,
            width: `calc(${100 / slot.columns}% - 2px)`,
          }}
          onOpen={onOpen}
        />
      ))}
    </div>
  );
}

/**
 * The month: whole weeks from the chosen weekday, sharing the window's height so the month is
 * seen at once. In each week the bars (sprints, all-day and multi-day entries, board items among
 * them) in rows under the day numbers, then each day's timed events by start, as many lines as
 * the week's height holds; a day with more ends in "+N more", which lists the day. Items are
 * dragged to another day of any week shown.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from "react";
import type { Occurrence } from "../../shared/api/types.generated";
import { DayCells } from "./DayCells";
import { DayMores } from "./DayMore";
import { EntryChip, SpanBars } from "./EntryChip";
import { utcMs, type Day } from "./days";
import { layoutWeekLines, LINE_PX, linesThatFit, monthRowPx, NUMBER_PX } from "./fit";
import { entryKey, type Entry } from "./placement";
import { useDayDrop } from "./useDayDrop";

/** Room kept under the month: the page's padding. */
const BOTTOM_PX = 20;

const weekdayName = (day: Day, style: "short" | "long") =>
  new Intl.DateTimeFormat(undefined, { weekday: style, timeZone: "UTC" }).format(new Date(utcMs(day)));

const dateName = (day: Day) =>
  new Intl.DateTimeFormat(undefined, { day: "numeric", month: "long", timeZone: "UTC" }).format(new Date(utcMs(day)));

/**
 * The height left in the window under the weekday names, measured in the page's scrolling
 * content (so a page scrolled when the window changes size measures the same): again when the
 * window or the page changes size (the legend above may wrap differently).
 */
function useRoomBelow(month: RefObject<HTMLDivElement | null>): number {
  const [room, setRoom] = useState(0);
  useLayoutEffect(() => {
    const element = month.current;
    if (!element) return;
    const scroller = element.closest<HTMLElement>(".content");
    const measure = () => {
      const box = element.getBoundingClientRect();
      const head = element.querySelector(".cal-weekdays")?.getBoundingClientRect().height ?? 0;
      const top = scroller
        ? box.top - scroller.getBoundingClientRect().top + scroller.scrollTop
        : box.top + window.scrollY;
      const height = scroller ? scroller.clientHeight : window.innerHeight;
      setRoom(height - top - head - BOTTOM_PX);
    };
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(scroller ?? document.documentElement);
    if (element.parentElement) resized.observe(element.parentElement);
    return () => resized.disconnect();
  }, [month]);
  return room;
}

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
  const element = useRef<HTMLDivElement>(null);
  const rowPx = monthRowPx(useRoomBelow(element), weeks.length);
  const lines = linesThatFit(rowPx);
  return (
    <div
      ref={element}
      className="cal-month"
      data-week-start={first[0] ? weekdayName(first[0], "long") : undefined}
      data-lines={lines}
    >
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
          rowPx={rowPx}
          lines={lines}
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
  rowPx,
  lines,
  onOpen,
  onMove,
}: {
  days: readonly Day[];
  month: string;
  today: Day;
  entries: readonly Entry[];
  rowPx: number;
  lines: number;
  onOpen: (occ: Occurrence) => void;
  onMove: (uid: string, day: Day) => void;
}) {
  const { bars, timed, more, lanes } = layoutWeekLines(entries, days, lines, true);
  const { over, handlers } = useDayDrop(days, onMove);
  return (
    <div
      className="cal-week-row"
      style={{ height: rowPx, gridTemplateRows: `${NUMBER_PX}px repeat(${lanes}, ${LINE_PX - 2}px) 1fr` }}
      {...handlers}
    >
      <DayCells days={days} today={today} over={over} month={month} />
      {days.map((day, i) => (
        <time key={`n-${day}`} className="cal-day-number" dateTime={day} style={{ gridColumn: i + 1, gridRow: 1 }}>
          <span className="visually-hidden">{dateName(day)}</span>
          <span aria-hidden="true">{Number(day.slice(8))}</span>
        </time>
      ))}
      <SpanBars bars={bars} firstRow={2} onOpen={onOpen} />
      {timed.map(({ entry, col, lane }) => (
        <EntryChip
          key={entryKey(entry.occ)}
          occ={entry.occ}
          showTime
          className="cal-timed-chip"
          style={{ gridColumn: col + 1, gridRow: lane + 2 }}
          onOpen={onOpen}
        />
      ))}
      <DayMores more={more} entries={entries} firstRow={2} onOpen={onOpen} />
    </div>
  );
}

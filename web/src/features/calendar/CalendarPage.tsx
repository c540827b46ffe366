/**
 * `/calendar`: the boards' due dates and sprints (`pmCalendarOverlayEnabled`) and the calendar
 * accounts' events (`calendarEnabled`) in a month, a week or an agenda, the week starting on
 * `calendarWeekStartDay`, with a legend of whose each color is. It opens in the view last
 * chosen, else in Agenda on a phone (where the month and the week show days as dots and list the
 * day tapped) and Month elsewhere, with today scrolled into view. An item dragged to another day
 * (or moved with "Move to date") gets that due date through the ordinary item write, shown at
 * once and taken back if the write fails; clicking an item opens it on its board, a sprint its
 * board, an event its details (where an invitation can be marked spam). While the spam filter is
 * on, "Spam invitations" below holds the trash, the spam senders and the user's organization.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Occurrence } from "../../shared/api/types.generated";
import { boardPath, itemPath, navigate, Link } from "../../shared/router";
import { readStored, writeStored } from "../../shared/storage";
import { boardsShown } from "../../shared/boardsModule";
import { useSettings } from "../../shared/settings";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { readableTextOn } from "../../shared/ui/contrast";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { TabButtons } from "../../shared/ui/Tabs";
import { useToast } from "../../shared/ui/toasts";
import { useMediaQuery } from "../../shared/useMediaQuery";
import { calendarShown } from "./visibility";
import { fetchEvents, setDueDate } from "./api";
import { AgendaView } from "./AgendaView";
import { CompactView } from "./CompactView";
import {
  dayOfLocal,
  monthGrid,
  rangeTitle,
  stepAnchor,
  visibleDays,
  visibleRange,
  weekDays,
  weekStartOf,
  type CalendarView,
  type Day,
} from "./days";
import { EventDetails } from "./EventDetails";
import { initialView, NARROW_QUERY } from "./fit";
import { MonthView } from "./MonthView";
import { MoveToDate } from "./MoveToDate";
import { legendOf, moveEntry, toEntry, type LegendRow } from "./placement";
import { spamToolsShown } from "./spam";
import { SpamPanel } from "./SpamPanel";
import { WeekView } from "./WeekView";
import "./calendar.css";

/** How long board writes may go on before the calendar reads its entries again. */
const BOARD_RELOAD_MS = 500;

const VIEW_KEY = "switchboard.calendar.view";
const VIEWS = [
  { key: "month", label: "Month" },
  { key: "week", label: "Week" },
  { key: "agenda", label: "Agenda" },
] as const;

const openingView = (): CalendarView => initialView(readStored(VIEW_KEY), window.matchMedia(NARROW_QUERY).matches);

export function CalendarPage() {
  const { values } = useSettings();
  const toast = useToast();
  const weekStart = weekStartOf(values?.calendarWeekStartDay);
  const shown = values !== undefined && calendarShown(values);
  const spamTools = spamToolsShown(values);
  const narrow = useMediaQuery(NARROW_QUERY);
  const [view, setViewState] = useState<CalendarView>(openingView);
  const setView = (next: CalendarView) => {
    writeStored(VIEW_KEY, next);
    setViewState(next);
  };
  const [today, setToday] = useState(() => dayOfLocal(new Date()));
  const [anchor, setAnchor] = useState<Day>(today);
  const range = visibleRange(view, anchor, weekStart);
  const [occs, setOccs] = useState<Occurrence[]>();
  const [error, setError] = useState<unknown>();
  const [reads, setReads] = useState(0);
  const reload = useCallback(() => setReads((n) => n + 1), []);
  const [details, setDetails] = useState<Occurrence | null>(null);

  useEffect(() => {
    if (!shown) return;
    const abort = new AbortController();
    fetchEvents(range, abort.signal).then(
      (list) => {
        setOccs(list);
        setError(undefined);
        setToday(dayOfLocal(new Date()));
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setError(e);
      },
    );
    return () => abort.abort();
  }, [shown, range.from, range.to, reads]); // eslint-disable-line react-hooks/exhaustive-deps
  useStreamLifecycle("reset", reload);
  useStreamEvent("calendar", reload);
  // A due date changed elsewhere (another tab, an agent, an automation) shows without a visit
  // away; a burst of board writes costs one read.
  const boardChanged = useRef<ReturnType<typeof setTimeout>>(undefined);
  useStreamEvent("board", () => {
    clearTimeout(boardChanged.current);
    boardChanged.current = setTimeout(reload, BOARD_RELOAD_MS);
  });
  useEffect(() => () => clearTimeout(boardChanged.current), []);

  // With the board module off its due dates and sprints are not drawn, whatever the server sends.
  const boards = boardsShown(values);
  const drawn = useMemo(
    () => (occs ?? []).filter((occ) => boards || (occ.source.kind !== "item" && occ.source.kind !== "sprint")),
    [occs, boards],
  );
  const entries = useMemo(() => drawn.map(toEntry), [drawn]);
  const legend = useMemo(() => legendOf(drawn), [drawn]);

  // Today in view once per range opened (not at each read again, which would pull the page back).
  const page = useRef<HTMLElement>(null);
  const scrolledFor = useRef("");
  useEffect(() => {
    const key = `${view} ${narrow} ${range.from}`;
    if (occs === undefined || scrolledFor.current === key) return;
    scrolledFor.current = key;
    page.current?.querySelector("[data-today]")?.scrollIntoView({ block: "nearest" });
  }, [occs, view, narrow, range.from]);

  const move = useCallback(
    (uid: string, day: Day) => {
      const before = occs?.find((occ) => occ.uid === uid);
      if (!before || before.source.kind !== "item" || toEntry(before).first === day) return;
      const { itemId, columnId } = before.source;
      setOccs((now) => now && moveEntry(now, uid, day));
      // On success the screen is already right, and the write's `board` event reads again.
      setDueDate(itemId, columnId, day).catch((e: unknown) => {
        // Only this entry goes back: anything read meanwhile stays.
        setOccs((now) => now?.map((occ) => (occ.uid === uid ? before : occ)));
        toast.error(e, `"${before.title}" was not moved`);
      });
    },
    [occs, toast],
  );

  const open = (occ: Occurrence) => {
    const source = occ.source;
    if (source.kind === "item") navigate(itemPath(source.boardId, source.itemId));
    else if (source.kind === "sprint") navigate(boardPath(source.boardId));
    else setDetails(occ);
  };

  if (values !== undefined && !shown) {
    return (
      <section className="page">
        <PageHeader title="Calendar" />
        <p>
          The calendar is off: turn on the boards&apos; due dates on a calendar or your calendars in{" "}
          <Link to="/settings">Settings</Link>.
        </p>
      </section>
    );
  }

  const goToday = () => {
    const now = dayOfLocal(new Date());
    setToday(now);
    setAnchor(now);
  };
  return (
    <section ref={page} className="page cal-page" data-view={view} data-narrow={narrow || undefined}>
      <PageHeader
        title="Calendar"
        actions={
          <div className="cal-nav" role="group" aria-label="Dates shown">
            <button type="button" onClick={goToday}>
              Today
            </button>
            <button type="button" aria-label="Previous" onClick={() => setAnchor(stepAnchor(view, anchor, -1))}>
              ‹
            </button>
            <button type="button" aria-label="Next" onClick={() => setAnchor(stepAnchor(view, anchor, 1))}>
              ›
            </button>
          </div>
        }
      />
      <div className="cal-toolbar">
        <h2 className="cal-range" aria-live="polite" data-from={range.from} data-to={range.to}>
          {rangeTitle(view, anchor, weekStart)}
        </h2>
        <TabButtons label="Calendar view" tabs={VIEWS} selected={view} onSelect={setView} />
      </div>
      {legend.length > 0 && <Legend rows={legend} />}
      {error !== undefined && <ErrorNote error={error} onRetry={reload} />}
      {occs === undefined ? (
        error === undefined && <Loading what="the calendar" />
      ) : (
        <>
          {view === "month" && narrow && (
            <CompactView
              key={range.from}
              weeks={monthGrid(anchor, weekStart)}
              month={anchor.slice(0, 7)}
              today={today}
              entries={entries}
              onOpen={open}
            />
          )}
          {view === "month" && !narrow && (
            <MonthView
              weeks={monthGrid(anchor, weekStart)}
              month={anchor.slice(0, 7)}
              today={today}
              entries={entries}
              onOpen={open}
              onMove={move}
            />
          )}
          {view === "week" && narrow && (
            <CompactView
              key={range.from}
              weeks={[weekDays(anchor, weekStart)]}
              today={today}
              entries={entries}
              onOpen={open}
            />
          )}
          {view === "week" && !narrow && (
            <WeekView days={weekDays(anchor, weekStart)} today={today} entries={entries} onOpen={open} onMove={move} />
          )}
          {view === "agenda" && (
            <AgendaView days={visibleDays("agenda", anchor, weekStart)} today={today} entries={entries} onOpen={open} />
          )}
          <MoveToDate occs={drawn} onMove={move} />
          {spamTools && <SpamPanel onChanged={reload} />}
        </>
      )}
      {details && (
        <EventDetails occ={details} spamTools={spamTools} onClose={() => setDetails(null)} onMarked={reload} />
      )}
    </section>
  );
}

/** Whose each color is: the boards (their items and sprints) and the calendars on screen. */
function Legend({ rows }: { rows: readonly LegendRow[] }) {
  return (
    <ul className="cal-legend" aria-label="Colors">
      {rows.map((row) => (
        <li key={row.key}>
          <span
            className="cal-legend-swatch"
            style={{ background: row.color, borderColor: readableTextOn(row.color) }}
            aria-hidden="true"
          />
          {row.name}
        </li>
      ))}
    </ul>
  );
}

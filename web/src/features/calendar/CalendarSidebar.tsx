/**
 * The calendar's part of the sidebar: the Upcoming list (while `calendarEnabled` is on), the next
 * account events over seven days, read again every minute and on each `calendar` event; and the
 * reminder toasts of the `calendar` events ("Standup in 10 min"). Focus mode holds reminders as
 * it holds other notifications: they are told in one toast when it ends, those still ahead.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Occurrence } from "../../shared/api/types.generated";
import { useFocus } from "../../shared/focus/FocusProvider";
import { usePolling } from "../../shared/hooks/usePolling";
import { Link } from "../../shared/router";
import { useSettings } from "../../shared/settings";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { useToast } from "../../shared/ui/toasts";
import { readableTextOn } from "../../shared/ui/contrast";
import { fetchEvents } from "./api";
import { colorOf, entryKey } from "./placement";
import {
  heldRemindersText,
  isReminder,
  reminderText,
  upcoming,
  upcomingRange,
  whenLabel,
  type CalendarReminder,
} from "./upcoming";
import { upcomingShown } from "./visibility";
import "./calendar.css";
import { EmptyState } from "../../shared/ui/EmptyState";

const MINUTE_MS = 60_000;

export function CalendarSidebar() {
  const { values } = useSettings();
  const on = upcomingShown(values);
  const [events, setEvents] = useState<Occurrence[]>();
  const [now, setNow] = useState(() => new Date());

  const load = useCallback(() => {
    if (!on) return;
    const at = new Date();
    fetchEvents(upcomingRange(at)).then(
      (list) => {
        setNow(at);
        setEvents(upcoming(list, at));
      },
      // The list is a glance: a failed read keeps what it showed and the next minute tries again.
      () => {},
    );
  }, [on]);
  useEffect(load, [load]);
  usePolling(load, MINUTE_MS, on);
  useStreamLifecycle("open", load);
  useReminders(load);

  if (!on || events === undefined) return null;
  return (
    <section className="cal-upcoming" aria-labelledby="cal-upcoming-title">
      <h2 id="cal-upcoming-title">Upcoming</h2>
      {events.length === 0 ? (
        <EmptyState>Nothing in the next 7 days.</EmptyState>
      ) : (
        <ul>
          {events.map((occ) => (
            <li key={entryKey(occ)}>
              <Link to="/calendar" className="cal-upcoming-link" title={occ.location ?? undefined}>
                <span
                  className="cal-upcoming-dot"
                  style={{ background: colorOf(occ.source), borderColor: readableTextOn(colorOf(occ.source)) }}
                  aria-hidden="true"
                />
                <span className="cal-upcoming-when">{whenLabel(occ, now)}</span>
                <span className="cal-upcoming-title">{occ.title.trim() || "(untitled)"}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Shows each reminder as a toast, unless focus mode holds notifications; the held ones are told
 * once when it ends. Every `calendar` event also calls `onEvent` (the list reads again).
 */
function useReminders(onEvent: () => void) {
  const { values } = useSettings();
  const { hold, holdNow } = useFocus();
  const toast = useToast();
  const held = useRef<CalendarReminder[]>([]);
  useStreamEvent<unknown>("calendar", (data) => {
    onEvent();
    if (!isReminder(data)) return;
    if (holdNow(values).on) held.current.push(data);
    else toast.info(reminderText(data));
  });
  useEffect(() => {
    if (hold.on || held.current.length === 0) return;
    const text = heldRemindersText(held.current, new Date());
    held.current = [];
    if (text) toast.info(text);
  }, [hold.on, toast]);
}

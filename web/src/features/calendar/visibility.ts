/** When the calendar shows: its page and sidebar entry, and the sidebar's Upcoming list. */

type Values = Readonly<Record<string, unknown>> | undefined;

/** The page is there while the boards' overlay (`pmCalendarOverlayEnabled`, on by default) or `calendarEnabled` is on. */
export function calendarShown(values: Values): boolean {
  return values?.calendarEnabled === true || values?.pmCalendarOverlayEnabled !== false;
}

/** The Upcoming list needs calendar accounts: `calendarEnabled` (off by default). */
export function upcomingShown(values: Values): boolean {
  return values?.calendarEnabled === true;
}

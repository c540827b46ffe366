/** When the calendar shows: its page and sidebar entry, and the sidebar's Upcoming list. */
import { boardsShown } from "../../shared/boardsModule";

type Values = Readonly<Record<string, unknown>> | undefined;

/**
 * The page is there while the boards' overlay (`pmCalendarOverlayEnabled`, on by default, and only
 * with the board module, `projectBoardsEnabled`) or `calendarEnabled` is on.
 */
export function calendarShown(values: Values): boolean {
  return values?.calendarEnabled === true || (boardsShown(values) && values?.pmCalendarOverlayEnabled !== false);
}

/** The Upcoming list needs calendar accounts: `calendarEnabled` (off by default). */
export function upcomingShown(values: Values): boolean {
  return values?.calendarEnabled === true;
}

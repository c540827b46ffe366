/** The calendar's spam invitations in words and rules: when "Mark as spam" is offered, what it did. */
import type { CalendarSpamMarked, Occurrence } from "../../shared/api/types.generated";

type Values = Readonly<Record<string, unknown>> | undefined;

/** The spam tools show while the calendars and their spam filter (on by default) are on. */
export function spamToolsShown(values: Values): boolean {
  return values?.calendarEnabled === true && values?.spamFilterCalendarEnabled !== false;
}

/** Who organized a CalDAV event, the user included; null for any other. */
export function spamSender(occ: Occurrence): string | null {
  return occ.source.kind === "caldav" ? occ.source.organizer : null;
}

/** Whether "Mark as spam" fits: an invitation, from an organizer who is not the user (the server tells). */
export function markable(occ: Occurrence): boolean {
  return occ.source.kind === "caldav" && occ.source.organizer !== null && occ.source.invitation;
}

/** "win@prizes.example is marked spam; 2 invitations deleted." */
export function markedText(marked: CalendarSpamMarked): string {
  const deleted =
    marked.trashed === 0
      ? ""
      : `; ${marked.trashed} invitation${marked.trashed === 1 ? "" : "s"} deleted and kept in the trash for 30 days`;
  const failed = marked.failure ? ` (not all: ${marked.failure})` : "";
  return `${marked.sender} is marked spam${deleted}${failed}.`;
}

/** The domains and addresses typed one per line or separated by commas or spaces. */
export function parseEntries(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((entry) => entry.trim().toLowerCase()))].filter((e) => e !== "");
}

/** An account event's details, opened by clicking it: when, where, and which calendar. */
import type { Occurrence } from "../../shared/api/types.generated";
import { Dialog } from "../../shared/ui/Dialog";
import { utcMs } from "./days";
import { toEntry } from "./placement";

/** "Wednesday 18 March 2026, 09:00 – 09:15", or the days of an all-day event. */
export function whenText(occ: Occurrence, locale?: string): string {
  if (occ.allDay) {
    const { first, last } = toEntry(occ);
    const format = new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: "UTC" });
    const days = first === last ? format.format(utcMs(first)) : format.formatRange(utcMs(first), utcMs(last));
    return `${days}, all day`;
  }
  const format = new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "short" });
  return format.formatRange(new Date(occ.start), new Date(occ.end));
}

export function EventDetails({ occ, onClose }: { occ: Occurrence; onClose: () => void }) {
  const source = occ.source;
  return (
    <Dialog title={occ.title.trim() || "(untitled)"} onClose={onClose}>
      <dl className="cal-details">
        <dt>When</dt>
        <dd>{whenText(occ)}</dd>
        {occ.location && (
          <>
            <dt>Where</dt>
            <dd>{occ.location}</dd>
          </>
        )}
        {(source.kind === "caldav" || source.kind === "ics") && (
          <>
            <dt>Calendar</dt>
            <dd>
              {source.calendar} ({source.account})
            </dd>
          </>
        )}
        {occ.recurring && (
          <>
            <dt>Repeats</dt>
            <dd>Part of a series</dd>
          </>
        )}
      </dl>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}

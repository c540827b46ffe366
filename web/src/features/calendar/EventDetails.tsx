/**
 * An account event's details, opened by clicking it: when, where, which calendar, who organizes
 * it, and, for an invitation while the spam filter is on, "Mark as spam".
 */
import { useState } from "react";
import type { Occurrence } from "../../shared/api/types.generated";
import { Dialog } from "../../shared/ui/Dialog";
import { useToast } from "../../shared/ui/toasts";
import { markSpam } from "./api";
import { utcMs } from "./days";
import { toEntry } from "./placement";
import { markable, markedText, spamSender } from "./spam";

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

export function EventDetails({
  occ,
  spamTools,
  onClose,
  onMarked,
}: {
  occ: Occurrence;
  /** Whether "Mark as spam" is offered (the spam filter is on). */
  spamTools: boolean;
  onClose: () => void;
  /** The sender was marked: the calendar reads its events again. */
  onMarked: () => void;
}) {
  const source = occ.source;
  const toast = useToast();
  const [marking, setMarking] = useState(false);
  const sender = spamSender(occ);
  const mark = () => {
    if (source.kind !== "caldav") return;
    setMarking(true);
    markSpam({ accountId: source.accountId, uid: occ.uid }).then(
      (marked) => {
        toast.info(markedText(marked));
        onMarked();
        onClose();
      },
      (e: unknown) => {
        setMarking(false);
        toast.error(e, "Not marked as spam");
      },
    );
  };
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
        {sender && (
          <>
            <dt>Organizer</dt>
            <dd>{sender}</dd>
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
        {spamTools && markable(occ) && (
          <button type="button" className="danger" onClick={mark} disabled={marking}>
            Mark as spam
          </button>
        )}
        <button type="button" className="primary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}

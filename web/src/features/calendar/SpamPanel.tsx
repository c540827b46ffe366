/**
 * "Spam invitations" under the calendar, while the spam filter is on: the invitations deleted as
 * spam (kept 30 days, each with Restore), the senders marked spam (each with Not spam) and the
 * user's organization (the domains of their own addresses, and the domains and addresses they
 * add), which decides what the filter hides. Read when opened.
 */
import { useCallback, useState } from "react";
import type { CalendarOrganization, CalendarSpamSender, CalendarTrashedInvite } from "../../shared/api/types.generated";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { fetchOrganization, fetchSpamSenders, fetchTrash, restoreInvite, saveOrganization, unmarkSpam } from "./api";
import { parseEntries } from "./spam";

interface Read {
  trash: CalendarTrashedInvite[];
  senders: CalendarSpamSender[];
  organization: CalendarOrganization;
}

const day = (at: string | null) =>
  at ? new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date(at)) : "";

export function SpamPanel({ onChanged }: { onChanged: () => void }) {
  const toast = useToast();
  const [read, setRead] = useState<Read>();
  const [error, setError] = useState<unknown>();
  const [entries, setEntries] = useState("");
  const load = useCallback(() => {
    Promise.all([fetchTrash(), fetchSpamSenders(), fetchOrganization()]).then(([trash, senders, organization]) => {
      setRead({ trash, senders, organization });
      setEntries(organization.added.join("\n"));
      setError(undefined);
    }, setError);
  }, []);
  const act = (work: Promise<unknown>, failed: string) =>
    work.then(
      () => {
        load();
        onChanged();
      },
      (e: unknown) => toast.error(e, failed),
    );

  return (
    <details
      className="cal-spam"
      onToggle={(e) => {
        if (e.currentTarget.open) load();
      }}
    >
      <summary>Spam invitations</summary>
      {error !== undefined && <ErrorNote error={error} onRetry={load} />}
      {read === undefined ? (
        error === undefined && <Loading what="the spam invitations" />
      ) : (
        <>
          <h3>Deleted invitations</h3>
          {read.trash.length === 0 ? (
            <p className="muted">
              None. With “Delete invites from spam senders” on, the invitations of senders marked spam land here when
              they are deleted.
            </p>
          ) : (
            <ul>
              {read.trash.map((t) => (
                <li key={t.id}>
                  <span>
                    {t.title.trim() || "(untitled)"} {t.start && `· ${day(t.start)}`} · {t.organizer} · kept until{" "}
                    {day(t.purgeAt)}
                  </span>
                  <button type="button" onClick={() => void act(restoreInvite(t.id), `"${t.title}" was not restored`)}>
                    Restore
                  </button>
                </li>
              ))}
            </ul>
          )}
          <h3>Senders marked spam</h3>
          {read.senders.length === 0 ? (
            <p className="muted">None.</p>
          ) : (
            <ul>
              {read.senders.map((s) => (
                <li key={s.address}>
                  <span>{s.address}</span>
                  <button type="button" onClick={() => void act(unmarkSpam(s.address), `${s.address} is still spam`)}>
                    Not spam
                  </button>
                </li>
              ))}
            </ul>
          )}
          <h3>Your organization</h3>
          <p className="muted">
            Invitations from outside it are hidden.{" "}
            {read.organization.domains.length > 0
              ? `From your addresses: ${read.organization.domains.map((d) => d.domain).join(", ")}.`
              : "None of your addresses names a domain of its own, so nothing is hidden until you add one."}
          </p>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void act(saveOrganization(parseEntries(entries)), "The organization was not saved");
            }}
          >
            <label htmlFor="cal-spam-entries">Also in your organization (domains or addresses, one a line)</label>
            <textarea id="cal-spam-entries" rows={3} value={entries} onChange={(e) => setEntries(e.target.value)} />
            <button type="submit">Save</button>
          </form>
        </>
      )}
    </details>
  );
}

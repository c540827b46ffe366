/**
 * Email Cleanup: the senders who fill the mailbox, loudest first, each with Archive all,
 * Unsubscribe (one-click, a mail, or the sender's page, as the sender offers) and Keep. A guided
 * walkthrough, one sender at a time with its progress, unless `emailCleanupClassicLayout` asks
 * for the flat list.
 */
import { useMemo, useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import { useApi } from "../../shared/hooks/useApi";
import { EmptyState } from "../../shared/ui/EmptyState";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { cleanupAction, cleanupPath, type CleanupAction, type CleanupReport, type CleanupSender } from "./api";
import { byVolume, unsubscribeText } from "./cleanup";

interface Props {
  accountId: string;
  classic: boolean;
}

const DONE_WORDS: Record<CleanupAction, string> = {
  archive_all: "archived",
  unsubscribe: "unsubscribed",
  keep: "kept",
};

export function Cleanup({ accountId, classic }: Props) {
  const report = useApi<CleanupReport>(cleanupPath(accountId));
  const senders = useMemo(() => (report.data ? byVolume(report.data.senders) : []), [report.data]);
  const [done, setDone] = useState<Record<string, CleanupAction>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ sender: string; message: string } | null>(null);

  const run = async (sender: CleanupSender, action: CleanupAction) => {
    setBusy(sender.address);
    setError(null);
    try {
      if (action !== "keep") await cleanupAction(accountId, sender.address, action);
      if (action === "unsubscribe" && sender.unsubscribe?.method === "link") {
        window.open(sender.unsubscribe.url, "_blank", "noopener");
      }
      setDone((all) => ({ ...all, [sender.address]: action }));
    } catch (cause) {
      setError({ sender: sender.address, message: errorMessage(cause) });
    } finally {
      setBusy(null);
    }
  };

  if (report.error !== undefined) return <ErrorNote error={report.error} onRetry={report.reload} />;
  if (!report.data) return <Loading what="your senders" />;
  if (senders.length === 0) return <EmptyState>No sender to clean up: nobody sends you much.</EmptyState>;

  const buttons = (sender: CleanupSender) => (
    <SenderButtons sender={sender} busy={busy === sender.address} onRun={(action) => void run(sender, action)} />
  );
  const errorOf = (sender: CleanupSender) =>
    error?.sender === sender.address && (
      <p className="mail-error" role="alert">
        {error.message}
      </p>
    );

  if (classic) {
    return (
      <section className="mail-cleanup" aria-labelledby="mail-cleanup-title">
        <h2 id="mail-cleanup-title">Email Cleanup</h2>
        <ul className="mail-cleanup-list">
          {senders.map((sender) => (
            <li key={sender.address} className="mail-cleanup-row" data-sender={sender.address}>
              <SenderFacts sender={sender} />
              {done[sender.address] ? (
                <span className="muted">Done: {DONE_WORDS[done[sender.address] ?? "keep"]}</span>
              ) : (
                buttons(sender)
              )}
              {errorOf(sender)}
            </li>
          ))}
        </ul>
      </section>
    );
  }

  const left = senders.filter((sender) => !done[sender.address]);
  const current = left[0];
  const handled = senders.length - left.length;
  return (
    <section className="mail-cleanup guided" aria-labelledby="mail-cleanup-title">
      <h2 id="mail-cleanup-title">Email Cleanup</h2>
      <progress className="mail-cleanup-progress" max={senders.length} value={handled} aria-label="Senders handled" />
      <p className="muted">
        {handled} of {senders.length} senders handled
      </p>
      {current ? (
        <div className="mail-cleanup-card" data-sender={current.address} aria-live="polite">
          <SenderFacts sender={current} />
          {buttons(current)}
          {errorOf(current)}
        </div>
      ) : (
        <EmptyState>All done: every sender has been handled.</EmptyState>
      )}
    </section>
  );
}

function SenderFacts({ sender }: { sender: CleanupSender }) {
  return (
    <div className="mail-sender">
      <strong>{sender.name ?? sender.address}</strong>
      {sender.name && <span className="muted"> {sender.address}</span>}
      <div className="muted">
        {sender.count} {sender.count === 1 ? "message" : "messages"}, {sender.unread} unread
        {sender.lastDate !== null && <>, last {new Date(sender.lastDate * 1000).toLocaleDateString()}</>}
      </div>
    </div>
  );
}

function SenderButtons({
  sender,
  busy,
  onRun,
}: {
  sender: CleanupSender;
  busy: boolean;
  onRun: (action: CleanupAction) => void;
}) {
  const how = unsubscribeText(sender.unsubscribe);
  const name = sender.name ?? sender.address;
  return (
    <div className="mail-cleanup-buttons">
      <button type="button" disabled={busy} onClick={() => onRun("archive_all")}>
        Archive all<span className="visually-hidden"> from {name}</span>
      </button>
      {how && (
        <button type="button" disabled={busy} title={how} onClick={() => onRun("unsubscribe")}>
          Unsubscribe<span className="visually-hidden"> from {name}</span>
        </button>
      )}
      <button type="button" disabled={busy} onClick={() => onRun("keep")}>
        Keep<span className="visually-hidden"> {name}</span>
      </button>
    </div>
  );
}

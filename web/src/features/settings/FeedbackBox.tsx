/**
 * Feedback about Switchboard itself, in the settings' diagnostics and bugs section beside the
 * switch that mails it (docs/diagnostics.md): the user writes it here, it is kept on this machine,
 * and each kept piece says whether it was sent to the `[reports]` address yet.
 */
import { useState } from "react";
import type { DiagnosticReport } from "../../shared/api/types.generated";
import { apiFetch } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import { useApi } from "../../shared/hooks/useApi";
import { Button } from "../../shared/ui/Button";
import { ErrorNote } from "../../shared/ui/Status";

/** Where a piece of feedback stands, in words. */
export function feedbackState(report: Pick<DiagnosticReport, "sentAt" | "lastFailure">): string {
  if (report.sentAt !== null) return `Sent ${new Date(report.sentAt).toLocaleString()}.`;
  if (report.lastFailure !== null) return `Not sent yet: ${report.lastFailure}`;
  return "Kept here: sent once “Send bug reports to the makers” is on and email.toml names a [reports] address.";
}

export function FeedbackBox() {
  const kept = useApi<DiagnosticReport[]>("/feedback");
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const send = async () => {
    setBusy(true);
    try {
      await apiFetch<DiagnosticReport>("/feedback", { method: "POST", body: { text } });
      setText("");
      setNote("Thank you: your feedback is kept.");
      kept.reload();
    } catch (error) {
      setNote(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="feedback-box" aria-label="Feedback about Switchboard">
      <h3>Feedback about Switchboard</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label>
          What works, what does not
          <textarea value={text} maxLength={10_000} rows={4} onChange={(event) => setText(event.target.value)} />
        </label>
        <Button type="submit" variant="primary" disabled={busy || text.trim() === ""}>
          Send feedback
        </Button>
      </form>
      {note !== null && <p role="status">{note}</p>}
      {kept.error !== undefined && <ErrorNote error={kept.error} onRetry={kept.reload} />}
      {kept.data && kept.data.length > 0 && (
        <ul className="feedback-list">
          {kept.data.map((report) => (
            <li key={report.id}>
              <strong>{report.subject.replace(/^Switchboard feedback: /, "")}</strong>{" "}
              <span className="muted">{feedbackState(report)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

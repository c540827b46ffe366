/**
 * A session that a session on a runner started (cloudStartedSessionsEnabled), under its
 * `cli_pending` row: Start lets it run on its runner, Refuse stops it without its ever running.
 * Either answer marks the row read.
 */
import { useState } from "react";
import "./answers.css";
import { apiFetch } from "../api/client";
import { errorMessage } from "../api/errorMessage";

interface Props {
  sessionId: string;
  onAnswered: () => void;
}

export function SessionStartCard({ sessionId, onAnswered }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [outcome, setOutcome] = useState<string | null>(null);
  const answer = (approve: boolean) => {
    setBusy(true);
    setError(undefined);
    apiFetch(`/sessions/${encodeURIComponent(sessionId)}/start-decision`, {
      method: "POST",
      body: { approve },
    })
      .then(() => {
        setOutcome(approve ? "Started." : "Refused: it will not run.");
        onAnswered();
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };
  return (
    <div className="approval secret-card" role="group" aria-label="Start this session?">
      {outcome !== null ? (
        <p className="secret-state">{outcome}</p>
      ) : (
        <div className="approval-actions">
          <button type="button" className="primary" disabled={busy} onClick={() => answer(true)}>
            Start
          </button>
          <button type="button" disabled={busy} onClick={() => answer(false)}>
            Refuse
          </button>
        </div>
      )}
      {error !== undefined ? <p role="alert">{errorMessage(error)}</p> : null}
    </div>
  );
}

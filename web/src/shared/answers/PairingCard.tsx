/**
 * A messenger user's pairing request under its `cli_pending` row: Approve adds the sender to the
 * bot's allowed users (the server changes `messengerBotAllowedUserIds` and tells them in the chat),
 * Decline spends the code. Either answer marks the row read.
 */
import { useState } from "react";
import "./answers.css";
import { apiFetch } from "../api/client";
import { errorMessage } from "../api/errorMessage";

interface Props {
  code: string;
  onAnswered: () => void;
}

export function PairingCard({ code, onAnswered }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [outcome, setOutcome] = useState<string | null>(null);
  const answer = (approve: boolean) => {
    setBusy(true);
    setError(undefined);
    const path = `/messenger/pairings/${encodeURIComponent(code)}/${approve ? "approve" : "reject"}`;
    apiFetch(path, { method: "POST" })
      .then(() => {
        setOutcome(approve ? "Approved: they can talk to your agents now." : "Declined.");
        onAnswered();
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };
  return (
    <div className="approval secret-card" role="group" aria-label={`Pairing code ${code}`}>
      {outcome !== null ? (
        <p className="secret-state">{outcome}</p>
      ) : (
        <div className="approval-actions">
          <button type="button" className="primary" disabled={busy} onClick={() => answer(true)}>
            Approve
          </button>
          <button type="button" disabled={busy} onClick={() => answer(false)}>
            Decline
          </button>
        </div>
      )}
      {error !== undefined ? <p role="alert">{errorMessage(error)}</p> : null}
    </div>
  );
}

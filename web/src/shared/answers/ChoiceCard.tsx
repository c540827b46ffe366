/**
 * Two answers to one request under its inbox row (a pairing code, a session's start): the
 * primary one and the other, each sent by `answer`; once sent, what was said replaces the
 * buttons and the row is marked read through `onAnswered`.
 */
import { useState } from "react";
import "./answers.css";
import { errorMessage } from "../api/errorMessage";

interface Props {
  label: string;
  yes: string;
  no: string;
  answer: (yes: boolean) => Promise<unknown>;
  said: (yes: boolean) => string;
  onAnswered: () => void;
}

export function ChoiceCard({ label, yes, no, answer, said, onAnswered }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [outcome, setOutcome] = useState<string | null>(null);
  const choose = (choice: boolean) => {
    setBusy(true);
    setError(undefined);
    answer(choice)
      .then(() => {
        setOutcome(said(choice));
        onAnswered();
      })
      .catch(setError)
      .finally(() => setBusy(false));
  };
  return (
    <div className="approval secret-card" role="group" aria-label={label}>
      {outcome !== null ? (
        <p className="secret-state">{outcome}</p>
      ) : (
        <div className="approval-actions">
          <button type="button" className="primary" disabled={busy} onClick={() => choose(true)}>
            {yes}
          </button>
          <button type="button" disabled={busy} onClick={() => choose(false)}>
            {no}
          </button>
        </div>
      )}
      {error !== undefined ? <p role="alert">{errorMessage(error)}</p> : null}
    </div>
  );
}

/**
 * A key a session offers, reviewed in place under its `cli_pending` row: the user may edit its
 * name and value, then Save keeps it as a saved key or Discard drops it. The value is shown only
 * while the proposal is pending (hidden until Show), and read again once decided, when the server
 * no longer gives it, so the card stops holding it.
 */
import { useState, type FormEvent } from "react";
import "./answers.css";
import { errorMessage } from "../api/errorMessage";
import type { KeyDecision, KeyProposal, Reviewed } from "../api/types.generated";
import { DISCARD, proposalStateLabel, saveDecision } from "./secrets";
import { useAnswered } from "./useAnswered";

interface ViewProps {
  proposal: Reviewed;
  busy: boolean;
  /** Why the last decision failed. */
  error: unknown;
  onDecide: (decision: KeyDecision) => void;
}

/** The proposal and, while it is pending, its form; drawn apart from loading so tests can draw it. */
export function KeyProposalView({ proposal, busy, error, onDecide }: ViewProps) {
  const [name, setName] = useState(proposal.name);
  const [value, setValue] = useState(proposal.value ?? "");
  const [show, setShow] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const label = proposalStateLabel(proposal);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = saveDecision(proposal, name, value);
    if ("problem" in built) return setProblem(built.problem);
    setProblem(null);
    onDecide(built.body);
  };

  const shown = problem ?? (error !== undefined ? errorMessage(error) : null);
  return (
    <div className="approval secret-card" role="group" aria-label={`Key proposal ${proposal.name}`}>
      {label !== null ? (
        <p className="secret-state">{label}</p>
      ) : (
        <form className="secret-form" onSubmit={submit}>
          <label>
            Name
            <input
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={name}
              disabled={busy}
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <label>
            Value
            <span className="secret-reveal">
              <input
                type={show ? "text" : "password"}
                autoComplete="off"
                spellCheck={false}
                value={value}
                disabled={busy}
                onChange={(e) => setValue(e.target.value)}
              />
              <button type="button" aria-pressed={show} onClick={() => setShow(!show)}>
                {show ? "Hide" : "Show"}
              </button>
            </span>
          </label>
          <div className="approval-actions">
            <button type="submit" className="primary" disabled={busy}>
              Save
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                setProblem(null);
                onDecide(DISCARD);
              }}
            >
              Discard
            </button>
          </div>
        </form>
      )}
      {shown !== null && (
        <p className="approval-error" role="alert">
          {shown}
        </p>
      )}
    </div>
  );
}

export function KeyProposalCard({ proposalId }: { proposalId: string }) {
  // The reply to a decision carries no value; the loaded copy still does, so it is read again.
  const answered = useAnswered<Reviewed, KeyDecision, KeyProposal>(
    `/key-proposals/${encodeURIComponent(proposalId)}`,
    "the key proposal",
    (reply) => ({ ...reply, value: null }),
    true,
  );
  if (!answered.item) return answered.placeholder;
  return (
    <KeyProposalView proposal={answered.item} busy={answered.busy} error={answered.error} onDecide={answered.send} />
  );
}

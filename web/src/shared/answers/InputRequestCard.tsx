/**
 * A session's request for a secret, answered in place under its `cli_pending` row: the user
 * types the value (or picks a saved key, or declines) and the server writes it into the session's
 * dotenv file. The typed value lives only in this card's state: it has no `name`, so no native
 * form submission can carry it, it is cleared as soon as it is sent, and it goes with the card.
 */
import { useState, type FormEvent } from "react";
import "./answers.css";
import { errorMessage } from "../api/errorMessage";
import type { InputAnswer, InputRequest, SavedKey } from "../api/types.generated";
import { useApi } from "../hooks/useApi";
import { DECLINE, inputAnswer, requestStateLabel } from "./secrets";
import { useAnswered } from "./useAnswered";
import { Pill } from "../ui/Pill";

interface ViewProps {
  request: InputRequest;
  /** The saved keys that can answer instead of a typed value. */
  keys: readonly SavedKey[];
  /** Why the saved keys could not be listed, if they could not. */
  keysError: unknown;
  busy: boolean;
  /** Why the last answer failed. */
  error: unknown;
  onAnswer: (answer: InputAnswer) => void;
}

/** The request and, while it is pending, its form; drawn apart from loading so tests can draw it. */
export function InputRequestView({ request, keys, keysError, busy, error, onAnswer }: ViewProps) {
  const [value, setValue] = useState("");
  const [remember, setRemember] = useState(false);
  const [key, setKey] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const label = requestStateLabel(request);

  const send = (answer: InputAnswer) => {
    setProblem(null);
    setValue("");
    onAnswer(answer);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const built = inputAnswer({ value, remember, key });
    if ("problem" in built) setProblem(built.problem);
    else send(built.body);
  };

  const shown = problem ?? (error !== undefined ? errorMessage(error) : null);
  return (
    <div className="approval secret-card" role="group" aria-label={`Input request for ${request.name}`}>
      <div className="approval-head">
        <Pill>{request.name}</Pill>
        <code className="approval-path">{request.file}</code>
      </div>
      <p className="secret-prompt">{request.prompt}</p>
      {label !== null ? (
        <p className="secret-state">{label}</p>
      ) : (
        <form className="secret-form" onSubmit={submit}>
          <label>
            Value
            <input
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={value}
              disabled={busy || key !== ""}
              onChange={(e) => setValue(e.target.value)}
            />
          </label>
          <label className="secret-check">
            <input
              type="checkbox"
              checked={remember}
              disabled={busy || key !== ""}
              onChange={(e) => setRemember(e.target.checked)}
            />
            Remember as a saved key
          </label>
          {keys.length > 0 && (
            <label>
              or use a saved key
              <select value={key} disabled={busy} onChange={(e) => setKey(e.target.value)}>
                <option value="">—</option>
                {keys.map((k) => (
                  <option key={k.name} value={k.name}>
                    {k.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {keysError !== undefined && (
            <p className="muted">The saved keys were not listed: {errorMessage(keysError)}</p>
          )}
          <div className="approval-actions">
            <button type="submit" className="primary" disabled={busy}>
              Save
            </button>
            <button type="button" disabled={busy} onClick={() => send(DECLINE)}>
              Decline
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

export function InputRequestCard({ requestId }: { requestId: string }) {
  const answered = useAnswered<InputRequest, InputAnswer, InputRequest>(
    `/input-requests/${encodeURIComponent(requestId)}`,
    "the input request",
    (reply) => reply,
    false,
  );
  const request = answered.item;
  const keys = useApi<{ keys: SavedKey[] }>(request?.state === "pending" ? "/keys" : null);
  if (!request) return answered.placeholder;
  return (
    <InputRequestView
      request={request}
      keys={keys.data?.keys ?? []}
      keysError={keys.error}
      busy={answered.busy}
      error={answered.error}
      onAnswer={answered.send}
    />
  );
}

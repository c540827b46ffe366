/**
 * Fork: a new session that starts from this one's conversation (its engine resumes a copy of
 * it), told what to do next. Offered where the engine can fork (`canFork` on `GET /engines`) and
 * the session has a conversation to copy.
 */
import { useState, type FormEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import type { Session } from "../../shared/api/types.generated";
import { navigate, sessionPath } from "../../shared/router";
import { Dialog } from "../../shared/ui/Dialog";
import { FormActions } from "../../shared/ui/FormActions";
import { spawnSession } from "./api";
import { sessionTitle } from "./lifecycle";

export function ForkDialog({ session, onClose }: { session: Session; onClose: () => void }) {
  const [prompt, setPrompt] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!prompt.trim()) return;
    setBusy(true);
    setError(undefined);
    spawnSession({ prompt: prompt.trim(), forkFrom: session.id, title: `${sessionTitle(session)} (fork)` }).then(
      (started) => {
        onClose();
        navigate(sessionPath(started.id));
      },
      (e: unknown) => {
        setBusy(false);
        setError(errorMessage(e));
      },
    );
  };
  return (
    <Dialog title="Fork this session" onClose={onClose}>
      <form className="fork-form" onSubmit={submit}>
        <p className="muted">
          The new session starts with everything this one said and did, and goes on from your message. This session is
          left as it is.
        </p>
        <label>
          What should the fork do?
          <textarea rows={4} value={prompt} autoFocus onChange={(e) => setPrompt(e.target.value)} />
        </label>
        <FormActions
          submitLabel="Start the fork"
          onCancel={onClose}
          busy={busy}
          disabled={!prompt.trim()}
          error={error}
        />
      </form>
    </Dialog>
  );
}

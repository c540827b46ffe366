/**
 * The session page's title, and renaming it: Rename (or a click on the title) edits it in place,
 * Enter saves it as the user's own title (the utility model never replaces it), Escape cancels, and
 * saving it empty clears it so the session is named again. The new title arrives as a `session`
 * event, like any change.
 */
import { useState, type FormEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import type { Session } from "../../shared/api/types.generated";
import { renameSession } from "./api";
import { sessionTitle } from "./lifecycle";

export function SessionTitle({ session }: { session: Session }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (draft === null) {
    return (
      <>
        <h1 title={session.titleSource === "ai" ? "Named by the utility model" : undefined}>{sessionTitle(session)}</h1>
        <button
          type="button"
          className="rename-button"
          onClick={() => {
            setError(null);
            setDraft(session.title ?? "");
          }}
        >
          Rename
        </button>
      </>
    );
  }
  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    renameSession(session.id, draft.trim() || null).then(
      () => {
        setDraft(null);
        setSaving(false);
      },
      (e: unknown) => {
        setError(errorMessage(e));
        setSaving(false);
      },
    );
  };
  return (
    <form className="rename-form" onSubmit={save}>
      <input
        aria-label="Session title"
        value={draft}
        autoFocus
        maxLength={200}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") setDraft(null);
        }}
      />
      <button type="button" onClick={() => setDraft(null)}>
        Cancel
      </button>
      <button type="submit" disabled={saving}>
        Save
      </button>
      {error && (
        <span role="alert" className="error-text">
          {error}
        </span>
      )}
    </form>
  );
}

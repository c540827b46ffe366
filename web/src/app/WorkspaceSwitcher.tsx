/** The sidebar's workspace picker, with a form to make a new workspace. */
import { useState } from "react";
import { useToast } from "../shared/ui/toasts";
import { useWorkspaces } from "../shared/workspaces";

const NEW = "__new__";

export function WorkspaceSwitcher() {
  const { workspaces, current, select } = useWorkspaces();
  const [creating, setCreating] = useState(false);
  if (!workspaces) return null;
  // The form stands in the sidebar of every page while there is no workspace: it takes the
  // focus only when the user asked for it, never from what they are typing in on the page.
  if (creating || workspaces.length === 0)
    return <NewWorkspaceForm focus={creating} onDone={workspaces.length ? () => setCreating(false) : undefined} />;
  return (
    <label className="workspace-switcher">
      <span className="muted">Workspace</span>
      <select
        aria-label="Workspace"
        value={current?.id ?? ""}
        onChange={(e) => (e.target.value === NEW ? setCreating(true) : select(e.target.value))}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
        <option value={NEW}>+ New workspace…</option>
      </select>
    </label>
  );
}

/** `focus`: the field takes the focus as it opens (the user asked for the form). */
export function NewWorkspaceForm({ onDone, focus = false }: { onDone?: () => void; focus?: boolean }) {
  const { create } = useWorkspaces();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  return (
    <form
      className="workspace-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!name.trim()) return;
        setBusy(true);
        try {
          await create(name.trim());
          onDone?.();
        } catch (error) {
          toast.error(error, "The workspace was not created");
        } finally {
          setBusy(false);
        }
      }}
    >
      <input
        aria-label="New workspace name"
        placeholder="New workspace name"
        autoFocus={focus}
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      {onDone && (
        <button type="button" className="link-button" onClick={onDone}>
          Cancel
        </button>
      )}
      <button type="submit" disabled={busy || !name.trim()}>
        Create
      </button>
    </form>
  );
}

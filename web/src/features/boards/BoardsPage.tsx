/** `/`: the current workspace's boards, and a form to make one. */
import { useState } from "react";
import { Link, navigate } from "../../shared/router";
import { useWorkspaces } from "../../shared/workspaces";
import { useApi } from "../../shared/hooks/useApi";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { createBoard } from "./api";
import type { Board } from "./types";
import type { SetupPreset } from "../../shared/api/types.generated";

/** The templates the form offers: some of the server's setup presets, and "" for an empty board. */
const PRESETS: readonly { value: SetupPreset | ""; label: string }[] = [
  { value: "tasks", label: "Team tasks" },
  { value: "projects", label: "Projects" },
  { value: "operations", label: "Operations" },
  { value: "", label: "Empty board" },
];

export function BoardsPage() {
  const { current } = useWorkspaces();
  const boards = useApi<Board[]>(current ? `/boards?workspaceId=${encodeURIComponent(current.id)}` : null);

  if (!current) return null;
  return (
    <section className="page touch">
      <PageHeader title="Boards" note={<span className="muted">{current.name}</span>} />
      <NewBoardForm workspaceId={current.id} />
      {boards.error !== undefined && <ErrorNote error={boards.error} onRetry={boards.reload} />}
      {boards.loading && <Loading what="boards" />}
      {boards.data?.length === 0 && (
        <EmptyState>No boards in this workspace yet: name one above and choose a template.</EmptyState>
      )}
      <ul className="card-list">
        {boards.data?.map((b) => (
          <li key={b.id}>
            <Link to={`/boards/${encodeURIComponent(b.id)}`} className="card">
              <strong>{b.name}</strong>
              <span className="muted">
                {b.columns.length} columns · {b.groups.length} groups
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function NewBoardForm({ workspaceId }: { workspaceId: string }) {
  const [name, setName] = useState("");
  const [preset, setPreset] = useState<SetupPreset | "">("tasks");
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  return (
    <form
      className="inline-form"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!name.trim()) return;
        setBusy(true);
        try {
          const board = await createBoard(workspaceId, name.trim(), preset || undefined);
          navigate(`/boards/${encodeURIComponent(board.id)}`);
        } catch (error) {
          toast.error(error, "The board was not created");
          setBusy(false);
        }
      }}
    >
      <input
        aria-label="New board name"
        placeholder="New board name"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <select
        aria-label="Template"
        value={preset}
        onChange={(e) => setPreset(PRESETS.find((p) => p.value === e.target.value)?.value ?? "")}
      >
        {PRESETS.map((p) => (
          <option key={p.value} value={p.value}>
            {p.label}
          </option>
        ))}
      </select>
      <button type="submit" disabled={busy || !name.trim()}>
        Create board
      </button>
    </form>
  );
}

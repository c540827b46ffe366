/**
 * `/`: the current workspace's boards, a form to make one, and (while `sheetsEnabled` is on) one
 * to make a board of a sheet on a drive (`POST /boards/import-sheet`).
 */
import { useState } from "react";
import { apiFetch } from "../../shared/api/client";
import { Link, navigate } from "../../shared/router";
import { useSettingValues } from "../../shared/settings";
import { useWorkspaces } from "../../shared/workspaces";
import { useApi } from "../../shared/hooks/useApi";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useToast } from "../../shared/ui/toasts";
import { createBoard } from "./api";
import type { Board } from "./types";
import type { BoardSheetImported, SetupPreset } from "../../shared/api/types.generated";
import { parseColumns } from "./sheetImport";

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
  const sheetsOn = useSettingValues()?.sheetsEnabled === true;

  if (!current) return null;
  return (
    <section className="page touch">
      <PageHeader title="Boards" note={<span className="muted">{current.name}</span>} />
      <NewBoardForm workspaceId={current.id} />
      {sheetsOn && <SheetImportForm workspaceId={current.id} />}
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

/** A sheet on a drive made a new board: its name column and `B:number, C:status` mappings. */
function SheetImportForm({ workspaceId }: { workspaceId: string }) {
  const [driveId, setDriveId] = useState("main");
  const [path, setPath] = useState("");
  const [sheet, setSheet] = useState("Sheet1");
  const [name, setName] = useState("");
  const [nameColumn, setNameColumn] = useState("A");
  const [columns, setColumns] = useState("");
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const parsed = parseColumns(columns);
  const nameIndex = parseColumns(`${nameColumn}:text`);
  const problem = "problem" in parsed ? parsed.problem : "problem" in nameIndex ? nameIndex.problem : null;
  return (
    <details className="sheet-import">
      <summary>Import a sheet</summary>
      <form
        className="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (problem || !("columns" in parsed) || !("columns" in nameIndex)) return;
          setBusy(true);
          try {
            const made = await apiFetch<BoardSheetImported>("/boards/import-sheet", {
              method: "POST",
              body: {
                driveId,
                path,
                sheet,
                workspaceId,
                name: name.trim(),
                nameColumn: nameIndex.columns[0]?.column ?? 0,
                columns: parsed.columns,
              },
            });
            if (made.skipped.length > 0) toast.info(`${made.skipped.length} cells were skipped: ${made.skipped[0]}…`);
            navigate(`/boards/${encodeURIComponent(made.boardId)}`);
          } catch (error) {
            toast.error(error, "The sheet was not imported");
            setBusy(false);
          }
        }}
      >
        <select aria-label="Drive" value={driveId} onChange={(e) => setDriveId(e.target.value)}>
          <option value="main">Drive</option>
          <option value="filesync-a">File sync A</option>
          <option value="filesync-b">File sync B</option>
        </select>
        <input
          aria-label="File"
          placeholder="/Plans/launch.xlsx"
          value={path}
          onChange={(e) => setPath(e.target.value)}
        />
        <input aria-label="Sheet" value={sheet} onChange={(e) => setSheet(e.target.value)} />
        <input
          aria-label="Board name"
          placeholder="Board name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <input aria-label="Name column" value={nameColumn} size={3} onChange={(e) => setNameColumn(e.target.value)} />
        <input
          aria-label="Columns"
          placeholder="B:number, C:status"
          value={columns}
          onChange={(e) => setColumns(e.target.value)}
        />
        <button type="submit" disabled={busy || problem !== null || !path.trim() || !name.trim()}>
          Import
        </button>
        {problem && <span className="muted">{problem}</span>}
      </form>
    </details>
  );
}

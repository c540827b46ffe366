/**
 * What an isolated session changed in its worktree against the commit it started from
 * (`GET /sessions/<id>/changes`), read again when a turn ends; a file's diff
 * (`/changes/file`) opens on a click. A session whose worktree archiving removed says so.
 */
import { useEffect, useRef, useState } from "react";
import { ApiError } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import type { ChangedFile, ChangedFileDiff, Session, SessionChanges } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { CHANGES_FRAGMENT, useHash } from "../../shared/router";
import { diffLineKind } from "./changes";
import { EmptyState } from "../../shared/ui/EmptyState";

const STATUS_MARK: Record<ChangedFile["status"], string> = { added: "A", modified: "M", deleted: "D", renamed: "R" };

export function ChangedFiles({ session }: { session: Session }) {
  const changes = useApi<SessionChanges>(
    session.worktree ? `/sessions/${encodeURIComponent(session.id)}/changes` : null,
  );
  const { data, error, reload } = changes;
  const [open, setOpen] = useState<string | null>(null);
  // Read again when a turn ends or the status moves (a turn may have changed files); output
  // within a turn does not ask again.
  const seen = useRef(`${session.turns}/${session.status}`);
  useEffect(() => {
    const now = `${session.turns}/${session.status}`;
    if (seen.current === now) return;
    seen.current = now;
    reload();
  }, [session.turns, session.status, reload]);
  // Opened from elsewhere (the Work page's Diff) at `#changes`: brought into view once, when the
  // list has arrived and the page above it is drawn.
  const hash = useHash();
  const panel = useRef<HTMLDetailsElement>(null);
  const arrived = data !== undefined;
  useEffect(() => {
    if (hash === CHANGES_FRAGMENT && arrived) panel.current?.scrollIntoView({ block: "start" });
  }, [hash, arrived]);
  if (!session.worktree) return null;
  if (error instanceof ApiError && error.code === "worktree_removed") {
    return <p className="muted changed-files">The worktree was removed when the session was archived.</p>;
  }
  return (
    <details className="changed-files" id={CHANGES_FRAGMENT} ref={panel} open>
      <summary>
        Changed files {data ? `(${data.files.length})` : ""}{" "}
        <span className="muted">
          against <code>{session.worktree.base.slice(0, 8)}</code> on <code>{session.worktree.branch}</code>
        </span>
      </summary>
      {error !== undefined && <p className="inline-error">{errorMessage(error)}</p>}
      {data?.files.length === 0 && <EmptyState>No changes yet.</EmptyState>}
      <ul className="changed-list" aria-label="Changed files">
        {data?.files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              className="link-button changed-file"
              aria-expanded={open === file.path}
              onClick={() => setOpen(open === file.path ? null : file.path)}
            >
              <span className={`change-mark change-${file.status}`} title={file.status}>
                {STATUS_MARK[file.status]}
              </span>{" "}
              {file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}{" "}
              {file.binary ? (
                <span className="muted">binary</span>
              ) : (
                <span className="muted">
                  <span className="diff-added-count">+{file.additions}</span>{" "}
                  <span className="diff-deleted-count">−{file.deletions}</span>
                </span>
              )}
            </button>
            {open === file.path && <FileDiff sessionId={session.id} path={file.path} />}
          </li>
        ))}
      </ul>
    </details>
  );
}

function FileDiff({ sessionId, path }: { sessionId: string; path: string }) {
  const { data, error } = useApi<ChangedFileDiff>(
    `/sessions/${encodeURIComponent(sessionId)}/changes/file?path=${encodeURIComponent(path)}`,
  );
  if (error !== undefined) return <p className="inline-error">{errorMessage(error)}</p>;
  if (!data) return <p className="muted">Loading the diff…</p>;
  return (
    <>
      <pre className="code-block file-diff" aria-label={`Diff of ${path}`}>
        {data.diff.split("\n").map((line, i) => (
          <span key={i} className={`diff-line diff-${diffLineKind(line)}`}>
            {line}
            {"\n"}
          </span>
        ))}
      </pre>
      {data.truncated && <p className="muted">The diff is longer than 1 MiB; what is shown stops there.</p>}
    </>
  );
}

/**
 * The session page's header: what the session is (status, engine, folder, branch), what it has
 * spent against its ceilings, where it sits in its tree, and Stop (the whole tree, after a
 * confirmation) and Archive.
 */
import { useState } from "react";
import type { Session } from "../../shared/api/types.generated";
import { Link, sessionPath } from "../../shared/router";
import { useToast } from "../../shared/ui/toasts";
import { archiveSession, stopSession } from "./api";
import { costGauge, dollars, turnsGauge } from "./ceilings";
import { ConfirmDialog } from "./Dialog";
import { Gauge } from "./Gauge";

const ACTIVE = new Set<Session["status"]>(["queued", "starting", "running", "waiting_for_input"]);

/** Active and not archived: it takes follow-ups and can be stopped. */
export const isOpen = (session: Session) => ACTIVE.has(session.status) && !session.archived;

const count = (n: number) => n.toLocaleString();

export function SessionHeader({ session }: { session: Session }) {
  const toast = useToast();
  const [confirmStop, setConfirmStop] = useState(false);
  const cost = costGauge(session);
  const stop = () => {
    setConfirmStop(false);
    stopSession(session.id).catch((e: unknown) => toast.error(e, "The session was not stopped"));
  };
  const archive = () =>
    archiveSession(session.id).catch((e: unknown) => toast.error(e, "The session was not archived"));

  return (
    <header className="session-header">
      <div className="session-title-row">
        <h1>{session.title || `Session ${session.id.slice(-8)}`}</h1>
        <span className={`tag status-${session.status}`} data-testid="session-status">
          {session.status.replaceAll("_", " ")}
        </span>
        {session.archived && <span className="tag">archived</span>}
        {session.agentDriven && <span className="muted">agent-driven</span>}
        <span className="session-actions">
          {isOpen(session) && (
            <button type="button" onClick={() => setConfirmStop(true)}>
              Stop
            </button>
          )}
          {!session.archived && (
            <button type="button" onClick={archive}>
              Archive
            </button>
          )}
        </span>
      </div>
      {session.activity && isOpen(session) && (
        <div className="muted session-activity">
          {session.activity.kind}: {session.activity.text}
        </div>
      )}
      {session.error && <div className="inline-error">{session.error}</div>}
      <dl className="session-facts">
        <dt>Engine</dt>
        <dd>
          {session.engine} <span className="muted">({session.engineKind})</span>
        </dd>
        <dt>Folder</dt>
        <dd>
          <code>{session.worktree?.path ?? session.cwd}</code>
        </dd>
        {session.worktree && (
          <>
            <dt>Branch</dt>
            <dd>
              <code>{session.worktree.branch}</code>{" "}
              <span className="muted">
                from <code>{session.worktree.repository}</code>
              </span>
            </dd>
          </>
        )}
        <dt>Turns</dt>
        <dd>
          <Gauge name="Turns" gauge={turnsGauge(session)} />
        </dd>
        {cost && (
          <>
            <dt>Cost</dt>
            <dd>
              <Gauge name="Cost" gauge={cost} />
              {session.children.length > 0 && session.treeCostUsd !== null && (
                <span className="muted"> · with its sessions {dollars(session.treeCostUsd)}</span>
              )}
            </dd>
          </>
        )}
        <dt>Tokens</dt>
        <dd>
          {count(session.tokens.input)} in <span className="muted">({count(session.tokens.cachedInput)} cached)</span> ·{" "}
          {count(session.tokens.output)} out
        </dd>
        {session.parentId && (
          <>
            <dt>Started by</dt>
            <dd>
              <Link to={sessionPath(session.parentId)}>{session.parentId}</Link>
            </dd>
          </>
        )}
        {session.children.length > 0 && (
          <>
            <dt>Started</dt>
            <dd className="session-children">
              {session.children.map((child) => (
                <Link key={child} to={sessionPath(child)}>
                  {child}
                </Link>
              ))}
            </dd>
          </>
        )}
      </dl>
      {confirmStop && (
        <ConfirmDialog
          title="Stop this session?"
          confirmLabel="Stop"
          onConfirm={stop}
          onClose={() => setConfirmStop(false)}
        >
          <p>
            This ends the session&apos;s process
            {session.children.length > 0 ? " and every session it started, with their processes" : " tree"}. It takes no
            more messages afterwards.
          </p>
        </ConfirmDialog>
      )}
    </header>
  );
}

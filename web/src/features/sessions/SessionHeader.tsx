/**
 * The session page's header: what the session is (status, why it is not working or how it failed
 * in plain words with the stored code on hover, engine, the runner it is on when not this
 * machine, folder, branch), what it has spent and used (CPU, memory, processes, disk, where the
 * machine reports them), where it sits in its tree, and Stop (the whole tree, after a
 * confirmation), Pause, Resume, Archive, Retry and Fork.
 */
import { useEffect, useState } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import type { EngineInfo, Session } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { useToast } from "../../shared/ui/toasts";
import { archiveSession, governorChecks, pauseSession, resumeSession, stopSession } from "./api";
import { resourceUse } from "./resourceUse";
import { costOf, dollars } from "./spend";
import { ConfirmDialog } from "../../shared/ui/Dialog";
import { describeStop, isWorking, revivesToday, sessionActions } from "./lifecycle";
import { ForkDialog } from "./ForkDialog";
import { SessionLink } from "./SessionLink";
import { SessionTitle } from "./SessionTitle";
import { runnerLabel } from "./runnerChoice";
import { useRetry } from "./useRetry";
import { useNow } from "../../shared/useNow";
import { activityWords, engineKindWords, plainMessage, sessionStatusWords } from "../../shared/humanize";
import { Coded } from "../../shared/ui/Coded";
import { Pill } from "../../shared/ui/Pill";
import { relativeTime } from "../../shared/time";

const count = (n: number) => n.toLocaleString();

/**
 * The governor's revives of this session today, read again when the session leaves or enters
 * `interrupted` (a revive takes it out), not at every turn. A failed read shows nothing: it is a
 * detail, not the page.
 */
function useRevivesToday(id: string, interrupted: boolean): number | undefined {
  const [count, setCount] = useState<number | undefined>(undefined);
  useEffect(() => {
    let live = true;
    governorChecks().then(
      ({ revivesToday }) => live && setCount(revivesToday[id]),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [id, interrupted]);
  return count;
}

export function SessionHeader({ session }: { session: Session }) {
  const toast = useToast();
  const now = useNow();
  const [confirmStop, setConfirmStop] = useState(false);
  // Pause and Resume are answered beside their buttons: a 409 (it ended meanwhile) is about this
  // page's session, not news for a toast. The session itself arrives as a `session` event.
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const cost = costOf(session);
  const used = resourceUse(session.resources);
  const retry = useRetry();
  const [forking, setForking] = useState(false);
  const engines = useApi<EngineInfo[]>("/engines");
  const canFork =
    session.engineSessionId !== null &&
    !isWorking(session) &&
    engines.data?.some((e) => e.name === session.engine && e.canFork) === true;
  const actions = sessionActions(session);
  const stopWords = describeStop(session, (iso) => relativeTime(iso, now));
  const error = session.error ? plainMessage(session.error) : null;
  const runner = runnerLabel(session);
  const revived = revivesToday(useRevivesToday(session.id, session.status === "interrupted"));
  const stop = () => {
    setConfirmStop(false);
    stopSession(session.id).catch((e: unknown) => toast.error(e, "The session was not stopped"));
  };
  const archive = () =>
    archiveSession(session.id).catch((e: unknown) => toast.error(e, "The session was not archived"));
  const act = (call: (id: string) => Promise<Session>) => {
    setBusy(true);
    setActionError(null);
    call(session.id)
      .catch((e: unknown) => setActionError(errorMessage(e)))
      .finally(() => setBusy(false));
  };

  return (
    <header className="session-header">
      <div className="page-head session-title-row">
        <SessionTitle session={session} />
        <span data-testid="session-status" title={`Status: ${session.status}`}>
          <Pill status={sessionStatusWords(session)} />
        </span>
        {session.archived && <Pill status="archived" />}
        {stopWords && (
          <Coded raw={session.stopReason && `Stop reason: ${session.stopReason}`} className="muted">
            <span data-testid="session-stop-reason">{stopWords}</span>
          </Coded>
        )}
        {revived && (
          <span className="muted" data-testid="session-revives">
            {revived}
          </span>
        )}
        {session.agentDriven && <span className="muted">agent-driven</span>}
        <span className="session-actions">
          {actions.stop && (
            <button type="button" onClick={() => setConfirmStop(true)}>
              Stop
            </button>
          )}
          {actions.pause && (
            <button type="button" disabled={busy} onClick={() => act(pauseSession)}>
              Pause
            </button>
          )}
          {actions.resume && (
            <button type="button" disabled={busy} onClick={() => act(resumeSession)}>
              Resume
            </button>
          )}
          {actions.archive && (
            <button type="button" onClick={archive}>
              Archive
            </button>
          )}
          {actions.retry && (
            <button type="button" title="Start a new session with the same prompt" onClick={() => retry(session)}>
              Retry
            </button>
          )}
          {canFork && (
            <button
              type="button"
              title="Start a new session that goes on from this one's conversation"
              onClick={() => setForking(true)}
            >
              Fork
            </button>
          )}
        </span>
      </div>
      {session.activity && isWorking(session) && (
        <div className="muted session-activity">
          {activityWords(session.activity.kind)}: {session.activity.text}
        </div>
      )}
      {actionError && (
        <div className="inline-error" role="alert">
          {actionError}
        </div>
      )}
      {error && (
        <div className="inline-error" data-testid="session-error">
          <Coded raw={error.raw}>{error.words}</Coded>
        </div>
      )}
      <dl className="session-facts">
        <dt>Engine</dt>
        <dd>
          {session.engine}{" "}
          <Coded raw={`Engine kind: ${session.engineKind}`} className="muted">
            ({engineKindWords(session.engineKind)}
            {session.engineVersion ? ` ${session.engineVersion}` : ""})
          </Coded>
        </dd>
        {runner && (
          <>
            <dt>Runs on</dt>
            <dd>
              <span data-testid="session-runner">
                <Pill className="runner-tag">{runner}</Pill>
              </span>
            </dd>
          </>
        )}
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
        <dd>{session.turns}</dd>
        {cost && (
          <>
            <dt>Cost</dt>
            <dd>
              {cost}
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
        {used && (
          <>
            <dt>Resources</dt>
            <dd
              className="session-resources"
              data-testid="session-resources"
              title="From the session's cgroup: CPU time over its life, its highest memory, the processes in it now, and the bytes it read and wrote"
            >
              <span>{used.cpu}</span> · <span>{used.memory}</span> · <span>{used.processes}</span> ·{" "}
              <span>{used.disk}</span>
            </dd>
          </>
        )}
        {session.parentId && (
          <>
            <dt>Started by</dt>
            <dd>
              <SessionLink id={session.parentId} />
            </dd>
          </>
        )}
        {session.children.length > 0 && (
          <>
            <dt>Started</dt>
            <dd className="session-children">
              {session.children.map((child) => (
                <SessionLink key={child} id={child} />
              ))}
            </dd>
          </>
        )}
      </dl>
      {forking && <ForkDialog session={session} onClose={() => setForking(false)} />}
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

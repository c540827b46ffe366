/**
 * "Where's my work" (`/work`, docs/work.md): every branch sessions worked on and what became of it,
 * grouped by state with what would be lost first. Counts per state filter the list, as do a
 * repository and free text. Each piece offers the actions the server allows for it now; a refused
 * one says why beside the piece, and every action reads the list again after. A piece shows its pull
 * request as the code host last said, and what reviewers found in it.
 */
import { PageHeader } from "../../shared/ui/PageHeader";
import { useState, type FormEvent, type SyntheticEvent } from "react";
import { errorMessage } from "../../shared/api/errorMessage";
import type { WorkAction, WorkEntry, WorkState } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { isExternal, Link, navigate, sessionChangesPath, sessionPath } from "../../shared/router";
import { exactTime, relativeTime } from "../../shared/time";
import { ConfirmDialog, Dialog } from "../../shared/ui/Dialog";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useNow } from "../../shared/useNow";
import { WORK_PATH, type WorkList } from "../../shared/work/api";
import { ReviewFindings } from "../../shared/work/ReviewFindings";
import {
  continueWork,
  discardWork,
  mergeReady,
  pruneWork,
  pullRequestLink,
  pushWork,
  type PullRequestLink,
} from "./api";
import {
  ACTION_LABEL,
  comparedWith,
  countByState,
  discardConfirmed,
  filterWork,
  groupWork,
  landingText,
  matchingWork,
  NO_FILTER,
  pullRequestHint,
  pullRequestLabel,
  readyToMerge,
  reasonText,
  runnerText,
  repositoryOptions,
  shortRepository,
  sinceText,
  STATE_LABEL,
  STATE_ORDER,
  workSummary,
  workTitle,
  type WorkFilter,
} from "./work";
import "./work.css";
import { Pill } from "../../shared/ui/Pill";
import { EmptyState } from "../../shared/ui/EmptyState";

const EMPTY = "No agent work yet: sessions' worktree branches and the commits they make show up here.";

/** The actions drawn as buttons: Open and Diff are links to the session's page, as everywhere else. */
type ButtonAction = Exclude<WorkAction, "open" | "diff">;

/** What an action left on its piece of work: running, refused, or the pull request it opened or found a page for. */
interface Outcome {
  running?: ButtonAction;
  error?: unknown;
  pullRequest?: PullRequestLink;
}

/** The actions that ask first. */
type Asking = { kind: "continue" | "prune" | "discard"; entry: WorkEntry };

export function WorkPage() {
  const listed = useApi<WorkList>(WORK_PATH);
  const now = useNow();
  const [filter, setFilter] = useState<WorkFilter>(NO_FILTER);
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, Outcome>>(new Map());
  const [asking, setAsking] = useState<Asking | null>(null);

  const entries = listed.data?.work;
  const matching = entries ? matchingWork(entries, filter) : [];
  const counts = countByState(matching);
  const groups = entries ? groupWork(filterWork(entries, filter)) : [];
  const repositories = entries ? repositoryOptions(entries) : [];
  const ready = entries ? readyToMerge(entries, filter.repository) : [];
  const [merging, setMerging] = useState<{ running: boolean; error?: unknown }>({ running: false });

  const merge = async (repository: string) => {
    setMerging({ running: true });
    try {
      const { session } = await mergeReady(repository);
      navigate(sessionPath(session.id));
    } catch (error: unknown) {
      setMerging({ running: false, error });
      listed.reload();
    }
  };

  const settle = (id: string, outcome: Outcome) => setOutcomes((all) => new Map(all).set(id, outcome));

  /** Runs one action on one piece; whatever it answers, the list is read again, as git decides the state. */
  const run = async (entry: WorkEntry, action: ButtonAction, call: () => Promise<Outcome | void>) => {
    settle(entry.id, { running: action });
    try {
      settle(entry.id, (await call()) ?? {});
    } catch (error: unknown) {
      settle(entry.id, { error });
    }
    listed.reload();
  };

  const start = (entry: WorkEntry, action: ButtonAction) => {
    switch (action) {
      case "continue":
      case "prune":
      case "discard":
        setAsking({ kind: action, entry });
        return;
      case "push":
        void run(entry, action, async () => {
          await pushWork(entry.id);
        });
        return;
      case "pull-request":
        void run(entry, action, async () => {
          const link = await pullRequestLink(entry.id);
          // An opened pull request is there already: the card links to it rather than leaving the page.
          // A browser may block a tab opened this long after the click: the card keeps the link.
          if (!link.opened && isExternal(link.url)) navigate(link.url);
          return { pullRequest: link };
        });
        return;
    }
  };

  const continueWith = async (entry: WorkEntry, prompt: string) => {
    settle(entry.id, { running: "continue" });
    try {
      const { session } = await continueWork(entry.id, prompt);
      navigate(sessionPath(session.id));
    } catch (error: unknown) {
      settle(entry.id, { error });
      listed.reload();
    }
  };

  const toggleState = (state: WorkState) => setFilter({ ...filter, state: filter.state === state ? null : state });

  return (
    <section className="page work-page touch">
      <PageHeader
        title="Where's my work"
        tabTitle="Work"
        actions={
          <button
            type="button"
            onClick={listed.reload}
            disabled={listed.loading}
            aria-busy={listed.loading || undefined}
          >
            Refresh
          </button>
        }
      />
      <div className="work-counts" role="group" aria-label="Filter by state">
        <button
          type="button"
          aria-pressed={filter.state === null}
          onClick={() => setFilter({ ...filter, state: null })}
        >
          All <span className="work-count">{matching.length}</span>
        </button>
        {STATE_ORDER.map((state) => (
          <button
            key={state}
            type="button"
            className={`work-count-button work-state-${state}`}
            aria-pressed={filter.state === state}
            onClick={() => toggleState(state)}
          >
            {STATE_LABEL[state]} <span className="work-count">{counts[state]}</span>
          </button>
        ))}
      </div>
      <div className="work-filters" role="group" aria-label="Filters">
        <input
          type="search"
          className="work-search"
          aria-label="Search work"
          placeholder="Search title, branch, repository, last commit"
          value={filter.text}
          onChange={(e) => setFilter({ ...filter, text: e.target.value })}
        />
        <label className="work-repository">
          Repository{" "}
          <select
            value={filter.repository ?? ""}
            onChange={(e) => setFilter({ ...filter, repository: e.target.value === "" ? null : e.target.value })}
          >
            <option value="">All repositories</option>
            {repositories.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        {filter.repository !== null && ready.length > 0 && (
          <button
            type="button"
            disabled={merging.running}
            aria-busy={merging.running || undefined}
            onClick={() => filter.repository !== null && void merge(filter.repository)}
          >
            Merge {ready.length} ready branch{ready.length === 1 ? "" : "es"}
          </button>
        )}
      </div>
      {merging.error !== undefined && <ErrorNote error={merging.error} />}
      {listed.error !== undefined && <ErrorNote error={listed.error} onRetry={listed.reload} />}
      {!entries && listed.error === undefined && <Loading what="your agents' work" />}
      {entries?.length === 0 && <EmptyState>{EMPTY}</EmptyState>}
      {entries && entries.length > 0 && groups.length === 0 && <EmptyState>No work matches these filters.</EmptyState>}
      {groups.map((group) => (
        <section key={group.state} className="work-group" aria-labelledby={`work-group-${group.state}`}>
          <h2 id={`work-group-${group.state}`}>
            {STATE_LABEL[group.state]} <span className="muted">({group.entries.length})</span>
          </h2>
          <ul className="work-list" aria-label={STATE_LABEL[group.state]}>
            {group.entries.map((entry) => (
              <WorkCard
                key={entry.id}
                entry={entry}
                now={now}
                outcome={outcomes.get(entry.id) ?? {}}
                onAction={(action) => start(entry, action)}
              />
            ))}
          </ul>
        </section>
      ))}
      {asking?.kind === "continue" && (
        <ContinueDialog
          entry={asking.entry}
          onClose={() => setAsking(null)}
          onContinue={(prompt) => {
            setAsking(null);
            void continueWith(asking.entry, prompt);
          }}
        />
      )}
      {asking?.kind === "prune" && (
        <ConfirmDialog
          title="Prune this work"
          confirmLabel="Prune"
          onClose={() => setAsking(null)}
          onConfirm={() => {
            const { entry } = asking;
            setAsking(null);
            void run(entry, "prune", () => pruneWork(entry.id));
          }}
        >
          <p>Remove the worktree and local branch of landed work?</p>
          <p className="muted">
            <code>{asking.entry.branch}</code> of {asking.entry.repository}: a branch pushed to a remote stays there.
          </p>
        </ConfirmDialog>
      )}
      {asking?.kind === "discard" && (
        <DiscardDialog
          entry={asking.entry}
          onClose={() => setAsking(null)}
          onDiscard={(branch) => {
            const { entry } = asking;
            setAsking(null);
            void run(entry, "discard", () => discardWork(entry.id, branch));
          }}
        />
      )}
    </section>
  );
}

function WorkCard({
  entry,
  now,
  outcome,
  onAction,
}: {
  entry: WorkEntry;
  now: number;
  outcome: Outcome;
  onAction: (action: ButtonAction) => void;
}) {
  const summary = workSummary(entry);
  const landing = landingText(entry);
  const reason = reasonText(entry);
  const onRunner = runnerText(entry, now);
  const title = workTitle(entry);
  const actions = entry.actions;
  return (
    <li className={`work-card work-state-${entry.state}`} data-work-id={entry.id}>
      <div className="work-head">
        <Pill status={entry.state} className="work-state">
          {STATE_LABEL[entry.state]}
        </Pill>
        <h3 className="work-title" title={title}>
          {title}
        </h3>
        {entry.pullRequest && (
          <span className="work-pr">
            <a
              href={entry.pullRequest.url}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={pullRequestLabel(entry.pullRequest, entry.codeHost)}
              title={pullRequestLabel(entry.pullRequest, entry.codeHost)}
            >
              #{entry.pullRequest.number}
            </a>
            <Pill status={entry.pullRequest.state} className="work-pr-state" />
          </span>
        )}
        <time
          className="muted work-since"
          dateTime={entry.since ?? undefined}
          title={entry.since ? exactTime(entry.since) : undefined}
        >
          {sinceText(entry.since, now)}
        </time>
      </div>
      <p className="muted work-where">
        {title !== entry.branch && (
          <>
            <code className="work-branch">{entry.branch}</code>
            {" · "}
          </>
        )}
        <span title={entry.repository}>{shortRepository(entry.repository)}</span>
        {onRunner !== null && (
          <>
            {" · "}
            <span className="work-runner">{onRunner}</span>
          </>
        )}
      </p>
      {(reason !== null || landing !== null) && (
        <p className="work-reason">
          {reason}
          {reason !== null && landing !== null && " · "}
          {landing}
        </p>
      )}
      {summary !== null && (
        <p className="work-summary" title={comparedWith(entry)}>
          {summary}
        </p>
      )}
      {entry.lastCommit ? (
        <p className="work-commit">
          <code title={entry.lastCommit.sha}>{entry.lastCommit.sha.slice(0, 7)}</code> {entry.lastCommit.subject}{" "}
          <time className="muted" dateTime={entry.lastCommit.at} title={exactTime(entry.lastCommit.at)}>
            {relativeTime(entry.lastCommit.at, now)}
          </time>
        </p>
      ) : (
        // Unknown work has no commit to read (its repository is gone), not "no commit".
        entry.state !== "unknown" && <p className="muted">No commit yet.</p>
      )}
      <ReviewFindings entry={entry} now={now} />
      {actions.length > 0 && (
        <div className="work-actions">
          {actions.map((action) =>
            action === "open" || action === "diff" ? (
              <Link
                key={action}
                className="work-open touch-link"
                to={action === "diff" ? sessionChangesPath(entry.sessionId) : sessionPath(entry.sessionId)}
              >
                {ACTION_LABEL[action]}
              </Link>
            ) : (
              <button
                key={action}
                type="button"
                className={action === "discard" ? "danger" : undefined}
                title={action === "pull-request" ? pullRequestHint(entry) : undefined}
                disabled={outcome.running !== undefined}
                aria-busy={outcome.running === action || undefined}
                onClick={() => onAction(action)}
              >
                {outcome.running === action ? `${ACTION_LABEL[action]}…` : ACTION_LABEL[action]}
              </button>
            ),
          )}
        </div>
      )}
      {outcome.error !== undefined && (
        <p className="inline-error" role="alert">
          {errorMessage(outcome.error)}
        </p>
      )}
      {outcome.pullRequest && (
        <p className="work-pull-request" role="status">
          {outcome.pullRequest.opened
            ? "Pull request opened: "
            : "The host's page to open a pull request, in a new tab: "}
          <a href={outcome.pullRequest.url} target="_blank" rel="noopener noreferrer">
            {outcome.pullRequest.url}
          </a>
        </p>
      )}
    </li>
  );
}

function ContinueDialog({
  entry,
  onClose,
  onContinue,
}: {
  entry: WorkEntry;
  onClose: () => void;
  onContinue: (prompt: string) => void;
}) {
  const [prompt, setPrompt] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onContinue(prompt);
  };
  return (
    <Dialog title="Continue this work" onClose={onClose}>
      <form className="work-dialog-form" onSubmit={submit}>
        <p>
          A follow-up session starts in <code>{entry.checkout ?? entry.repository}</code>, on the engine of its latest
          session.
        </p>
        <label>
          Prompt (optional)
          <textarea
            rows={4}
            value={prompt}
            autoFocus
            placeholder={`Without one, the session is asked to finish the work on ${entry.branch}.`}
            onChange={(e) => setPrompt(e.target.value)}
          />
        </label>
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit">Continue</button>
        </div>
      </form>
    </Dialog>
  );
}

function DiscardDialog({
  entry,
  onClose,
  onDiscard,
}: {
  entry: WorkEntry;
  onClose: () => void;
  onDiscard: (branch: string) => void;
}) {
  const [typed, setTyped] = useState("");
  const confirmed = discardConfirmed(typed, entry.branch);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (confirmed) onDiscard(typed);
  };
  return (
    <Dialog title="Discard this work" onClose={onClose}>
      <form className="work-dialog-form" onSubmit={submit}>
        <p>
          This removes the worktree, uncommitted changes and all, and the branch <code>{entry.branch}</code>. It cannot
          be undone. A branch pushed to a remote stays there.
        </p>
        <label>
          Type the branch name to confirm
          <input
            type="text"
            value={typed}
            autoFocus
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          {/* Not a submit button, which the shell draws in the accent colour: Enter in the field still submits. */}
          <button type="button" className="danger" disabled={!confirmed} onClick={submit}>
            Discard
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * Runners: where sessions run (docs/runners.md). This machine, `local`, and each host of
 * `DIR/runners.toml` with its state (and, when it is not connected, why, in full), its running
 * sessions against its limit, load, memory, engines, sandbox and helper version. "Check again"
 * has the server reach every host before answering; with nothing declared, the page says how to
 * declare a host and which setting lets sessions go there.
 */
import { PageHeader } from "../../shared/ui/PageHeader";
import { useEffect, useRef, useState } from "react";
import type { Runner } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { Link } from "../../shared/router";
import { RUNNERS_SETTING } from "../../shared/runnersSetting";
import { useSettings } from "../../shared/settings";
import { exactTime } from "../../shared/time";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { useNow } from "../../shared/useNow";
import "../../shared/ui/code.css";
import { checkRunners, RUNNERS_PATH } from "./api";
import {
  connectedSummary,
  KIND_LABEL,
  onlyLocal,
  reasonShown,
  runnerFacts,
  settingWords,
  sortRunners,
  STATE_LABEL,
  type Fact,
} from "./runners";
import "./runners.css";
import { EmptyState } from "../../shared/ui/EmptyState";
import { Pill } from "../../shared/ui/Pill";

export function RunnersPage() {
  const listed = useApi<Runner[]>(RUNNERS_PATH);
  const { values } = useSettings();
  const now = useNow();
  // "Check again" answers with the whole list, newer than the one read on opening.
  const [checked, setChecked] = useState<Runner[]>();
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<unknown>();
  const pending = useRef<AbortController | null>(null);
  useEffect(() => () => pending.current?.abort(), []);

  const check = () => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setChecking(true);
    setCheckError(undefined);
    checkRunners(controller.signal).then(
      (runners) => {
        setChecked(runners);
        setChecking(false);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setCheckError(error);
        setChecking(false);
      },
    );
  };

  const runners = checked ?? listed.data;
  const sorted = runners ? sortRunners(runners) : undefined;
  const summary = runners ? connectedSummary(runners) : null;
  const settingOn = values?.cloudControlPlaneEnabled;

  return (
    <section className="page runners-page touch">
      <PageHeader
        title="Runners"
        note={summary && <span className="muted">{summary}</span>}
        actions={
          <>
            <button type="button" onClick={check} disabled={checking} aria-busy={checking || undefined}>
              {checking ? "Checking…" : "Check again"}
            </button>
            <span role="status" className="muted">
              {checking && "Reaching every host again: one that does not answer takes up to 10 seconds."}
            </span>
          </>
        }
      />
      <p className="muted runners-intro">
        Where sessions run: this machine, and the hosts in <code>runners.toml</code> that Switchboard reaches with ssh.
      </p>
      {checkError !== undefined && <ErrorNote error={checkError} onRetry={check} />}
      {listed.error !== undefined && !runners && <ErrorNote error={listed.error} onRetry={listed.reload} />}
      {!runners && listed.error === undefined && <Loading what="runners" />}
      {runners && !onlyLocal(runners) && settingOn === false && (
        <p className="runners-off">
          <strong>{RUNNERS_SETTING.label}</strong> is off: Switchboard does not reach these hosts, and no session starts
          on them. Turn it on in <Link to={RUNNERS_SETTING.path}>Settings</Link>.
        </p>
      )}
      {sorted && (
        <ul className="runner-list" aria-label="Runners">
          {sorted.map((runner, i) => (
            <RunnerCard key={`${runner.kind}:${runner.name}:${i}`} runner={runner} now={now} />
          ))}
        </ul>
      )}
      {runners && onlyLocal(runners) && <HowToAdd settingOn={settingOn} />}
    </section>
  );
}

function RunnerCard({ runner, now }: { runner: Runner; now: number }) {
  const reason = reasonShown(runner);
  const facts = runnerFacts(runner, now);
  return (
    <li className="runner-card" data-runner={runner.name} data-state={runner.state}>
      <div className="runner-head">
        <h2 className="runner-name">{runner.name}</h2>
        <Pill>{KIND_LABEL[runner.kind]}</Pill>
        <span data-testid="runner-state">
          <Pill status={runner.state}>{STATE_LABEL[runner.state]}</Pill>
        </span>
      </div>
      {reason && <pre className="code-block runner-reason">{reason}</pre>}
      {facts.length > 0 && (
        <dl className="runner-facts">
          {facts.map((fact) => (
            <div key={fact.key} className="runner-fact">
              <dt>{fact.label}</dt>
              <FactValue fact={fact} lastSeen={runner.lastSeen} />
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

function FactValue({ fact, lastSeen }: { fact: Fact; lastSeen: string | null }) {
  if (fact.unknown) return <dd className="muted">{fact.values.join(", ")}</dd>;
  switch (fact.key) {
    case "engines":
      return (
        <dd>
          <ul className="runner-engines">
            {fact.values.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </dd>
      );
    case "labels":
      return (
        <dd className="runner-labels">
          {fact.values.map((label) => (
            <Pill key={label}>{label}</Pill>
          ))}
        </dd>
      );
    case "destination":
      return (
        <dd>
          <code>{fact.values[0]}</code>
        </dd>
      );
    case "lastSeen":
      return (
        <dd>
          <time dateTime={lastSeen ?? undefined} title={lastSeen ? exactTime(lastSeen) : undefined}>
            {fact.values[0]}
          </time>
        </dd>
      );
    default:
      return <dd>{fact.values.join(", ")}</dd>;
  }
}

const EXAMPLE = `[runners.devbox]
ssh = "alice@devbox.example"   # any destination ssh accepts; aliases too
max_sessions = 8               # optional: running sessions placed there
labels = ["gpu"]               # optional`;

/** Nothing but this machine: how to add a host. */
function HowToAdd({ settingOn }: { settingOn: boolean | undefined }) {
  return (
    <EmptyState className="runners-empty">
      <h2>Run sessions on another machine</h2>
      <p>
        Any Linux x86-64 host you can reach with <code>ssh</code> from this machine, without a prompt, can run sessions.
        Declare it in <code>runners.toml</code> in Switchboard&apos;s data directory (the folder{" "}
        <code>switchboard serve</code> keeps <code>switchboard.db</code> in):
      </p>
      <pre className="code-block">{EXAMPLE}</pre>
      <p>The file is read again each time the runners are listed: press Check again once it is saved.</p>
      <p>
        Sessions go to other machines only while the setting <strong>{RUNNERS_SETTING.label}</strong> (
        <code>{RUNNERS_SETTING.key}</code>) is on{settingWords(settingOn)}:{" "}
        <Link to={RUNNERS_SETTING.path}>open it in Settings</Link>. Then choose the host under &ldquo;Runs on&rdquo; in
        the New session dialog.
      </p>
    </EmptyState>
  );
}

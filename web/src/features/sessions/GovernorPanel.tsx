/**
 * The board's "Governor" panel: the fleet governor's last check (`GET /governor`), read again a
 * little after `session` events (the governor's revives arrive as those), and **Check now** for
 * the owner (`POST /governor/check`, refused to other accounts).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import type { Check } from "../../shared/api/types.generated";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { governorChecks, runGovernorCheck } from "./api";
import { refreshDelay, summarizeCheck } from "./governor";
import { localTime } from "./lifecycle";
import { useNow } from "../../shared/useNow";

interface Read {
  /** Undefined until the first read answers; null when there was no check yet. */
  check?: Check | null;
  error?: unknown;
}

/** The newest check, kept live at most every few seconds however many sessions change. */
function useLastCheck() {
  const [read, setRead] = useState<Read>({});
  const lastRead = useRef(0);
  const timer = useRef<number | undefined>(undefined);
  const mounted = useRef(true);

  const load = useCallback(() => {
    lastRead.current = Date.now();
    governorChecks().then(
      ({ checks }) => mounted.current && setRead({ check: checks[0] ?? null }),
      (error: unknown) => mounted.current && setRead((held) => ({ ...held, error })),
    );
  }, []);

  useEffect(() => {
    mounted.current = true;
    load();
    return () => {
      mounted.current = false;
      window.clearTimeout(timer.current);
    };
  }, [load]);

  useStreamEvent("session", () => {
    if (timer.current !== undefined) return;
    timer.current = window.setTimeout(
      () => {
        timer.current = undefined;
        load();
      },
      refreshDelay(lastRead.current, Date.now()),
    );
  });
  useStreamLifecycle("reset", load);

  // A check run from here is the newest there is: shown at once, not after the next read.
  const show = useCallback((check: Check) => setRead({ check }), []);
  return { ...read, show };
}

export function GovernorPanel() {
  const { check, error, show } = useLastCheck();
  const now = useNow();
  const [running, setRunning] = useState(false);
  const [note, setNote] = useState<{ text: string; quiet: boolean } | null>(null);

  const checkNow = () => {
    setRunning(true);
    setNote(null);
    runGovernorCheck()
      .then(show, (e: unknown) =>
        setNote(
          e instanceof ApiError && e.status === 403
            ? // Another account than the owner's: the server's reason, and that the governor
              // checks without being asked.
              { text: `${errorMessage(e)} The governor checks on its own every 5 minutes.`, quiet: true }
            : { text: errorMessage(e), quiet: false },
        ),
      )
      .finally(() => setRunning(false));
  };
  const summary = check ? summarizeCheck(check) : null;

  return (
    <section className="governor-panel" aria-label="Governor">
      <h2>Governor</h2>
      {error !== undefined && check === undefined && <p className="inline-error">{errorMessage(error)}</p>}
      {check === null && <p className="muted">No check yet.</p>}
      {check && summary && (
        <div className="governor-check" data-testid="governor-check">
          <span>
            Last check{" "}
            <time dateTime={check.at} title={new Date(check.at).toString()}>
              {localTime(check.at, now)}
            </time>
            : {summary.fleet}; {summary.outcome}.
          </span>
          {summary.skips.length > 0 && <span className="muted">Skipped: {summary.skips.join(" · ")}</span>}
          {summary.spent && <span className="muted">{summary.spent}</span>}
        </div>
      )}
      <button type="button" onClick={checkNow} disabled={running}>
        {running ? "Checking…" : "Check now"}
      </button>
      {note && (
        <p className={note.quiet ? "muted" : "inline-error"} role={note.quiet ? "status" : "alert"}>
          {note.text}
        </p>
      )}
    </section>
  );
}

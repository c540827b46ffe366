/**
 * The board's "Governor" line: the fleet governor's last check (`GET /governor`), read again a
 * little after `session` events (the governor's revives arrive as those), shown only when it has
 * something to report, with **Check now** for the owner (`POST /governor/check`, refused to other
 * accounts).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import type { Check } from "../../shared/api/types.generated";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { governorChecks, runGovernorCheck } from "./api";
import { governorLine, refreshDelay, summarizeCheck } from "./governor";
import { When } from "../../shared/ui/When";
import { useNow } from "../../shared/useNow";

interface Read {
  /** Undefined until the first read answers; null when there was no check yet. */
  check?: Check | null;
  /** Whether `check` is the answer to the person's own **Check now**: it is said even when idle. */
  asked?: boolean;
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
      // A read that fails keeps what was shown: the line is a side note, not worth an error.
      () => undefined,
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
  const show = useCallback((check: Check) => setRead({ check, asked: true }), []);
  return { ...read, show };
}

/**
 * The governor's last check as one line in the board's header, with its full account on hover
 * and **Check now** beside it; nothing at all while the check has nothing to report (no revive,
 * no budget holding one back, nothing spent) unless it answers the person's own **Check now**, or
 * when it cannot be read: the board is about the sessions, and an idle governor is not news.
 */
export function GovernorLine() {
  const { check, asked, show } = useLastCheck();
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
  if (!check) return null;
  const summary = summarizeCheck(check);
  // Asked for, an idle check is an answer; read on its own, it is not news.
  const line = governorLine(check) ?? (asked ? `nothing to do (${summary.fleet})` : null);
  if (line === null) return null;
  const details = [`${summary.fleet}; ${summary.outcome}.`, ...summary.skips, summary.spent ?? ""]
    .filter(Boolean)
    .join("\n");

  return (
    <section className="governor-line" aria-label="Governor" data-testid="governor-check">
      <span className="governor-words" title={details}>
        <strong>Governor</strong> <When at={check.at} now={now} />: {line}
      </span>
      <button type="button" className="link-button" onClick={checkNow} disabled={running}>
        {running ? "Checking…" : "Check now"}
      </button>
      {note && (
        <span className={note.quiet ? "muted" : "inline-error"} role={note.quiet ? "status" : "alert"}>
          {note.text}
        </span>
      )}
    </section>
  );
}

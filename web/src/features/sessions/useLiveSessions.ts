/**
 * The account's sessions, kept live: `GET /sessions` once, then every `session` event (which
 * carries the whole session, as `GET /sessions/<id>` gives it) merged in, and the list read again
 * when the stream says events were lost (`reset`) or (re)connects. No polling.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Session } from "../../shared/api/types.generated";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { listSessions } from "./api";
import { mergeSession, mergeSessions } from "./board";

export interface LiveSessions {
  /** Undefined until the first read answers. */
  sessions: readonly Session[] | undefined;
  error: unknown;
  reload(): void;
}

export function useLiveSessions(): LiveSessions {
  // Events that arrive before the first read are kept too: each read merges in, newer wins, so
  // reads may overlap and answer in any order.
  const [sessions, setSessions] = useState<readonly Session[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>();
  const mounted = useRef<AbortController | null>(null);

  const read = useCallback(() => {
    const signal = mounted.current?.signal;
    if (!signal) return;
    listSessions(signal).then(
      (fetched) => {
        setSessions((current) => mergeSessions(current, fetched));
        setLoaded(true);
        setError(undefined);
      },
      (e: unknown) => {
        if (!signal.aborted) setError(e);
      },
    );
  }, []);

  useEffect(() => {
    const abort = new AbortController();
    mounted.current = abort;
    read();
    return () => abort.abort();
  }, [read]);

  useStreamEvent<Session>("session", (session) => setSessions((current) => mergeSession(current, session)));
  useStreamLifecycle("reset", read);
  // A change made after the first read but before the stream connected sent its event to no
  // one: reading again once connected closes that gap (and that of any reconnect).
  useStreamLifecycle("open", read);

  return { sessions: loaded ? sessions : undefined, error, reload: read };
}

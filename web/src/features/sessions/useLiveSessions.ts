/**
 * The account's sessions, kept live: `GET /sessions` once, then every `session` event (which
 * carries the whole session, as `GET /sessions/<id>` gives it) merged in, and the list read again
 * when the stream says events were lost (`reset`). No polling.
 */
import { useCallback, useEffect, useState } from "react";
import { apiFetch } from "../../shared/api/client";
import type { Session } from "../../shared/api/types.generated";
import { useStreamEvent, useStreamLifecycle } from "../../shared/stream/useStream";
import { mergeSession, mergeSessions } from "./board";

export interface LiveSessions {
  /** Undefined until the first read answers. */
  sessions: readonly Session[] | undefined;
  error: unknown;
  reload(): void;
}

export function useLiveSessions(): LiveSessions {
  // Events that arrive before the first read are kept too: the read merges into them, newer wins.
  const [events, setEvents] = useState<readonly Session[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>();
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    apiFetch<Session[]>("/sessions", { signal: abort.signal }).then(
      (fetched) => {
        setEvents((current) => mergeSessions(current, fetched));
        setLoaded(true);
        setError(undefined);
      },
      (e: unknown) => {
        if (!abort.signal.aborted) setError(e);
      },
    );
    return () => abort.abort();
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  useStreamEvent<Session>("session", (session) => setEvents((current) => mergeSession(current, session)));
  useStreamLifecycle("reset", reload);

  return { sessions: loaded ? events : undefined, error, reload };
}

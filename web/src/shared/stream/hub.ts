/**
 * One live connection to the server's event stream (`/api/stream`) for the whole app, shared by
 * every component that listens. The browser's EventSource reconnects by itself and sends
 * `Last-Event-ID`, so what happened while the connection was down arrives on reconnect; when the
 * server no longer holds it, it sends `reset` and every listener refetches what it shows.
 */

/** What the hub needs of an EventSource; tests pass a fake. */
export interface EventSourceLike {
  addEventListener(name: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  /** 0 connecting, 1 open, 2 closed for good (the browser will not try again). */
  readonly readyState: number;
}

/**
 * The connection as a person should read it: `connecting` before it first opened, `live` while
 * open, `reconnecting` while the browser tries again after a drop, `closed` when it gave up.
 */
export type Connection = "connecting" | "live" | "reconnecting" | "closed";

export type StreamListener = (data: unknown) => void;

/** `reset`: the stream lost events (refetch); `open`: the connection (re)opened. */
export type Lifecycle = "reset" | "open";

export interface EventHub {
  /** Calls `listener` with each `name` event's parsed data until the returned function is called. */
  on(name: string, listener: StreamListener): () => void;
  /** Calls `listener` when events may have been missed and what is shown must be refetched. */
  onLifecycle(kind: Lifecycle, listener: () => void): () => void;
  /** The connection now. */
  connection(): Connection;
  /** Calls `listener` with each change of the connection; watching does not keep it open. */
  onConnection(listener: (connection: Connection) => void): () => void;
}

/**
 * A browser's EventSource gives up for good on an answer that is not a stream (a 502 from a
 * server on its way down, say); the hub then opens a new one after this long.
 */
const REOPEN_AFTER_MS = 5_000;

export function createEventHub(open: () => EventSourceLike, reopenAfterMs = REOPEN_AFTER_MS): EventHub {
  const listeners = new Map<string, Set<StreamListener>>();
  const lifecycle = new Map<Lifecycle, Set<() => void>>([
    ["reset", new Set()],
    ["open", new Set()],
  ]);
  let source: EventSourceLike | null = null;
  let wired = new Set<string>();
  let connection: Connection = "connecting";
  const watchers = new Set<(connection: Connection) => void>();
  const setConnection = (next: Connection) => {
    if (next === connection) return;
    connection = next;
    for (const watcher of [...watchers]) watcher(next);
  };

  const count = () => [...listeners.values(), ...lifecycle.values()].reduce((n, set) => n + set.size, 0);

  const dispatch = (name: string) => (event: MessageEvent<string>) => {
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    for (const listener of [...(listeners.get(name) ?? [])]) listener(data);
  };

  const wire = (name: string) => {
    if (source && !wired.has(name)) {
      source.addEventListener(name, dispatch(name));
      wired.add(name);
    }
  };

  const ensureOpen = () => {
    if (source) return;
    source = open();
    wired = new Set();
    source.addEventListener("reset", () => {
      for (const listener of [...(lifecycle.get("reset") ?? [])]) listener();
    });
    const opened = source;
    source.onopen = () => {
      setConnection("live");
      for (const listener of [...(lifecycle.get("open") ?? [])]) listener();
    };
    source.onerror = () => {
      if (opened.readyState !== 2) {
        setConnection("reconnecting");
        return;
      }
      setConnection("closed");
      setTimeout(() => {
        if (source !== opened) return;
        source = null;
        if (count() > 0) ensureOpen();
      }, reopenAfterMs);
    };
    for (const name of listeners.keys()) wire(name);
  };

  const closeWhenUnused = () => {
    if (source && count() === 0) {
      source.close();
      source = null;
      setConnection("connecting");
    }
  };

  return {
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) {
        set = new Set();
        listeners.set(name, set);
      }
      set.add(listener);
      ensureOpen();
      wire(name);
      return () => {
        set.delete(listener);
        closeWhenUnused();
      };
    },
    connection: () => connection,
    onConnection(listener) {
      watchers.add(listener);
      return () => {
        watchers.delete(listener);
      };
    },
    onLifecycle(kind, listener) {
      const set = lifecycle.get(kind);
      set?.add(listener);
      ensureOpen();
      return () => {
        set?.delete(listener);
        closeWhenUnused();
      };
    },
  };
}

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
}

export type StreamListener = (data: unknown) => void;

/** `reset`: the stream lost events (refetch); `open`: the connection (re)opened. */
export type Lifecycle = "reset" | "open";

export interface EventHub {
  /** Calls `listener` with each `name` event's parsed data until the returned function is called. */
  on(name: string, listener: StreamListener): () => void;
  /** Calls `listener` when events may have been missed and what is shown must be refetched. */
  onLifecycle(kind: Lifecycle, listener: () => void): () => void;
}

export function createEventHub(open: () => EventSourceLike): EventHub {
  const listeners = new Map<string, Set<StreamListener>>();
  const lifecycle = new Map<Lifecycle, Set<() => void>>([
    ["reset", new Set()],
    ["open", new Set()],
  ]);
  let source: EventSourceLike | null = null;
  let wired = new Set<string>();

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
    source.onopen = () => {
      for (const listener of [...(lifecycle.get("open") ?? [])]) listener();
    };
    for (const name of listeners.keys()) wire(name);
  };

  const closeWhenUnused = () => {
    if (source && count() === 0) {
      source.close();
      source = null;
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

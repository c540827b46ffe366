/** React hooks over the app's one event-stream connection. */
import { useEffect, useRef, useSyncExternalStore } from "react";
import { createEventHub, type Connection, type Lifecycle } from "./hub";

const hub = createEventHub(() => new EventSource("/api/stream", { withCredentials: true }));

/** Calls `handler` with every `name` event while the component is mounted (the latest handler). */
export function useStreamEvent<T>(name: string, handler: (data: T) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => hub.on(name, (data) => latest.current(data as T)), [name]);
}

/** Calls `handler` when the stream says events were lost (`reset`) or when it (re)opens. */
export function useStreamLifecycle(kind: Lifecycle, handler: () => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => hub.onLifecycle(kind, () => latest.current()), [kind]);
}

/** The stream's connection as it changes (`live`, `reconnecting`, …), for an indicator. */
export function useStreamConnection(): Connection {
  return useSyncExternalStore(
    (onChange) => hub.onConnection(onChange),
    () => hub.connection(),
    () => "connecting",
  );
}

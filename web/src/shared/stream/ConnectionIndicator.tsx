/**
 * Whether what the page shows is current: the live stream's connection in a word and a dot
 * ("Live", "Reconnecting…", "Offline"), so a person can tell a quiet fleet from a dropped link.
 */
import { useSyncExternalStore } from "react";
import { useStreamConnection } from "./useStream";

const WORDS = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  closed: "Disconnected",
  offline: "Offline",
} as const;

const EXPLAINED: Record<keyof typeof WORDS, string> = {
  connecting: "Opening the live connection to Switchboard.",
  live: "Changes show as they happen.",
  reconnecting: "The live connection dropped; the browser is trying again. What you see may be out of date.",
  closed: "The live connection was refused; trying again shortly. What you see may be out of date.",
  offline: "This browser is offline. What you see may be out of date.",
};

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

export function ConnectionIndicator() {
  const connection = useStreamConnection();
  const online = useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
  const state = online ? connection : "offline";
  return (
    <span className="connection" data-connection={state} role="status" title={EXPLAINED[state]}>
      {WORDS[state]}
    </span>
  );
}

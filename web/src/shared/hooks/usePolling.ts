/** Reads something again on a timer, for what the event stream does not tell. */
import { useEffect } from "react";

/**
 * Calls `run` every `everyMs` while `on`; a tick while the browser tab is hidden is skipped, so a
 * page left open in the background asks the server nothing.
 */
export function usePolling(run: () => void, everyMs: number, on = true): void {
  useEffect(() => {
    if (!on) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") run();
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [run, everyMs, on]);
}

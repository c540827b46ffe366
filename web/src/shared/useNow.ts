/** The time now, for words like "5 min ago" or "today at 14:05", redrawn on a slow tick. */
import { useEffect, useState } from "react";

/** Those words change by the minute at the finest: redrawing them every few seconds is enough. */
const CLOCK_TICK_MS = 10_000;

export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

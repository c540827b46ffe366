/**
 * What the inbox says once the person has emptied it: with `webmailInboxZeroCelebration` a brief
 * celebration (a few seconds of motion, none when the system asks for reduced motion), then a
 * still message; without it, the still message alone.
 */
import { useEffect, useState } from "react";
import { useMediaQuery } from "../../shared/useMediaQuery";

const CELEBRATION_MS = 4000;

export function InboxZero({ celebrate }: { celebrate: boolean }) {
  const still = useMediaQuery("(prefers-reduced-motion: reduce)");
  const [shown, setShown] = useState(celebrate);
  useEffect(() => {
    if (!shown) return;
    const timer = window.setTimeout(() => setShown(false), CELEBRATION_MS);
    return () => window.clearTimeout(timer);
  }, [shown]);
  if (shown) {
    return (
      <div
        className={`mail-zero celebrating${still ? " still" : ""}`}
        role="status"
        data-motion={still ? "none" : "on"}
      >
        <span className="mail-zero-mark" aria-hidden="true">
          ✓
        </span>
        <p>Inbox zero. Every thread is dealt with.</p>
      </div>
    );
  }
  return (
    <div className="mail-zero" role="status">
      <p>Inbox zero. Nothing waits for you here.</p>
    </div>
  );
}

/**
 * The one empty state: what is not there yet (or matches nothing), and what to do about it. One
 * sentence is a paragraph; several parts (words and a button) are a block, one under the other.
 */
import type { ReactNode } from "react";

export function EmptyState({ children, className }: { children: ReactNode; className?: string }) {
  const classes = className ? `empty-state ${className}` : "empty-state";
  return typeof children === "string" ? (
    <p className={classes}>{children}</p>
  ) : (
    <div className={classes}>{children}</div>
  );
}

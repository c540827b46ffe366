/**
 * The one empty state: what is not there yet, and what to do about it. A block of several
 * paragraphs uses the class `empty-state` on its own element.
 */
import type { ReactNode } from "react";

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="empty-state">{children}</p>;
}

/**
 * Plain words for a code a person would not know (`error_max_turns`, "(os error 2)", a setting's
 * key), with the code kept on hover for those who want it: the words are what the page says, the
 * code is the element's `title` (and `data-raw`, for tests and tools). Without a code it is the
 * words alone.
 */
import type { ReactNode } from "react";
import "./coded.css";

export function Coded({
  raw,
  children,
  className,
}: {
  /** The code or text as stored; null or empty when the words are the text itself. */
  raw: string | null | undefined;
  children: ReactNode;
  className?: string;
}) {
  if (!raw) return className ? <span className={className}>{children}</span> : <>{children}</>;
  return (
    <span className={className ? `coded ${className}` : "coded"} title={raw} data-raw={raw}>
      {children}
    </span>
  );
}

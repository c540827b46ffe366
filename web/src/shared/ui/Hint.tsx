/**
 * An optional tip (a keyboard shortcut, a form tip): drawn only while `helpfulHintsEnabled` is on,
 * so one switch quiets every tip in the app. docs/hints.md lists them.
 */
import type { ReactNode } from "react";
import { hintsShown } from "../hints";
import { useSettingValues } from "../settings";

interface Props {
  /** A paragraph for a tip of its own line, a span for one beside other content. */
  as?: "p" | "span";
  className?: string;
  children: ReactNode;
}

export function Hint({ as = "span", className, children }: Props) {
  const values = useSettingValues();
  if (!hintsShown(values)) return null;
  return as === "p" ? <p className={className}>{children}</p> : <span className={className}>{children}</span>;
}

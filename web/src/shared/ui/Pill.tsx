/**
 * The one pill: a short label (a status, a state, a tag) on a colour. Given a colour, its text is
 * black or white, whichever reads (`readableTextOn`); without one it takes the theme's grey.
 */
import type { CSSProperties, ReactNode } from "react";
import { readableTextOn } from "./contrast";

/** The custom properties `.pill` and `.status-label` read, for a label of colour `color`. */
export function pillStyle(color: string | undefined): CSSProperties | undefined {
  if (!color) return undefined;
  return { "--pill-bg": color, "--pill-text": readableTextOn(color) } as CSSProperties;
}

export function Pill({ color, title, children }: { color?: string; title?: string; children: ReactNode }) {
  return (
    <span className="pill" style={pillStyle(color)} title={title}>
      {children}
    </span>
  );
}

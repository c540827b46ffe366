/**
 * The one pill: a short label on a colour. A status or state (a session's, a schedule's, a
 * drip's…) takes its colour from what it means, its `tone` (`statusTone`), and is written
 * capitalised; a label the user coloured (a board's status, a person) keeps its colour, with black
 * or white text, whichever reads (`readableTextOn`); without either it takes the theme's grey.
 */
import type { CSSProperties, ReactNode } from "react";
import { readableTextOn } from "./contrast";

/** What a status means to the reader, and so its colour. */
export type Tone = "attention" | "running" | "done" | "failed" | "neutral";

/**
 * The tone of a state word, whichever feature's it is: what waits on the reader is attention,
 * what is under way running, what ended well done, what went wrong failed, the rest neutral.
 */
const TONES: Record<string, Tone> = {
  waiting_for_input: "attention",
  needs_approval: "attention",
  pending: "attention",
  stranded: "attention",
  question: "attention",
  new: "attention",
  unrouted: "attention",
  approval: "attention",
  input: "attention",
  reply: "attention",
  exhausted: "attention",
  medium: "attention",
  running: "running",
  starting: "running",
  started: "running",
  active: "running",
  in_progress: "running",
  waiting_on_review: "running",
  queued: "running",
  scheduled: "running",
  open: "running",
  connecting: "running",
  triaging: "running",
  done: "done",
  finished: "done",
  completed: "done",
  landed: "done",
  merged: "done",
  delivered: "done",
  ended: "done",
  fixed: "done",
  connected: "done",
  triaged: "done",
  failed: "failed",
  error: "failed",
  high: "failed",
  unreachable: "failed",
  invalid: "failed",
  conflict: "failed",
  folder_unreadable: "failed",
  dropped: "neutral",
  stalled: "failed",
  incomplete: "failed",
  crashed: "failed",
  killed: "failed",
  turned_down: "failed",
  rejected: "failed",
};

export function statusTone(state: string): Tone {
  return (
    TONES[
      state
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, "_")
    ] ?? "neutral"
  );
}

/** A label as a pill writes it: its first letter capitalised ("waiting for input" → "Waiting for input"). */
export function pillLabel(label: string): string {
  const text = label.replace(/_/g, " ").trim();
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** The custom properties `.pill` and `.status-label` read, for a label of colour `color`. */
export function pillStyle(color: string | undefined): CSSProperties | undefined {
  if (!color) return undefined;
  return { "--pill-bg": color, "--pill-text": readableTextOn(color) } as CSSProperties;
}

/**
 * A pill. `tone` (or `status`, a state word whose tone and words it takes) colours it by meaning;
 * `color` by the user's choice; `className` adds a feature's hook, never its own look.
 */
export function Pill({
  tone,
  status,
  color,
  title,
  className,
  children,
}: {
  tone?: Tone;
  status?: string;
  color?: string;
  title?: string;
  className?: string;
  children?: ReactNode;
}) {
  const meaning = tone ?? (status === undefined ? undefined : statusTone(status));
  // A status is written as the product writes it; a name or a tag the user typed, as typed.
  const content =
    meaning === undefined
      ? children
      : typeof children === "string"
        ? pillLabel(children)
        : (children ?? pillLabel(status ?? ""));
  const classes = ["pill", meaning && `pill-${meaning}`, className].filter(Boolean).join(" ");
  return (
    <span className={classes} data-tone={meaning} style={pillStyle(color)} title={title}>
      {content}
    </span>
  );
}

/**
 * Click to edit, Enter or leaving the field to save, Escape to cancel: the
 * editor of text, number, date and item-name cells.
 */
import { cellName } from "../format";
import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";

export interface InlineEditProps {
  /** What the cell shows when not editing. */
  display: ReactNode;
  /** The editor's starting text. */
  initial: string;
  inputType: "text" | "number" | "date";
  label: string;
  className?: string;
  /** Called with the edited text when it differs from `initial`. */
  onCommit: (text: string) => void;
}

export function InlineEdit({ display, initial, inputType, label, className, onCommit }: InlineEditProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const closed = useRef(false);

  if (draft === null) {
    return (
      <button
        type="button"
        className={`cell-button ${className ?? ""}`}
        aria-label={cellName(label, typeof display === "string" ? display : undefined)}
        onClick={() => {
          closed.current = false;
          setDraft(initial);
        }}
      >
        {display}
      </button>
    );
  }

  const finish = (save: boolean) => {
    // Enter unmounts the input, and a browser may still send it a blur: save once.
    if (closed.current) return;
    closed.current = true;
    setDraft(null);
    if (save && draft !== initial) onCommit(draft);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") finish(true);
    else if (event.key === "Escape") finish(false);
  };

  return (
    <input
      className="cell-input"
      type={inputType}
      step={inputType === "number" ? "any" : undefined}
      aria-label={label}
      autoFocus
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onKeyDown={onKeyDown}
      onBlur={() => finish(true)}
    />
  );
}

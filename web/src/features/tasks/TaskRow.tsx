/**
 * One task of the list: its checkbox, its text (edited in place, with the list's keys), due date,
 * snooze, notes, and the marks of where it came from (an agent's session, a conflicting tasks.md
 * edit). Every action is a button or a field with its own name, so the keyboard reaches them all.
 */
import { useState, type DragEvent, type KeyboardEvent, type MouseEvent } from "react";
import type { Task, TaskPatch } from "../../shared/api/types.generated";
import { Link, sessionPath } from "../../shared/router";
import { autoCapitalize } from "./capitalize";
import { isSnoozed, SNOOZE_CHOICES, snoozeUntil, type SnoozeChoice } from "./snooze";
import { Pill } from "../../shared/ui/Pill";
import { When } from "../../shared/ui/When";

export type ListKey = "indent" | "outdent" | "up" | "down" | "next";

export interface RowProps {
  task: Task;
  depth: number;
  selected: boolean;
  checkboxSelects: boolean;
  capitalize: boolean;
  now: Date;
  onPatch: (patch: TaskPatch) => void;
  onDelete: () => void;
  onKey: (key: ListKey, text: string) => void;
  onSelect: () => void;
  onDrop: (draggedId: string) => void;
}

const DRAG_TYPE = "application/x-switchboard-task";

export function TaskRow(props: RowProps) {
  const { task, depth, now } = props;
  const [draft, setDraft] = useState(task.text);
  const [editedFrom, setEditedFrom] = useState(task.text);
  const [notesOpen, setNotesOpen] = useState(false);
  // The server's text wins when it changes (a tasks.md edit, another tab) and nothing is typed.
  if (task.text !== editedFrom) {
    setEditedFrom(task.text);
    setDraft(task.text);
  }
  const label = task.text;
  const snoozed = isSnoozed(task.snoozedUntil, now);
  const save = () => {
    const text = draft.trim();
    if (text && text !== task.text) props.onPatch({ text });
    if (!text) setDraft(task.text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const key: ListKey | null =
      event.key === "Tab"
        ? event.shiftKey
          ? "outdent"
          : "indent"
        : event.altKey && event.key === "ArrowUp"
          ? "up"
          : event.altKey && event.key === "ArrowDown"
            ? "down"
            : event.key === "Enter"
              ? "next"
              : null;
    if (key === null) {
      if (event.key === "Escape") {
        setDraft(task.text);
        event.currentTarget.blur();
      }
      return;
    }
    event.preventDefault();
    props.onKey(key, draft.trim());
  };
  const onCheck = (event: MouseEvent<HTMLInputElement>) => {
    if (props.checkboxSelects || event.ctrlKey || event.metaKey || event.shiftKey) {
      event.preventDefault();
      props.onSelect();
      return;
    }
    props.onPatch({ state: task.state === "done" ? "open" : "done" });
  };
  const onDragStart = (event: DragEvent<HTMLLIElement>) => {
    event.dataTransfer.setData(DRAG_TYPE, task.id);
    event.dataTransfer.effectAllowed = "move";
  };
  const onDrop = (event: DragEvent<HTMLLIElement>) => {
    const dragged = event.dataTransfer.getData(DRAG_TYPE);
    if (!dragged) return;
    event.preventDefault();
    props.onDrop(dragged);
  };
  return (
    <li
      className={`task-row state-${task.state}${snoozed ? " snoozed" : ""}${props.selected ? " selected" : ""}`}
      style={{ paddingInlineStart: `${depth * 1.5}rem` }}
      data-task-id={task.id}
      data-depth={depth}
      draggable
      onDragStart={onDragStart}
      onDragOver={(event) => event.dataTransfer.types.includes(DRAG_TYPE) && event.preventDefault()}
      onDrop={onDrop}
    >
      <div className="task-line">
        <span className="drag-handle" aria-hidden="true">
          ⋮⋮
        </span>
        {/* The label is the touch target on a phone: the box alone is smaller than a finger. */}
        <label className="check-target">
          <input
            type="checkbox"
            aria-label={props.checkboxSelects ? `Select: ${label}` : `Done: ${label}`}
            checked={props.checkboxSelects ? props.selected : task.state === "done"}
            onClick={onCheck}
            onChange={() => undefined}
          />
        </label>
        <input
          className="task-text"
          aria-label={`Task: ${label}`}
          data-task-input={task.id}
          value={draft}
          onChange={(event) => setDraft(props.capitalize ? autoCapitalize(event.target.value) : event.target.value)}
          onBlur={save}
          onKeyDown={onKeyDown}
        />
        {task.conflict && (
          <Pill tone="failed" title="tasks.md and Switchboard changed this task differently">
            Conflict from tasks.md
          </Pill>
        )}
        {task.state === "dropped" && <Pill status="dropped" />}
        {snoozed && task.snoozedUntil && (
          <span className="muted snooze-note">
            snoozed until <When at={task.snoozedUntil} now={now.getTime()} />
          </span>
        )}
        {task.sourceSessionId && (
          <Link className="task-source touch-link" to={sessionPath(task.sourceSessionId)}>
            from a session
          </Link>
        )}
      </div>
      <div className="task-tools">
        <input
          type="date"
          aria-label={`Due date: ${label}`}
          value={task.due ?? ""}
          onChange={(event) => props.onPatch({ due: event.target.value || null })}
        />
        {snoozed ? (
          <button type="button" onClick={() => props.onPatch({ snoozedUntil: null })}>
            Wake
          </button>
        ) : (
          <select
            aria-label={`Snooze: ${label}`}
            value=""
            onChange={(event) => {
              const choice = event.target.value as SnoozeChoice | "";
              if (choice) props.onPatch({ snoozedUntil: snoozeUntil(choice, new Date()).toISOString() });
            }}
          >
            <option value="">Snooze…</option>
            {SNOOZE_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        )}
        <button type="button" aria-expanded={notesOpen} onClick={() => setNotesOpen(!notesOpen)}>
          Notes{task.notes ? " •" : ""}
        </button>
        {task.state === "dropped" ? (
          <button type="button" onClick={() => props.onPatch({ state: "open" })}>
            Restore
          </button>
        ) : (
          <button type="button" onClick={() => props.onPatch({ state: "dropped" })}>
            Drop
          </button>
        )}
        {task.conflict && (
          <button type="button" onClick={() => props.onPatch({ text: task.text })}>
            Keep this
          </button>
        )}
        <button type="button" aria-label={`Delete: ${label}`} onClick={props.onDelete}>
          Delete
        </button>
      </div>
      {notesOpen && (
        <textarea
          className="task-notes"
          aria-label={`Notes: ${label}`}
          defaultValue={task.notes}
          onBlur={(event) => event.target.value !== task.notes && props.onPatch({ notes: event.target.value })}
        />
      )}
    </li>
  );
}

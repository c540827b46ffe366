/** A dropdown value as tags; the editor removes tags and adds typed or suggested ones. */
import { Fragment, useState } from "react";
import { stringList } from "../format";
import { settingsOf } from "../types";
import type { CellProps } from "./cellProps";
import { Popover } from "../../../shared/ui/Popover";
import { Pill } from "../../../shared/ui/Pill";

export function DropdownCell({ column, value, label, onChange }: CellProps<string[]>) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const tags = stringList(value);
  const options = (settingsOf(column).options ?? []).filter((o) => !tags.includes(o));
  const listId = `options-${column.id}`;

  const set = (next: string[]) => onChange(next.length ? next : null);
  const add = (tag: string) => {
    const clean = tag.trim();
    setText("");
    if (clean && !tags.includes(clean)) set([...tags, clean]);
  };

  return (
    <>
      <button type="button" className="cell-button tags" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {/* Named by its content, so the tags a person sees are the words of its name. */}
        <span className="visually-hidden">{tags.length > 0 ? `${label}: ` : label}</span>
        {tags.map((t, i) => (
          <Fragment key={t}>
            {i > 0 && <span className="visually-hidden">, </span>}
            <Pill>{t}</Pill>
          </Fragment>
        ))}
      </button>
      {open && (
        <Popover label={`Edit ${column.title}`} onClose={() => setOpen(false)}>
          <div className="tag-editor">
            {tags.map((t) => (
              <Pill key={t}>
                {t}
                <button
                  type="button"
                  className="tag-remove"
                  aria-label={`Remove ${t}`}
                  onClick={() => set(tags.filter((x) => x !== t))}
                >
                  ×
                </button>
              </Pill>
            ))}
          </div>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              add(text);
            }}
          >
            <input
              aria-label={`Add to ${column.title}`}
              placeholder="Add a tag, Enter"
              list={options.length ? listId : undefined}
              value={text}
              autoFocus
              onChange={(e) => setText(e.target.value)}
            />
            {options.length > 0 && (
              <datalist id={listId}>
                {options.map((o) => (
                  <option key={o} value={o} />
                ))}
              </datalist>
            )}
          </form>
        </Popover>
      )}
    </>
  );
}

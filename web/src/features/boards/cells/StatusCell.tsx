/** A status value as its coloured label; the picker lists the column's labels. */
import { useState } from "react";
import { cellName, labelColor } from "../format";
import { settingsOf, type StatusLabel } from "../types";
import type { CellProps } from "./cellProps";
import { Popover } from "../../../shared/ui/Popover";
import { pillStyle } from "../../../shared/ui/Pill";

export function StatusCell({ column, value, label, onChange }: CellProps<string>) {
  const [open, setOpen] = useState(false);
  const labels: StatusLabel[] = settingsOf(column).labels ?? [];
  const current = typeof value === "string" ? (labels.find((l) => l.name === value) ?? { name: value }) : undefined;
  const pick = (name: string | null) => {
    setOpen(false);
    if (name !== (current?.name ?? null)) onChange(name);
  };
  return (
    <>
      <button
        type="button"
        className="status-label"
        aria-label={cellName(label, current?.name)}
        aria-expanded={open}
        style={current ? pillStyle(labelColor(current)) : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        {current?.name ?? ""}
      </button>
      {open && (
        <Popover label={`Choose ${column.title}`} onClose={() => setOpen(false)}>
          <div className="label-list">
            {labels.map((l) => (
              <button
                key={l.name}
                type="button"
                className="status-label"
                style={pillStyle(labelColor(l))}
                onClick={() => pick(l.name)}
              >
                {l.name}
              </button>
            ))}
            <button type="button" className="link-button" onClick={() => pick(null)}>
              Clear
            </button>
          </div>
        </Popover>
      )}
    </>
  );
}

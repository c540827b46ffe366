/** A timeline as "from – to"; the editor takes two dates and saves them together. */
import { useState } from "react";
import { plainDay } from "../../../shared/time";
import { FormActions } from "../../../shared/ui/FormActions";
import { cellName, isTimeline } from "../format";
import type { Timeline } from "../types";
import type { CellProps } from "./cellProps";
import { Popover } from "../../../shared/ui/Popover";

const ENDS = [
  ["from", "From"],
  ["to", "To"],
] as const;

export function TimelineCell({ column, value, label, onChange }: CellProps<Timeline>) {
  const current = isTimeline(value) ? value : undefined;
  const [draft, setDraft] = useState<{ from: string; to: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const open = () => {
    setProblem(null);
    setDraft({ from: current?.from ?? "", to: current?.to ?? "" });
  };
  const save = () => {
    if (!draft) return;
    if (!draft.from && !draft.to) {
      setDraft(null);
      if (current) onChange(null);
      return;
    }
    if (!draft.from || !draft.to) return setProblem("Give both dates, or clear both.");
    if (draft.from > draft.to) return setProblem("The end is before the start.");
    setDraft(null);
    if (draft.from !== current?.from || draft.to !== current?.to) onChange({ from: draft.from, to: draft.to });
  };

  const shown = current ? `${plainDay(current.from)} – ${plainDay(current.to)}` : "";
  return (
    <>
      <button type="button" className="cell-button" aria-label={cellName(label, shown)} onClick={open}>
        {shown}
      </button>
      {draft && (
        <Popover label={`Edit ${column.title}`} onClose={() => setDraft(null)}>
          <form
            className="timeline-form"
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            {ENDS.map(([end, title]) => (
              <label key={end}>
                {title}{" "}
                <input
                  type="date"
                  aria-label={title}
                  value={draft[end]}
                  onChange={(e) => setDraft({ ...draft, [end]: e.target.value })}
                />
              </label>
            ))}
            <FormActions submitLabel="Save" error={problem}>
              <button type="button" className="link-button" onClick={() => setDraft({ from: "", to: "" })}>
                Clear
              </button>
            </FormActions>
          </form>
        </Popover>
      )}
    </>
  );
}

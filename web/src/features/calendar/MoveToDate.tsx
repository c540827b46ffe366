/**
 * The keyboard's way to reschedule: choose one of the items shown and a date, and it moves there
 * as a drag would.
 */
import { useState, type FormEvent } from "react";
import type { Occurrence } from "../../shared/api/types.generated";
import type { Day } from "./days";
import { entryName } from "./EntryChip";
import { toEntry } from "./placement";
import { plainDay } from "../../shared/time";

export function MoveToDate({ occs, onMove }: { occs: readonly Occurrence[]; onMove: (uid: string, day: Day) => void }) {
  const items = occs.filter((occ) => occ.source.kind === "item");
  const [uid, setUid] = useState("");
  const [day, setDay] = useState("");
  const chosen = items.find((occ) => occ.uid === uid) ?? items[0];
  if (items.length === 0) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen && /^\d{4}-\d{2}-\d{2}$/.test(day)) onMove(chosen.uid, day);
  };
  return (
    <details className="cal-move">
      <summary>Move to date</summary>
      <form onSubmit={submit} className="cal-move-form">
        <label>
          Item
          <select value={chosen?.uid ?? ""} onChange={(e) => setUid(e.target.value)}>
            {items.map((occ) => (
              <option key={occ.uid} value={occ.uid}>
                {entryName(occ)}, due {plainDay(toEntry(occ).first)}
              </option>
            ))}
          </select>
        </label>
        <label>
          New date
          <input type="date" value={day} required onChange={(e) => setDay(e.target.value)} />
        </label>
        <button type="submit">Move</button>
      </form>
    </details>
  );
}

/**
 * Dropping an entry on a row of days: the day under the pointer (a row of equal columns, so a
 * bar drawn over several days does not hide the day it is dropped on) is shown while dragging
 * and receives the entry.
 */
import { useState, type DragEvent } from "react";
import { ENTRY_MIME } from "./EntryChip";
import type { Day } from "./days";
import { columnAt } from "./placement";

export function useDayDrop(days: readonly Day[], onMove: (uid: string, day: Day) => void) {
  const [over, setOver] = useState<Day | null>(null);
  const dayAt = (event: DragEvent<HTMLElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return days[columnAt(event.clientX, box.left, box.width, days.length)] ?? null;
  };
  const handlers = {
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (!event.dataTransfer.types.includes(ENTRY_MIME)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      setOver(dayAt(event));
    },
    onDragLeave: (event: DragEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(null);
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      const uid = event.dataTransfer.getData(ENTRY_MIME);
      const day = dayAt(event);
      setOver(null);
      if (!uid || !day) return;
      event.preventDefault();
      onMove(uid, day);
    },
  };
  return { over, handlers };
}

/**
 * A day's "+N more": a button on the day's last line that opens the day's whole list in a
 * popover. The focus goes to the list's first entry; Escape or a press outside closes it and
 * the focus comes back to the button. The list is placed on the window (fixed) under the button,
 * so the month's and the week's clipped boxes do not cut it, and scrolling the page closes it.
 */
import { useEffect, useRef, useState, type CSSProperties } from "react";
import type { Occurrence } from "../../shared/api/types.generated";
import { Popover } from "../../shared/ui/Popover";
import { dayTitle, type Day } from "./days";
import { DayList } from "./DayList";
import type { More } from "./fit";
import { entriesOn, type Entry } from "./placement";

/** A week's "+N more" buttons, each on its day's column and line, lines counted from `firstRow`. */
export function DayMores({
  more,
  entries,
  firstRow,
  onOpen,
}: {
  more: readonly More[];
  entries: readonly Entry[];
  firstRow: number;
  onOpen: (occ: Occurrence) => void;
}) {
  return more.map(({ day, col, lane, count }) => (
    <DayMore
      key={`m-${day}`}
      day={day}
      count={count}
      entries={entries}
      style={{ gridColumn: col + 1, gridRow: lane + firstRow }}
      onOpen={onOpen}
    />
  ));
}

function DayMore({
  day,
  count,
  entries,
  style,
  onOpen,
}: {
  day: Day;
  count: number;
  entries: readonly Entry[];
  style: CSSProperties;
  onOpen: (occ: Occurrence) => void;
}) {
  /** Where the list opens, in the window: under the button. */
  const [at, setAt] = useState<{ top: number; left: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const open = at !== null;
  useEffect(() => {
    if (!open) return;
    list.current?.querySelector("button")?.focus({ preventScroll: true });
    const onScroll = (event: Event) => {
      if (!list.current?.parentElement?.contains(event.target as Node)) close();
    };
    document.addEventListener("scroll", onScroll, true);
    return () => document.removeEventListener("scroll", onScroll, true);
  }, [open]);
  function close() {
    setAt(null);
    button.current?.focus({ preventScroll: true });
  }
  const toggle = () => {
    const box = button.current?.getBoundingClientRect();
    if (open || !box) close();
    else setAt({ top: box.bottom + 2, left: box.left });
  };
  const title = dayTitle(day);
  const place = at ? ({ "--more-top": `${at.top}px`, "--more-left": `${at.left}px` } as CSSProperties) : {};
  return (
    <div className="cal-more" style={{ ...style, ...place }} data-open={open || undefined}>
      <button
        ref={button}
        type="button"
        className="cal-more-button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={`+${count} more on ${title}`}
        onClick={toggle}
      >
        +{count} more
      </button>
      {open && (
        <Popover label={title} className="popover cal-day-popover" onClose={close}>
          <div ref={list}>
            <h3>{title}</h3>
            <DayList entries={entriesOn(entries, day)} onOpen={onOpen} />
          </div>
        </Popover>
      )}
    </div>
  );
}

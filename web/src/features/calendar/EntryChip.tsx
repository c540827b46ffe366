/**
 * One entry on the calendar, drawn in its source's color (a board's for items and sprints, the
 * calendar's or a neutral one for accounts) with text that reads on it. An item can be dragged
 * to another day; clicking any entry opens it.
 */
import type { DragEvent } from "react";
import { readableTextOn } from "../../shared/ui/contrast";
import type { Occurrence } from "../../shared/api/types.generated";
import { daysWords } from "./days";
import { colorOf, entryKey, entryLabel, toEntry, type Bar } from "./placement";
import { clock } from "./upcoming";

/** The drag's data type: only our entries are dropped on a day. */
export const ENTRY_MIME = "application/x-switchboard-calendar-entry";

/** What the entry is, for its accessible name and tooltip: "Ship login (Platform)", "Sprint 6 · Platform (sprint)". */
export function entryName(occ: Occurrence): string {
  const label = entryLabel(occ);
  switch (occ.source.kind) {
    case "item":
      return `${label} (${occ.source.board})`;
    case "sprint":
      return `${label} (sprint)`;
    default:
      return `${label} (${occ.source.calendar})`;
  }
}

export function EntryChip({
  occ,
  showTime = false,
  continuesBefore = false,
  continuesAfter = false,
  className,
  style,
  onOpen,
}: {
  occ: Occurrence;
  /** A timed event in a list (month cells): its start before the title. */
  showTime?: boolean;
  continuesBefore?: boolean;
  continuesAfter?: boolean;
  className?: string;
  style?: React.CSSProperties;
  onOpen: (occ: Occurrence) => void;
}) {
  const color = colorOf(occ.source);
  const draggable = occ.source.kind === "item";
  const onDragStart = (event: DragEvent<HTMLButtonElement>) => {
    event.dataTransfer.setData(ENTRY_MIME, occ.uid);
    event.dataTransfer.effectAllowed = "move";
  };
  const label = entryLabel(occ);
  const time = showTime && !occ.allDay ? clock(new Date(occ.start)) : null;
  // The accessible name begins with the words shown, so speech input finds the entry by them.
  const name = time ? `${time} ${entryName(occ)}` : entryName(occ);
  const { first, last } = toEntry(occ);
  const days = daysWords(first, last);
  return (
    <button
      type="button"
      className={["cal-entry", `cal-entry-${occ.source.kind}`, className].filter(Boolean).join(" ")}
      style={{ background: color, color: readableTextOn(color), ...style }}
      title={name}
      aria-label={name}
      // The grid shows the day by place alone: a screen reader is told it in words.
      aria-description={days}
      data-uid={occ.uid}
      data-kind={occ.source.kind}
      data-color={color}
      data-continues-before={continuesBefore || undefined}
      data-continues-after={continuesAfter || undefined}
      draggable={draggable}
      onDragStart={draggable ? onDragStart : undefined}
      onClick={() => onOpen(occ)}
    >
      {time && <span className="cal-entry-time">{time}</span>}
      {/* A space between the time and the title, so the text read aloud is the name. */}
      {time && " "}
      <span className="cal-entry-title">{label}</span>
    </button>
  );
}

/** A week's bars (sprints, all-day and multi-day entries), each on its lane from `firstRow` of the grid. */
export function SpanBars({
  bars,
  firstRow,
  onOpen,
}: {
  bars: readonly Bar[];
  firstRow: number;
  onOpen: (occ: Occurrence) => void;
}) {
  return bars.map((bar) => (
    <EntryChip
      key={entryKey(bar.entry.occ)}
      occ={bar.entry.occ}
      className="cal-bar"
      style={{ gridColumn: `${bar.startCol + 1} / ${bar.endCol + 2}`, gridRow: bar.lane + firstRow }}
      continuesBefore={bar.continuesBefore}
      continuesAfter={bar.continuesAfter}
      onOpen={onOpen}
    />
  ));
}

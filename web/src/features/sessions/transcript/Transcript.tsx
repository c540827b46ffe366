/**
 * The transcript as a virtualized list (@tanstack/react-virtual): only the rows in view are in
 * the DOM, so a 50 MB transcript scrolls like a short one. It opens at the end, follows new
 * output while the reader is at the end, loads earlier pages when scrolled near the top, and
 * keeps the row in view still while they are put in front of it (the library's `anchorTo: "end"`).
 * Scrolled up, a "Jump to latest" control brings the reader back to the end.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Entry } from "../../../shared/api/types.generated";
import type { FoldSettings } from "./fold";
import { EntryRowView, MarkdownText } from "./EntryView";
import { transcriptRows, type KeyedEntryRow, type Row } from "./rows";
import { foldFailures, foldLabel } from "./steps";
import { EmptyState } from "../../../shared/ui/EmptyState";

/** How close to the top (in pixels) the reader gets before the earlier page is asked for. */
const LOAD_EARLIER_WITHIN = 600;
/** Within this many pixels of the bottom the reader is at the end, and new output is followed. */
const AT_END_WITHIN = 48;

interface Props {
  entries: Entry[];
  earlier: boolean;
  loaded: boolean;
  onLoadEarlier: () => void;
  settings: FoldSettings;
  inputs: ReadonlyMap<number, string>;
  turns: number;
}

export function Transcript({ entries, earlier, loaded, onLoadEarlier, settings, inputs, turns }: Props) {
  const rows = useMemo(
    () => transcriptRows(entries, settings, inputs, !earlier, turns),
    [entries, settings, inputs, earlier, turns],
  );
  const scroller = useRef<HTMLDivElement>(null);
  // Held here, not in the row: a row scrolled out of view is unmounted and would forget.
  const [openFolds, setOpenFolds] = useState<ReadonlySet<string>>(new Set());
  const toggleFold = (key: string) =>
    setOpenFolds((open) => {
      const next = new Set(open);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  // The rule warns that the React Compiler would skip this component; the app does not use the
  // compiler, and the virtualizer re-renders the component itself on every scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimatedHeight(rows[index]),
    overscan: 6,
    getItemKey: (index) => rows[index]?.key ?? index,
    anchorTo: "end",
    followOnAppend: true,
  });

  // Opens at the end once the last page is there.
  const opened = useRef(false);
  useEffect(() => {
    if (!loaded || opened.current || rows.length === 0) return;
    opened.current = true;
    virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
  }, [loaded, rows.length, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const [awayFromEnd, setAwayFromEnd] = useState(false);
  // Earlier entries are asked for on the reader's scrolling near the top, never before the view
  // has opened at the end (the first render sits at the top for a moment).
  const onScroll = () => {
    const element = scroller.current;
    if (!element || !opened.current) return;
    if (element.scrollTop < LOAD_EARLIER_WITHIN) onLoadEarlier();
    setAwayFromEnd(element.scrollHeight - element.scrollTop - element.clientHeight > AT_END_WITHIN);
  };
  const jumpToLatest = () => {
    virtualizer.scrollToIndex(rows.length - 1, { align: "end" });
    setAwayFromEnd(false);
  };
  // A last page shorter than the view leaves nothing to scroll: the earlier one is asked for at once.
  useEffect(() => {
    const element = scroller.current;
    if (element && opened.current && earlier && element.scrollHeight <= element.clientHeight) onLoadEarlier();
  }, [earlier, entries, onLoadEarlier]);

  return (
    <div
      ref={scroller}
      className="transcript"
      role="log"
      aria-label="Transcript"
      aria-busy={!loaded}
      // It scrolls by itself: a keyboard reaches it to scroll too.
      tabIndex={0}
      onScroll={onScroll}
    >
      {earlier && <div className="muted transcript-earlier">Loading earlier entries…</div>}
      <div className="transcript-rows" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rows[item.index];
          return (
            row && (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="transcript-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <RowView row={row} open={openFolds.has(row.key)} onToggle={() => toggleFold(row.key)} />
              </div>
            )
          );
        })}
      </div>
      {loaded && rows.length === 0 && <EmptyState>No output yet.</EmptyState>}
      {awayFromEnd && rows.length > 0 && (
        <button type="button" className="jump-to-latest" onClick={jumpToLatest}>
          Jump to latest ↓
        </button>
      )}
    </div>
  );
}

/**
 * A row's height before it is measured: a log by its lines, anything else as one line of text.
 * Close enough that a page of long logs is not taken for one shorter than the view (which would
 * ask for the earlier page at once).
 */
function estimatedHeight(row: Row | undefined): number {
  if (row?.kind !== "log") return 48;
  const lines = row.entries.reduce((n, e) => n + 1 + (e.text.match(/\n/g)?.length ?? 0), 0);
  return 16 + lines * 18;
}

function RowView({ row, open, onToggle }: { row: Row; open: boolean; onToggle: () => void }) {
  switch (row.kind) {
    case "turn":
      return (
        <div className="turn-header">
          <span className="muted">Turn {row.turn}</span>
          {row.input !== null && (
            <div className="turn-input">
              <MarkdownText text={row.input} />
            </div>
          )}
        </div>
      );
    case "entry":
    case "tool":
    case "log":
      return <EntryRowView row={row} />;
    case "marker":
      return <hr className="final-marker" aria-label="Final-answer marker" />;
    case "folded":
      return <Folded steps={row.steps} open={open} onToggle={onToggle} />;
  }
}

/**
 * What the final-message folding hid: one row that opens to show it all, saying what failed in it.
 * Closed, it keeps its last failed steps in view (`foldFailures`): a failure is seen without opening it.
 */
function Folded({ steps, open, onToggle }: { steps: KeyedEntryRow[]; open: boolean; onToggle: () => void }) {
  const { label, failed } = foldLabel(steps);
  const shown = open ? steps : foldFailures(steps);
  return (
    <div className="entry entry-folded">
      <button type="button" className="link-button" aria-expanded={open} onClick={onToggle}>
        {open ? "▾" : "▸"} {label}
        {failed && (
          <span className="entry-failed-count">
            {" · "}
            {/* The words say it to a screen reader; the ✗ is for the eye. */}
            <span aria-hidden="true">✗</span> {failed}
          </span>
        )}
      </button>
      {shown.length > 0 && (
        <div className={open ? "folded-steps" : "folded-steps folded-failures"} data-fold-open={open}>
          {shown.map((row) => (
            <EntryRowView key={row.key} row={row} />
          ))}
        </div>
      )}
    </div>
  );
}

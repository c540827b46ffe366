/**
 * The board as a table: a sticky header, then groups (collapsible), their
 * items and an add-item row each. Rows have one height per density, so only
 * the rows in view are drawn, which keeps a 2,000-item board quick. An item
 * named by the address (`?item=`, as the calendar links) is scrolled into
 * view, marked and given the focus once.
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from "react";
import { flattenRows, gridTemplate, itemRowIndex, scrollTopFor, visibleRange, type Row } from "./boardRows";
import type { CellChange } from "./cells/Cell";
import { paletteColor } from "./format";
import { ItemRow } from "./ItemRow";
import type { FullBoardHeader, Group, Item } from "./types";

interface Props {
  board: FullBoardHeader;
  items: Item[];
  rowHeight: number;
  onChange: CellChange;
  onRename: (itemId: string, name: string) => void;
  onDelete: (itemId: string) => void;
  onAdd: (groupId: string, name: string) => Promise<boolean>;
  /** The item the address names, shown and focused once it is among the rows. */
  targetItemId: string | null;
}

export function BoardTable({ board, items, rowHeight, onChange, onRename, onDelete, onAdd, targetItemId }: Props) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => flattenRows(board, items, collapsed), [board, items, collapsed]);
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800 });

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setView({ top: el.scrollTop, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Scrolled to once per target: later edits and scrolling are the user's.
  const reached = useRef<string | null>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !targetItemId || reached.current === targetItemId) return;
    const index = itemRowIndex(rows, targetItemId);
    if (index < 0) return;
    reached.current = targetItemId;
    el.scrollTop = scrollTopFor(index, rowHeight, el.clientHeight);
    setView({ top: el.scrollTop, height: el.clientHeight });
  }, [rows, rowHeight, targetItemId]);
  // Focused once, when its row is first drawn: after that the focus is the user's to move.
  const focused = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!targetItemId || reached.current !== targetItemId || focused.current === targetItemId) return;
    const row = scroller.current?.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(targetItemId)}"]`);
    if (!row) return;
    focused.current = targetItemId;
    row.focus();
  }, [view, targetItemId]);

  const toggle = useCallback((groupId: string) => {
    setCollapsed((all) => {
      const next = new Set(all);
      if (!next.delete(groupId)) next.add(groupId);
      return next;
    });
  }, []);

  const { start, end } = visibleRange(rows.length, rowHeight, view.top, view.height);
  const style = { "--board-grid": gridTemplate(board.columns), "--row-height": `${rowHeight}px` } as CSSProperties;

  return (
    <div
      className="board-scroll"
      ref={scroller}
      style={style}
      role="table"
      aria-label={board.name}
      aria-rowcount={items.length}
      onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
    >
      <div className="board-row board-head" role="row">
        <div className="cell cell-name" role="columnheader">
          Item
        </div>
        {board.columns.map((c) => (
          <div key={c.id} className={`cell cell-${c.type}`} role="columnheader" data-column-id={c.id}>
            {c.title}
          </div>
        ))}
        <div className="cell cell-actions" role="columnheader" />
      </div>
      <div role="presentation" style={{ height: start * rowHeight }} />
      {rows.slice(start, end).map((row) => (
        <RowView
          key={row.key}
          row={row}
          board={board}
          onToggle={toggle}
          onChange={onChange}
          onRename={onRename}
          onDelete={onDelete}
          onAdd={onAdd}
          targetItemId={targetItemId}
        />
      ))}
      <div role="presentation" style={{ height: (rows.length - end) * rowHeight }} />
    </div>
  );
}

interface RowViewProps extends Pick<Props, "board" | "onChange" | "onRename" | "onDelete" | "onAdd" | "targetItemId"> {
  row: Row;
  onToggle: (groupId: string) => void;
}

function RowView({ row, board, onToggle, onChange, onRename, onDelete, onAdd, targetItemId }: RowViewProps) {
  switch (row.kind) {
    case "item":
      return (
        <ItemRow
          item={row.item}
          columns={board.columns}
          onChange={onChange}
          onRename={onRename}
          onDelete={onDelete}
          targeted={row.item.id === targetItemId}
        />
      );
    case "group":
      return (
        <div
          className="board-row group-row"
          role="row"
          data-group-id={row.group.id}
          style={{ "--group-color": paletteColor(row.group.id) } as CSSProperties}
        >
          <div role="cell" className="group-cell">
            <button
              type="button"
              className="group-toggle"
              aria-expanded={!row.collapsed}
              onClick={() => onToggle(row.group.id)}
            >
              <span className="chevron" aria-hidden="true">
                {row.collapsed ? "▸" : "▾"}
              </span>
              <span className="group-title">{row.group.title}</span>
              <span className="muted">
                {row.count} {row.count === 1 ? "item" : "items"}
              </span>
            </button>
          </div>
        </div>
      );
    case "add":
      return <AddItemRow group={row.group} onAdd={onAdd} />;
  }
}

function AddItemRow({ group, onAdd }: { group: Group; onAdd: Props["onAdd"] }) {
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="board-row add-row"
      role="row"
      data-group-id={group.id}
      onSubmit={async (e) => {
        e.preventDefault();
        if (!name.trim() || busy) return;
        setBusy(true);
        if (await onAdd(group.id, name.trim())) setName("");
        setBusy(false);
      }}
    >
      <div role="cell" className="add-cell">
        <input
          className="cell-input"
          aria-label={`Add item to ${group.title}`}
          placeholder="+ Add item"
          value={name}
          readOnly={busy}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
    </form>
  );
}

/**
 * The board table as one flat list of fixed-height rows (group headers, items,
 * add-item rows), which is what lets the view draw only the rows on screen.
 */
import type { Column, ColumnType, FullBoardHeader, Group, Item } from "./types";

export type Row =
  | { kind: "group"; key: string; group: Group; count: number; collapsed: boolean }
  | { kind: "item"; key: string; item: Item }
  | { kind: "add"; key: string; group: Group };

/** Items by group id, in the order the server gave them (display order). */
export function itemsByGroup(items: readonly Item[]): Map<string, Item[]> {
  const buckets = new Map<string, Item[]>();
  for (const item of items) {
    const bucket = buckets.get(item.groupId);
    if (bucket) bucket.push(item);
    else buckets.set(item.groupId, [item]);
  }
  return buckets;
}

export function flattenRows(board: FullBoardHeader, items: readonly Item[], collapsed: ReadonlySet<string>): Row[] {
  const buckets = itemsByGroup(items);
  const rows: Row[] = [];
  for (const group of board.groups) {
    const groupItems = buckets.get(group.id) ?? [];
    const isCollapsed = collapsed.has(group.id);
    rows.push({ kind: "group", key: `g:${group.id}`, group, count: groupItems.length, collapsed: isCollapsed });
    if (isCollapsed) continue;
    for (const item of groupItems) rows.push({ kind: "item", key: item.id, item });
    rows.push({ kind: "add", key: `a:${group.id}`, group });
  }
  return rows;
}

/** The slice of rows to draw for a scroll position, with a margin either side. */
export function visibleRange(
  rowCount: number,
  rowHeight: number,
  scrollTop: number,
  viewportHeight: number,
  overscan = 8,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + viewportHeight) / rowHeight);
  const end = Math.min(rowCount, last + overscan);
  return { start: Math.min(end, Math.max(0, first - overscan)), end };
}

/** Where an item's row is among `rows`, or −1 (unknown, or in a collapsed group). */
export function itemRowIndex(rows: readonly Row[], itemId: string): number {
  return rows.findIndex((row) => row.kind === "item" && row.item.id === itemId);
}

/**
 * The scroll offset that shows row `index` a third of the way down the view, where the eye
 * looks first, without scrolling past the top.
 */
export function scrollTopFor(index: number, rowHeight: number, viewportHeight: number): number {
  return Math.max(0, index * rowHeight - Math.floor(viewportHeight / 3));
}

const COLUMN_WIDTH: Record<ColumnType, number> = {
  text: 200,
  number: 120,
  status: 150,
  people: 130,
  date: 140,
  timeline: 230,
  checkbox: 90,
  dropdown: 210,
};

/** The CSS grid template shared by the header and every row: name, the columns, actions. */
export function gridTemplate(columns: readonly Column[]): string {
  return ["minmax(240px, 320px)", ...columns.map((c) => `${COLUMN_WIDTH[c.type] ?? 160}px`), "72px"].join(" ");
}

export function replaceItem(items: readonly Item[], next: Item): Item[] {
  return items.map((item) => (item.id === next.id ? next : item));
}

export function removeItem(items: readonly Item[], id: string): Item[] {
  return items.filter((item) => item.id !== id);
}

/** A new item goes after the last item of its group, as the server orders it. */
export function insertItem(items: readonly Item[], added: Item): Item[] {
  let at = -1;
  items.forEach((item, i) => {
    if (item.groupId === added.groupId) at = i;
  });
  if (at < 0) return [...items, added];
  return [...items.slice(0, at + 1), added, ...items.slice(at + 1)];
}

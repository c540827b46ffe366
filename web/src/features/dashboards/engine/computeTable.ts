/**
 * The Table widget (off the add-widget menu): the filtered items with the chosen columns,
 * capped so that 100,000 items never become 100,000 rows of objects.
 */
import { columnRefKey, resolveColumn } from "./resolveColumn";
import type { Column, ColumnRef, FilteredData, TableSettings } from "./types";

export const TABLE_DEFAULT_LIMIT = 100;

export interface TableColumn {
  key: string;
  title: string;
  /** The column's type where every board having it agrees, else null (the renderer shows text). */
  type: string | null;
}

export interface TableRow {
  boardId: string;
  itemId: string;
  name: string;
  group: string | null;
  /** Raw values aligned with `columns`; undefined where the item's board lacks the column. */
  cells: unknown[];
  /** The resolved columns of the row's board, aligned with `cells`, for typed drawing. */
  cellColumns: (Column | null)[];
}

export interface TableResult {
  kind: "table";
  columns: TableColumn[];
  rows: TableRow[];
  totalRows: number;
  truncated: boolean;
}

export function computeTable(data: FilteredData, settings: TableSettings | undefined): TableResult {
  const refs: ColumnRef[] = Array.isArray(settings?.columns) ? settings.columns : [];
  const limit =
    typeof settings?.limit === "number" && settings.limit >= 0 ? Math.floor(settings.limit) : TABLE_DEFAULT_LIMIT;
  const columns: TableColumn[] = refs.map((ref) => ({ key: columnRefKey(ref), title: columnRefKey(ref), type: null }));
  const typeSeen: (string | null | undefined)[] = refs.map(() => undefined);
  const rows: TableRow[] = [];
  let totalRows = 0;
  for (const { board, rows: kept } of data.boards) {
    const resolved = refs.map((ref) => resolveColumn(ref, board) ?? null);
    resolved.forEach((column, c) => {
      const header = columns[c];
      if (!column || !header) return;
      if (typeSeen[c] === undefined) {
        header.title = column.title;
        typeSeen[c] = column.type;
      } else if (typeSeen[c] !== column.type) {
        typeSeen[c] = null;
      }
      header.type = typeSeen[c] ?? null;
    });
    totalRows += kept.length;
    const { items } = board;
    const [ids, names, groupIds] = [items.field("id"), items.field("name"), items.field("groupId")];
    const cellsByColumn = resolved.map((column) => (column ? items.cells(column.id) : null));
    for (let k = 0; k < kept.length && rows.length < limit; k++) {
      const row = kept[k] as number;
      rows.push({
        boardId: board.id,
        itemId: ids[row] as string,
        name: names[row] as string,
        group: board.groupTitleById.get(groupIds[row] as string) ?? null,
        cells: cellsByColumn.map((cells) => cells?.[row]),
        cellColumns: resolved,
      });
    }
  }
  return { kind: "table", columns, rows, totalRows, truncated: rows.length < totalRows };
}

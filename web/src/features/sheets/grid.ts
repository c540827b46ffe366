/**
 * The Sheets grid's pure pieces: which rows a scrolled viewport shows (the grid renders only
 * those, so 100,000 rows scroll like 30), which pages of rows that needs, a cell as text, and
 * the view's sort and filter, which reorder row indexes and never the sheet itself.
 */
import type { SheetCell } from "../../shared/api/types.generated";

type Values = Readonly<Record<string, unknown>> | undefined;

/** The page is there while `sheetsEnabled` is on (off by default). */
export function sheetsShown(values: Values): boolean {
  return values?.sheetsEnabled === true;
}

/** Rows asked of the server at a time: one request fills a few screens. */
export const PAGE_ROWS = 500;
export const ROW_HEIGHT = 28;

export interface Range {
  first: number;
  /** One past the last. */
  end: number;
}

/** The rows a viewport at `scrollTop` of `height` shows, with `overscan` rows either side. */
export function visibleRange(scrollTop: number, height: number, total: number, overscan = 10): Range {
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - overscan);
  const end = Math.min(total, Math.ceil((scrollTop + height) / ROW_HEIGHT) + overscan);
  return { first, end: Math.max(first, end) };
}

/** The page numbers covering rows `range` (page `n` holds rows `n * PAGE_ROWS` on). */
export function pagesFor(range: Range): number[] {
  if (range.end <= range.first) return [];
  const pages: number[] = [];
  for (let page = Math.floor(range.first / PAGE_ROWS); page * PAGE_ROWS < range.end; page++) pages.push(page);
  return pages;
}

/** A cell as the grid shows it. */
export function cellText(cell: SheetCell | undefined): string {
  const value = cell?.value;
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

/** `A`, `B`, … `Z`, `AA`: a 0-based column's letters. */
export function columnLetters(column: number): string {
  let n = column + 1;
  let out = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

export interface View {
  /** Sort by this column, when set. */
  sortColumn: number | null;
  descending: boolean;
  /** Keep rows with a cell containing this text (any case), when not empty. */
  filter: string;
}

/**
 * The row indexes `rows` shows in, after the view's filter and sort; numbers sort as numbers,
 * empty cells last whichever the direction, ties keep the sheet's order.
 */
export function viewOrder(rows: readonly (readonly SheetCell[] | undefined)[], view: View): number[] {
  const needle = view.filter.trim().toLowerCase();
  let order = rows.map((_, i) => i);
  if (needle)
    order = order.filter((i) => (rows[i] ?? []).some((cell) => cellText(cell).toLowerCase().includes(needle)));
  const column = view.sortColumn;
  if (column === null) return order;
  const sign = view.descending ? -1 : 1;
  return order
    .map((i) => ({ i, value: rows[i]?.[column]?.value ?? null }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) return a.value === b.value ? a.i - b.i : a.value === null ? 1 : -1;
      const cmp =
        typeof a.value === "number" && typeof b.value === "number"
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value), undefined, { numeric: true });
      return cmp === 0 ? a.i - b.i : sign * cmp;
    })
    .map((entry) => entry.i);
}

/** What the user typed as the value to send: a number when it reads as one, else the text. */
export function typedValue(text: string): number | string | null {
  if (text === "") return null;
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) ? n : text;
}

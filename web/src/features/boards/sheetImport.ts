/**
 * The "Import a sheet" form's pure piece: the columns typed as `B:number, C:checkbox, D:status`
 * (a column letter, then a board column type) read into the mappings `POST /boards/import-sheet`
 * takes, with the reason when a part cannot be read.
 */
import type { ColumnType } from "../../shared/api/types.generated";

export interface ColumnPick {
  column: number;
  type: ColumnType;
}

const IMPORTABLE: readonly ColumnType[] = ["text", "number", "status", "date", "checkbox", "dropdown"];

/** `A` → 0, `AA` → 26; null for anything that is not column letters. */
export function columnIndex(letters: string): number | null {
  const up = letters.trim().toUpperCase();
  if (!/^[A-Z]{1,3}$/.test(up)) return null;
  let n = 0;
  for (const ch of up) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** `B:number, C:checkbox` → the mappings, or the first part that cannot be read. */
export function parseColumns(text: string): { columns: ColumnPick[] } | { problem: string } {
  const columns: ColumnPick[] = [];
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "")) {
    const [letters = "", kind = ""] = part.split(":").map((p) => p.trim());
    const column = columnIndex(letters);
    if (column === null) return { problem: `"${part}": start with a column letter, as in B:number.` };
    const type = IMPORTABLE.find((t) => t === kind.toLowerCase());
    if (!type) return { problem: `"${part}": the type is one of ${IMPORTABLE.join(", ")}.` };
    if (columns.some((c) => c.column === column)) return { problem: `Column ${letters.toUpperCase()} is named twice.` };
    columns.push({ column, type });
  }
  return { columns };
}

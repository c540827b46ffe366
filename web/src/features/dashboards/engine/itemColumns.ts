/**
 * A board's items as the engine reads them: one array per field or values key, indexed by row
 * (the item's position in the full read). Both forms of the full read end here: the JSON one's
 * item objects are read column by column on first use, and the compact one
 * (`application/vnd.switchboard.columns+json`) arrives as columns, so 100,000 items never
 * become 100,000 objects. Everything downstream reads cells by row and cannot tell the forms
 * apart.
 */
import type { ItemColumns as WireColumns, ValueColumn } from "../../../shared/api/types.generated";
import type { ItemColumns, ItemField, Item } from "./types";

function memoised(build: (key: string) => readonly unknown[]): (key: string) => readonly unknown[] {
  const built = new Map<string, readonly unknown[]>();
  return (key) => {
    let column = built.get(key);
    if (column === undefined) {
      column = build(key);
      built.set(key, column);
    }
    return column;
  };
}

/** The JSON read's items, read one column at a time as widgets and filters first ask for it. */
export function columnsOfItems(items: readonly Item[]): ItemColumns {
  const fieldOf = memoised((name) => items.map((item) => item[name as ItemField]));
  return {
    count: items.length,
    field: (name) => fieldOf(name) as readonly string[],
    cells: memoised((key) => {
      const out = new Array<unknown>(items.length);
      for (let i = 0; i < items.length; i++) out[i] = (items[i] as Item).values[key];
      return out;
    }),
  };
}

/** A dictionary-coded column: row i holds `dict[codes[i]]`, nothing where the code is −1. */
type DictColumn = ValueColumn;

export class ColumnsFormError extends Error {}

function isDict(value: unknown): value is DictColumn {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as DictColumn).dict) &&
    Array.isArray((value as DictColumn).codes)
  );
}

/** Checks a dictionary column against the item count, so expanding it later cannot fail. */
function checkDict(column: unknown, count: number, what: string, absentAllowed: boolean): DictColumn {
  if (!isDict(column)) throw new ColumnsFormError(`${what} is not a dictionary column`);
  const { dict, codes } = column;
  if (codes.length !== count) throw new ColumnsFormError(`${what} has ${codes.length} codes for ${count} items`);
  const lowest = absentAllowed ? -1 : 0;
  for (let i = 0; i < count; i++) {
    const code = codes[i];
    if (!Number.isInteger(code) || (code as number) < lowest || (code as number) >= dict.length)
      throw new ColumnsFormError(`${what} holds code ${String(code)} for a dictionary of ${dict.length}`);
  }
  return column;
}

function expand({ dict, codes }: DictColumn): unknown[] {
  const out = new Array<unknown>(codes.length);
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as number;
    out[i] = code < 0 ? undefined : dict[code];
  }
  return out;
}

function stringColumn(column: unknown, count: number, what: string): readonly string[] {
  const strings = Array.isArray(column) ? column : checkDict(column, count, what, false).dict;
  if (Array.isArray(column) && column.length !== count)
    throw new ColumnsFormError(`${what} has ${column.length} entries for ${count} items`);
  if (!strings.every((s) => typeof s === "string"))
    throw new ColumnsFormError(`${what} holds a value that is not text`);
  return Array.isArray(column) ? (column as string[]) : (expand(column as DictColumn) as string[]);
}

const FIELDS: readonly ItemField[] = ["id", "groupId", "name", "createdAt", "updatedAt"];

/**
 * The compact read's items as columns. Fields and values keys are expanded from their
 * dictionaries on first use; a body that does not have the form's shape is refused whole.
 */
export function decodeItemColumns(wire: unknown): ItemColumns {
  if (typeof wire !== "object" || wire === null) throw new ColumnsFormError("items is not an object");
  const { count, values } = wire as Partial<WireColumns>;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0)
    throw new ColumnsFormError("items.count is not a count");
  if (typeof values !== "object" || values === null) throw new ColumnsFormError("items.values is not an object");
  const fields = new Map<string, readonly string[]>();
  for (const name of FIELDS) {
    fields.set(name, stringColumn((wire as Record<string, unknown>)[name], count, `items.${name}`));
  }
  const columns = new Map<string, DictColumn>();
  for (const [key, column] of Object.entries(values))
    columns.set(key, checkDict(column, count, `items.values.${key}`, true));
  const none: readonly unknown[] = new Array<unknown>(count);
  return {
    count,
    field: (name) => fields.get(name) as readonly string[],
    cells: memoised((key) => {
      const column = columns.get(key);
      return column ? expand(column) : none;
    }),
  };
}

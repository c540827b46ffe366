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

/** The item fields other than `values`, each a column of text in both forms. */
export const ITEM_FIELDS: readonly ItemField[] = ["id", "groupId", "name", "createdAt", "updatedAt"];

/** `map`'s value under `key`, built the first time it is asked for and kept. */
export function builtOnce<V>(map: Map<string, V>, key: string, build: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = build();
    map.set(key, value);
  }
  return value;
}

/** The JSON read's items, read one column at a time as widgets and filters first ask for it. */
export function columnsOfItems(items: readonly Item[]): ItemColumns {
  const fields = new Map<string, readonly string[]>();
  const cells = new Map<string, readonly unknown[]>();
  return {
    count: items.length,
    field: (name) => builtOnce(fields, name, () => items.map((item) => item[name])),
    cells: (key) => builtOnce(cells, key, () => items.map((item) => item.values[key])),
  };
}

export class ColumnsFormError extends Error {}

function isDict(value: unknown): value is ValueColumn {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as ValueColumn).dict) &&
    Array.isArray((value as ValueColumn).codes)
  );
}

/**
 * A dictionary column expanded to its rows (row i holds `dict[codes[i]]`, nothing where an
 * absent value's code is −1), checked against the item count as it goes: a malformed body is
 * refused while it is read, never later by a widget.
 */
function expand(column: unknown, count: number, what: string, absentAllowed: boolean): unknown[] {
  if (!isDict(column)) throw new ColumnsFormError(`${what} is not a dictionary column`);
  const { dict, codes } = column;
  if (codes.length !== count) throw new ColumnsFormError(`${what} has ${codes.length} codes for ${count} items`);
  const lowest = absentAllowed ? -1 : 0;
  const out = new Array<unknown>(count);
  for (let i = 0; i < count; i++) {
    const code = codes[i];
    if (!Number.isInteger(code) || (code as number) < lowest || (code as number) >= dict.length)
      throw new ColumnsFormError(`${what} holds code ${String(code)} for a dictionary of ${dict.length}`);
    out[i] = code === -1 ? undefined : dict[code as number];
  }
  return out;
}

/** A field: a plain list of text, or a dictionary of text where every item has a value. */
function stringColumn(column: unknown, count: number, what: string): readonly string[] {
  const isText = (value: unknown) => typeof value === "string";
  const notText = () => new ColumnsFormError(`${what} holds a value that is not text`);
  if (Array.isArray(column)) {
    if (column.length !== count) throw new ColumnsFormError(`${what} has ${column.length} entries for ${count} items`);
    if (!column.every(isText)) throw notText();
    return column as string[];
  }
  // Every row holds one of the dictionary's entries (no −1 here): checking those checks the rows.
  if (isDict(column) && !column.dict.every(isText)) throw notText();
  return expand(column, count, what, false) as string[];
}

/**
 * The compact read's items as columns, every field and values key expanded from its dictionary
 * here, in the one pass that checks it; a body that does not have the form's shape is refused
 * whole. A field the read left out (`fields=`) reads as a column of nothing.
 */
export function decodeItemColumns(wire: unknown): ItemColumns {
  if (typeof wire !== "object" || wire === null) throw new ColumnsFormError("items is not an object");
  const { count, values = {} } = wire as Partial<WireColumns>;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0)
    throw new ColumnsFormError("items.count is not a count");
  if (typeof values !== "object" || values === null) throw new ColumnsFormError("items.values is not an object");
  const fields = new Map<string, readonly string[]>();
  for (const name of ITEM_FIELDS) {
    const column = (wire as Record<string, unknown>)[name];
    if (column !== undefined) fields.set(name, stringColumn(column, count, `items.${name}`));
  }
  const columns = new Map<string, readonly unknown[]>();
  for (const [key, column] of Object.entries(values))
    columns.set(key, expand(column, count, `items.values.${key}`, true));
  const none: readonly unknown[] = new Array<unknown>(count);
  return {
    count,
    field: (name) => fields.get(name) ?? (none as readonly string[]),
    cells: (key) => columns.get(key) ?? none,
  };
}

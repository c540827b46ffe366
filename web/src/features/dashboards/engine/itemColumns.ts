/**
 * A board's items as the engine reads them: one array per field or values key, indexed by row
 * (the item's position in the full read). Both forms of the full read end here: the JSON one's
 * item objects are read column by column on first use, and the compact one
 * (`application/vnd.switchboard.columns+json`) arrives as columns, its codes packed into one
 * base64 string a column when asked (`codes=base64`), so 100,000 items never become 100,000
 * objects, nor their codes a million JSON numbers. Everything downstream reads a column by row, or as entries and codes
 * (a value per distinct entry, then a copy per row), and cannot tell the forms apart.
 */
import type { ItemColumns as WireColumns, ValueColumn } from "../../../shared/api/types.generated";
import { unpack } from "./loops";
import type { CodedColumn, ItemColumns, ItemField, Item } from "./types";

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

/** The map `maps` keeps for `owner`, made empty the first time it is asked for. */
export function mapFor<O extends object, V>(maps: WeakMap<O, Map<string, V>>, owner: O): Map<string, V> {
  let map = maps.get(owner);
  if (!map) {
    map = new Map();
    maps.set(owner, map);
  }
  return map;
}

/**
 * Values by row as entries and codes: each primitive value one entry, each object or array an
 * entry of its own (their identity is all a row shares), undefined as −1.
 */
function codeValues<T>(values: readonly (T | undefined)[]): CodedColumn<T> {
  const entries: T[] = [];
  const byValue = new Map<T, number>();
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined) {
      codes[i] = -1;
      continue;
    }
    let code = byValue.get(value);
    if (code === undefined) {
      code = entries.length;
      entries.push(value);
      if (typeof value !== "object" || value === null) byValue.set(value, code);
    }
    codes[i] = code;
  }
  return { entries, codes };
}

/** A coded column's rows: row i holds `entries[codes[i]]`, undefined where the code is −1. */
function expand<T>({ entries, codes }: CodedColumn<T>): (T | undefined)[] {
  const out = new Array<T | undefined>(codes.length);
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] as number;
    out[i] = code < 0 ? undefined : entries[code];
  }
  return out;
}

/** The JSON read's items, read one column at a time as widgets and filters first ask for it. */
export function columnsOfItems(items: readonly Item[]): ItemColumns {
  const fields = new Map<string, readonly string[]>();
  const cells = new Map<string, readonly unknown[]>();
  const codedFields = new Map<string, CodedColumn<string>>();
  const coded = new Map<string, CodedColumn>();
  const field = (name: ItemField) => builtOnce(fields, name, () => items.map((item) => item[name]));
  const cellsOf = (key: string) => builtOnce(cells, key, () => items.map((item) => item.values[key]));
  return {
    count: items.length,
    field,
    cells: cellsOf,
    codedField: (name) => builtOnce(codedFields, name, () => codeValues(field(name))),
    coded: (key) => builtOnce(coded, key, () => codeValues(cellsOf(key))),
  };
}

export class ColumnsFormError extends Error {}

/** A values column of a read with shared dictionaries: its codes, without a dictionary. */
function isCodes(value: unknown): value is Pick<ValueColumn, "codes"> {
  if (typeof value !== "object" || value === null || "dict" in value) return false;
  const { codes } = value as ValueColumn;
  return Array.isArray(codes) || typeof codes === "string";
}

function isDict(value: unknown): value is ValueColumn {
  if (typeof value !== "object" || value === null) return false;
  const { dict, codes } = value as ValueColumn;
  return Array.isArray(dict) && (Array.isArray(codes) || typeof codes === "string");
}

/** `Uint8Array.fromBase64` where the browser has it (it decodes natively), else `atob`. */
const nativeFromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array }).fromBase64;

function base64Bytes(text: string, what: string): Uint8Array {
  try {
    if (nativeFromBase64) return nativeFromBase64(text);
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    throw new ColumnsFormError(`${what} holds codes that are not base64`);
  }
}

/**
 * A packed list of codes (`codes=base64`): little-endian integers, each a code plus one (0: no
 * value), 1, 2 or 4 bytes wide as the dictionary has under 2^8, under 2^16 or more entries,
 * unpacked by the engine's WebAssembly loops (`loops.ts`).
 */
function unpackedCodes(text: string, dictLength: number, count: number, what: string, absentAllowed: boolean) {
  const bytes = base64Bytes(text, what);
  const width = dictLength < 1 << 8 ? 1 : dictLength < 1 << 16 ? 2 : 4;
  if (bytes.length !== count * width)
    throw new ColumnsFormError(
      `${what} has ${bytes.length} bytes of codes where ${count} items of ${width} bytes need ${count * width}`,
    );
  const codes = new Int32Array(count);
  // An item with no value where none may be counts as one code past the dictionary.
  const highest = unpack(width, bytes, codes, absentAllowed ? 0 : dictLength + 1);
  if (highest > dictLength) {
    // Read again with no value counting as none, to name the code at fault.
    const stored = unpack(width, bytes, codes, 0);
    throw new ColumnsFormError(
      `${what} holds code ${stored > dictLength ? stored - 1 : -1} for a dictionary of ${dictLength}`,
    );
  }
  return codes;
}

/**
 * A dictionary column as it came, its codes checked against the item count and the
 * dictionary as they are copied into a typed array: a malformed body is refused while it is
 * read, never later by a widget. A column of codes alone reads `shared`, the dictionary a
 * read of many boards sent once for all of them (`dicts=shared`).
 */
function checkedDict(
  column: unknown,
  count: number,
  what: string,
  absentAllowed: boolean,
  shared?: readonly unknown[],
): CodedColumn {
  const withDict = shared && isCodes(column) ? { dict: shared, codes: column.codes } : column;
  if (!isDict(withDict)) throw new ColumnsFormError(`${what} is not a dictionary column`);
  const { dict, codes } = withDict;
  if (typeof codes === "string")
    return { entries: dict, codes: unpackedCodes(codes, dict.length, count, what, absentAllowed) };
  if (codes.length !== count) throw new ColumnsFormError(`${what} has ${codes.length} codes for ${count} items`);
  const lowest = absentAllowed ? -1 : 0;
  const checked = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const code = codes[i];
    if (!Number.isInteger(code) || (code as number) < lowest || (code as number) >= dict.length)
      throw new ColumnsFormError(`${what} holds code ${String(code)} for a dictionary of ${dict.length}`);
    checked[i] = code as number;
  }
  return { entries: dict, codes: checked };
}

/** Every row its own entry: a plain list read as coded, without hashing its values. */
function eachItsOwn<T>(list: readonly T[]): CodedColumn<T> {
  const codes = new Int32Array(list.length);
  for (let i = 0; i < codes.length; i++) codes[i] = i;
  return { entries: list, codes };
}

/** A field: a plain list of text, or a dictionary of text where every item has a value. */
function stringColumn(column: unknown, count: number, what: string): CodedColumn<string> {
  const isText = (value: unknown) => typeof value === "string";
  const notText = () => new ColumnsFormError(`${what} holds a value that is not text`);
  if (Array.isArray(column)) {
    if (column.length !== count) throw new ColumnsFormError(`${what} has ${column.length} entries for ${count} items`);
    if (!column.every(isText)) throw notText();
    return eachItsOwn(column as string[]);
  }
  // Every row holds one of the dictionary's entries (no −1 here): checking those checks the rows.
  if (isDict(column) && !column.dict.every(isText)) throw notText();
  return checkedDict(column, count, what, false) as CodedColumn<string>;
}

/** A read of many boards' shared dictionaries (`dicts=shared`): one list of values per values key. */
export type SharedDicts = Readonly<Record<string, readonly unknown[]>>;

/** Per shared list, how many rows of the boards decoded so far read it. */
const rowsByList = new WeakMap<readonly unknown[], number>();

/**
 * How many rows read `entries`: those of every board decoded against it when it is a shared
 * list, else none counted here (the board's own count is what a caller has then).
 */
export function rowsReading(entries: readonly unknown[]): number {
  return rowsByList.get(entries) ?? 0;
}

/**
 * The compact read's items as columns, kept as the wire's dictionaries and codes (checked here,
 * in one pass, so a body that does not have the form's shape is refused whole) and expanded to
 * a value per row only for a reader that asks for one. A field the read left out (`fields=`)
 * reads as a column of nothing. Values columns of codes alone read `shared`: boards read with
 * it share each key's entries (the same array), so what a widget decides per entry is decided
 * once for all of them.
 */
export function decodeItemColumns(wire: unknown, shared?: SharedDicts): ItemColumns {
  if (typeof wire !== "object" || wire === null) throw new ColumnsFormError("items is not an object");
  const { count, values = {} } = wire as Partial<WireColumns>;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0)
    throw new ColumnsFormError("items.count is not a count");
  if (typeof values !== "object" || values === null) throw new ColumnsFormError("items.values is not an object");
  const codedFields = new Map<string, CodedColumn<string>>();
  for (const name of ITEM_FIELDS) {
    const column = (wire as Record<string, unknown>)[name];
    if (column !== undefined) codedFields.set(name, stringColumn(column, count, `items.${name}`));
  }
  const coded = new Map<string, CodedColumn>();
  for (const [key, column] of Object.entries(values)) {
    const dict = shared && Object.hasOwn(shared, key) ? shared[key] : undefined;
    const read = checkedDict(column, count, `items.values.${key}`, true, dict);
    if (read.entries === dict) rowsByList.set(dict, rowsReading(dict) + count);
    coded.set(key, read);
  }
  // What a field the read left out, or a key no item has, reads as: made once, when first asked for.
  let none: CodedColumn<never> | undefined;
  const absent = () => (none ??= { entries: [], codes: new Int32Array(count).fill(-1) });
  const fieldOf = (name: ItemField) => codedFields.get(name) ?? absent();
  const keyOf = (key: string) => coded.get(key) ?? absent();
  const fields = new Map<string, readonly string[]>();
  const cells = new Map<string, readonly unknown[]>();
  return {
    count,
    codedField: fieldOf,
    coded: keyOf,
    field: (name) => builtOnce(fields, name, () => expand(fieldOf(name)) as string[]),
    cells: (key) => builtOnce(cells, key, () => expand(keyOf(key))),
  };
}

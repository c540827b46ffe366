/**
 * The widget engine's shapes: its input (the contract's full-board read, the dashboard config's
 * filters and each widget's settings) and the intermediate forms its steps hand each other, kept
 * here so that no two engine files import each other. The board shapes are the generated wire
 * types; item values are any JSON that people, scripts and agents wrote, so every reader narrows
 * them itself.
 */
import type {
  Column as WireColumn,
  FilterOp,
  FullBoardBody,
  FullBoardHeader,
  FullItem,
  WidgetType,
} from "../../../shared/api/types.generated";

export type { ColumnType, Group } from "../../../shared/api/types.generated";
export type { ColumnSettings, StatusLabel } from "../../../shared/api/columnSettings";
export type Item = FullItem;

/** A column as widgets read it: settings read through `settingsOf`, which takes a missing one as none. */
export type Column = Omit<WireColumn, "settings"> & Partial<Pick<WireColumn, "settings">>;

/** A board's header as widgets read it: the full read's, or the public read's, which has no workspace. */
export type Board = Omit<FullBoardHeader, "workspaceId" | "columns"> & { columns: Column[] };

/** A full board read (`GET /boards/<id>/full`, or one board of a published dashboard). */
export type BoardFull = Omit<FullBoardBody, "board"> & { board: Board };

/** The item fields other than `values`. */
export type ItemField = "id" | "groupId" | "name" | "createdAt" | "updatedAt";

/** A field the full read's `fields` may name: an item field, or `values`. */
export type ReadField = ItemField | "values";

/**
 * A column as the entries its rows hold: row i holds `entries[codes[i]]`, nothing where the code
 * is −1. Entries need not be distinct, but items repeat a few values, so a column read decides
 * once per entry and then only copies by code, never hashing a value per item.
 */
export interface CodedColumn<T = unknown> {
  readonly entries: readonly T[];
  readonly codes: Int32Array;
}

/** A board's items by column, indexed by row (the item's position in the full read). */
export interface ItemColumns {
  readonly count: number;
  /** A field by row; every row undefined when the read left the field out (`fields=`). */
  field(name: ItemField): readonly string[];
  /** The same field as entries and codes. */
  codedField(name: ItemField): CodedColumn<string>;
  /** The values under one key, by row; undefined where an item has none. Read, never write. */
  cells(key: string): readonly unknown[];
  /** The same values as entries and codes: what the compact form carries as it is. */
  coded(key: string): CodedColumn;
}

/** A full board read in the compact form, its items already columns. */
export interface ColumnarBoard {
  board: Board;
  itemColumns: ItemColumns;
}

/** A full board read in either form; the engine reads both alike. */
export type BoardRead = BoardFull | ColumnarBoard;

/** A column id (that column on every board having it) or `{boardId: columnId}` board by board. */
export type ColumnRef = string | Record<string, string>;

export interface FilterRule {
  column: ColumnRef;
  op: FilterOp | (string & {});
  value?: unknown;
}

export interface DashboardFilters {
  people?: string[];
  rules?: FilterRule[];
}

export type AggregateFunction = "count" | "sum" | "avg" | "median" | "min" | "max";

export interface NumbersSettings {
  function?: AggregateFunction;
  column?: ColumnRef;
}

export type ChartType = "bar" | "column" | "pie" | "donut" | "line";

export type DateBucket = "day" | "week" | "month";

export interface ChartSettings {
  chartType?: ChartType;
  /** A column reference, or the literal `"group"` or `"board"`. */
  groupBy?: ColumnRef;
  function?: AggregateFunction;
  column?: ColumnRef;
  dateBucket?: DateBucket;
}

/** A sprint span listed in a sprint widget's settings; it overrides the span read from items. */
export interface SprintSpan {
  name: string;
  start: string;
  end: string;
}

export interface SprintSettings {
  sprintColumn?: ColumnRef;
  effortColumn?: ColumnRef;
  doneColumn?: ColumnRef;
  dateColumn?: ColumnRef;
  sprints?: SprintSpan[];
}

export interface BurndownSettings extends SprintSettings {
  /** The sprint to draw; the latest sprint in time order when absent. */
  sprint?: string;
}

export interface BatterySettings {
  column?: ColumnRef;
}

export interface TableSettings {
  columns?: ColumnRef[];
  limit?: number;
}

export interface WidgetLayout {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface WidgetConfig {
  id: string;
  /** Scripts and agents may store a type this version does not know; the engine reports it. */
  type: WidgetType | (string & {});
  title?: string;
  layout: WidgetLayout;
  settings?: Record<string, unknown>;
}

export interface FilteredBoard {
  board: PreparedBoard;
  /**
   * Rows of `board.items` of the items that pass every rule that applies to the board, in
   * order (the board's own `allRows` when none does). Widgets read columns by these positions.
   */
  rows: Uint32Array;
}

export interface RuleReport {
  rule: FilterRule;
  /** Boards that have the rule's column and were filtered by it. */
  appliedBoardIds: string[];
  /** Boards without the rule's column: they passed this rule whole. */
  skippedBoardIds: string[];
  /** Boards whose column type the rule cannot apply to (those boards pass it whole), by reason. */
  invalid: { boardId: string; reason: string }[];
}

export interface FilterReport {
  rules: RuleReport[];
  people: {
    active: boolean;
    /** Boards without a people column: they passed the People filter whole. */
    skippedBoardIds: string[];
  };
  totalItems: number;
  keptItems: number;
}

export interface FilteredData {
  boards: FilteredBoard[];
  report: FilterReport;
}

export interface PreparedBoard {
  id: string;
  name: string;
  board: Board;
  items: ItemColumns;
  /** 0 … items.count − 1: the rows of a board no rule filters (a view every board shares: read only). */
  allRows: Uint32Array;
  columnsById: ReadonlyMap<string, Column>;
  /** Ids of the board's `people` columns, which the People filter reads. */
  peopleColumnIds: readonly string[];
  groupTitleById: ReadonlyMap<string, string>;
  /** Column reads derived from the items (see `columnar.ts`), built on first use. */
  derived: Map<string, unknown>;
}

export type ChartCategoryKind = "label" | "person" | "group" | "board" | "date" | "value" | "empty";

export interface Unit {
  unit: string;
  position: "left" | "right";
}

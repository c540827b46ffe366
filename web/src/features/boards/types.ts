/**
 * The board module's shapes: the wire types generated from the Rust ones,
 * plus the reading of a column's settings that the cells need.
 */
import type { Column, FullBoardBody, FullItem, JsonValue } from "../../shared/api/types.generated";

export type {
  Board,
  Column,
  ColumnType,
  FullBoardHeader,
  Group,
  ItemPatch,
  JsonValue,
  Member,
} from "../../shared/api/types.generated";

/** An item as the full read and the item routes return it (the latter add `boardId`). */
export type Item = FullItem;
export type ItemValues = FullItem["values"];
export type BoardFull = FullBoardBody;

export interface StatusLabel {
  name: string;
  done?: boolean;
  color?: string;
}

export interface ColumnSettings {
  unit?: string;
  unitPosition?: "left" | "right";
  labels?: StatusLabel[];
  options?: string[];
}

export interface Timeline {
  from: string;
  to: string;
}

const NO_SETTINGS: ColumnSettings = {};

/** The server normalises settings to an object checked against the column's type. */
export function settingsOf(column: Column): ColumnSettings {
  const settings: JsonValue = column.settings;
  return typeof settings === "object" && settings !== null && !Array.isArray(settings)
    ? (settings as ColumnSettings)
    : NO_SETTINGS;
}

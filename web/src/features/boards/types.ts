/**
 * The board module's shapes: the wire types generated from the Rust ones,
 * plus the reading of a column's settings that the cells need (shared with the dashboards).
 */
import type { FullBoardBody, FullItem } from "../../shared/api/types.generated";

export { settingsOf, type ColumnSettings, type StatusLabel } from "../../shared/api/columnSettings";

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

export interface Timeline {
  from: string;
  to: string;
}

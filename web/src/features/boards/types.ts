/** The board module's wire shapes, as crates/boards/src/model.rs serialises them. */

export type ColumnType = "text" | "number" | "status" | "people" | "date" | "timeline" | "checkbox" | "dropdown";

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
  [key: string]: unknown;
}

export interface Column {
  id: string;
  title: string;
  type: ColumnType;
  settings: ColumnSettings;
}

export interface Group {
  id: string;
  title: string;
}

export interface Board {
  id: string;
  workspaceId: string;
  name: string;
  columns: Column[];
  groups: Group[];
  createdAt?: string;
  updatedAt?: string;
}

export type ItemValues = Record<string, unknown>;

export interface Item {
  id: string;
  boardId?: string;
  groupId: string;
  name: string;
  values: ItemValues;
  createdAt: string;
  updatedAt: string;
}

export interface BoardFull {
  board: Board;
  items: Item[];
}

export interface Member {
  id: string;
  name: string;
  email?: string;
}

export interface Timeline {
  from: string;
  to: string;
}

export interface ItemPatch {
  name?: string;
  groupId?: string;
  values?: ItemValues;
}

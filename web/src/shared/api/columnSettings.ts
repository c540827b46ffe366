/**
 * A column's settings as the web reads them. The wire type carries them as any JSON object
 * (`Column.settings`, checked by the server against the column's type); these are the parts the
 * cells and the widget engine draw from.
 */
import type { Column, JsonValue } from "./types.generated";

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

const NO_SETTINGS: ColumnSettings = {};

/** The server normalises settings to an object checked against the column's type. */
export function settingsOf(column: Partial<Pick<Column, "settings">>): ColumnSettings {
  const settings: JsonValue | undefined = column.settings;
  return typeof settings === "object" && settings !== null && !Array.isArray(settings)
    ? (settings as ColumnSettings)
    : NO_SETTINGS;
}

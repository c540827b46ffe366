/**
 * Readers of a column's settings (status labels, number units) that tolerate missing or
 * malformed settings, because configs and boards come from JSON anyone may write.
 */
import { settingsOf } from "../../../shared/api/columnSettings";
import type { Column, StatusLabel, Unit } from "./types";

/** What counts and unit-less columns carry. */
export const NO_UNIT: Unit = { unit: "", position: "left" };

/** A status column's labels in their order; label names that are not strings are dropped. */
export function statusLabels(column: Column): StatusLabel[] {
  const labels = settingsOf(column).labels;
  if (!Array.isArray(labels)) return [];
  return labels.filter((l): l is StatusLabel => typeof l === "object" && l !== null && typeof l.name === "string");
}

const doneCache = new WeakMap<Column, ReadonlySet<string>>();

/** Names of a status column's labels marked `done: true`. */
export function doneLabelNames(column: Column): ReadonlySet<string> {
  let names = doneCache.get(column);
  if (!names) {
    names = new Set(
      statusLabels(column)
        .filter((l) => l.done === true)
        .map((l) => l.name),
    );
    doneCache.set(column, names);
  }
  return names;
}

/** A number column's unit; the unit sits on the left unless the column says right. */
export function numberUnit(column: Column): Unit {
  const settings = settingsOf(column);
  const unit = settings.unit;
  if (typeof unit !== "string" || unit === "") return NO_UNIT;
  return { unit, position: settings.unitPosition === "right" ? "right" : "left" };
}

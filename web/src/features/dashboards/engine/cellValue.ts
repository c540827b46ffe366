/**
 * Narrowing of raw item values by column type. A value of the wrong shape reads as empty,
 * never as an error, so one bad cell cannot break a widget.
 */
import { dayText } from "./calendarDay";
import type { Column } from "./types";

/** A finite number, or NaN for anything else (null, strings, infinities). */
export function numberCell(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : Number.NaN;
}

/** The strings of an array value (people, dropdown); other shapes read as no strings. */
export function stringsCell(value: unknown): readonly string[] {
  if (!Array.isArray(value)) return EMPTY;
  return value;
}

const EMPTY: readonly string[] = [];

/**
 * The first (`from`) or last (`to`) day of a date or timeline value as `YYYY-MM-DD` text, null
 * when it holds none; a timeline missing one end reads the other.
 */
export function dayTextCell(type: string, value: unknown, end: "from" | "to"): string | null {
  if (type !== "timeline") return dayText(value);
  if (typeof value !== "object" || value === null) return null;
  const v = value as { from?: unknown; to?: unknown };
  const from = dayText(v.from);
  const to = dayText(v.to);
  return end === "from" ? (from ?? to) : (to ?? from);
}

/** Whether a cell is empty for its column's type (an unchecked checkbox counts as empty). */
export function isEmptyCell(column: Column, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  switch (column.type) {
    case "number":
      return Number.isNaN(numberCell(value));
    case "checkbox":
      return value !== true;
    case "people":
    case "dropdown":
      return !Array.isArray(value) || value.length === 0;
    case "date":
    case "timeline":
      return dayTextCell(column.type, value, "from") === null;
    default:
      return typeof value === "string" ? value.trim() === "" : false;
  }
}

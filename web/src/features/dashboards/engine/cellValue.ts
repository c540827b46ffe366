/**
 * Narrowing of raw item values by column type. A value of the wrong shape reads as empty,
 * never as an error, so one bad cell cannot break a widget.
 */
import { NO_DAY, calendarDay } from "./calendarDay";
import type { Column } from "./types";

/** A finite number, or NaN for anything else (null, strings, infinities). */
export function numberCell(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : Number.NaN;
}

/** A non-empty string, or undefined. */
export function stringCell(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The strings of an array value (people, dropdown); other shapes read as no strings. */
export function stringsCell(value: unknown): readonly string[] {
  if (!Array.isArray(value)) return EMPTY;
  return value;
}

const EMPTY: readonly string[] = [];

const scratch: DaySpan = { from: 0, to: 0 };

export interface DaySpan {
  from: number;
  to: number;
}

/**
 * The first and last day of a date (one day) or timeline (from..to) value, written into `out`
 * to avoid an allocation per item; returns false when the value holds no day.
 */
export function daySpanCell(type: string, value: unknown, out: DaySpan): boolean {
  if (type === "timeline") {
    if (typeof value !== "object" || value === null) return false;
    const v = value as { from?: unknown; to?: unknown };
    const from = calendarDay(v.from);
    const to = calendarDay(v.to);
    if (from === NO_DAY && to === NO_DAY) return false;
    out.from = from === NO_DAY ? to : from;
    out.to = to === NO_DAY ? from : to;
    return true;
  }
  const day = calendarDay(value);
  if (day === NO_DAY) return false;
  out.from = day;
  out.to = day;
  return true;
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
      return calendarDay(value) === NO_DAY;
    case "timeline":
      return !daySpanCell("timeline", value, scratch);
    default:
      return typeof value === "string" ? value.trim() === "" : false;
  }
}

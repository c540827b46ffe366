/**
 * Turns one filter rule and the column it names on one board into a predicate of the item's
 * cell in that column, once per board, so the hot loop over items only calls a closure. A
 * rule's verdict depends on nothing but that cell.
 */
import { NO_DAY, calendarDay, formatCalendarDay } from "./calendarDay";
import { dayTextCell, isEmptyCell, numberCell, stringsCell } from "./cellValue";
import type { Column, FilterRule } from "./types";

export type CellPredicate = (cell: unknown) => boolean;

/** A rule that cannot apply to a column of this type, with the reason shown in the toolbar. */
export interface InvalidRule {
  invalid: string;
}

function ruleValues(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** A rule's number, given as a number or numeric text; NaN otherwise. */
export function ruleNumber(value: unknown): number {
  return numberCell(typeof value === "string" && value.trim() !== "" ? Number(value) : value);
}

/** A rule's days as canonical `YYYY-MM-DD` text (timestamps cut to their date); others dropped. */
export function ruleDays(values: unknown[]): string[] {
  const days: string[] = [];
  for (const v of values) {
    const day = calendarDay(v);
    if (day !== NO_DAY) days.push(formatCalendarDay(day));
  }
  return days;
}

function checkboxTarget(value: unknown): boolean {
  return value === true || value === "true" || value === 1 || value === "checked";
}

/** The `is` test of one column type; `is_not` is its negation, so empty cells pass `is_not`. */
function compileIs(column: Column, value: unknown): CellPredicate | InvalidRule {
  const values = ruleValues(value);
  switch (column.type) {
    case "number": {
      const wanted = new Set(values.map(ruleNumber).filter((n) => !Number.isNaN(n)));
      if (wanted.size === 0) return { invalid: "a number rule needs a number" };
      return (cell) => wanted.has(numberCell(cell));
    }
    case "checkbox": {
      const target = checkboxTarget(values[0]);
      return (cell) => (cell === true) === target;
    }
    case "people":
    case "dropdown": {
      const wanted = new Set(values.map(String));
      return (cell) => {
        const names = stringsCell(cell);
        for (let i = 0; i < names.length; i++) if (wanted.has(names[i] as string)) return true;
        return false;
      };
    }
    case "date": {
      const wanted = new Set(ruleDays(values));
      if (wanted.size === 0) return { invalid: "a date rule needs a YYYY-MM-DD value" };
      return (cell) => wanted.has(cell as string);
    }
    case "timeline": {
      const days = ruleDays(values);
      if (days.length === 0) return { invalid: "a timeline rule needs a YYYY-MM-DD value" };
      return (cell) => {
        const from = dayTextCell("timeline", cell, "from");
        if (from === null) return false;
        const to = dayTextCell("timeline", cell, "to") as string;
        for (const d of days) if (from <= d && d <= to) return true;
        return false;
      };
    }
    default: {
      // One value is the usual case ("status is Done"); `===` is cheaper than a set look-up.
      if (values.length === 1) {
        const only = String(values[0]);
        return (cell) => cell === only || (typeof cell === "number" && String(cell) === only);
      }
      const wanted = new Set(values.map(String));
      return (cell) => (typeof cell === "string" || typeof cell === "number") && wanted.has(String(cell));
    }
  }
}

function compileContains(column: Column, value: unknown): CellPredicate | InvalidRule {
  if (column.type === "checkbox") return { invalid: "contains does not apply to a checkbox" };
  if (column.type === "people") {
    const member = String(value);
    return (cell) => stringsCell(cell).includes(member);
  }
  const needle = String(value ?? "").toLowerCase();
  const has = (s: unknown): boolean =>
    (typeof s === "string" || typeof s === "number") && String(s).toLowerCase().includes(needle);
  if (column.type === "dropdown") {
    return (cell) => stringsCell(cell).some(has);
  }
  if (column.type === "timeline") {
    return (cell) => {
      if (typeof cell !== "object" || cell === null) return false;
      const t = cell as { from?: unknown; to?: unknown };
      return has(t.from) || has(t.to);
    };
  }
  return has;
}

type Comparison = "gt" | "gte" | "lt" | "lte";

/** Numbers compare by value; `YYYY-MM-DD` texts compare as strings, which order like their days. */
function compare<T extends number | string>(op: Comparison, a: T, b: T): boolean {
  switch (op) {
    case "gt":
      return a > b;
    case "gte":
      return a >= b;
    case "lt":
      return a < b;
    case "lte":
      return a <= b;
  }
}

function compileComparison(column: Column, op: Comparison, value: unknown): CellPredicate | InvalidRule {
  if (column.type === "number") {
    const bound = ruleNumber(value);
    if (Number.isNaN(bound)) return { invalid: `${op} on a number column needs a number` };
    // NaN (an empty cell) fails every comparison, so empty cells never match.
    return (cell) => compare(op, numberCell(cell), bound);
  }
  if (column.type === "date" || column.type === "timeline") {
    const [bound] = ruleDays([value]);
    if (bound === undefined) return { invalid: `${op} on a date needs a YYYY-MM-DD value` };
    // A timeline is after a day when it starts after it, and before a day when it ends before it.
    const end = op === "lt" || op === "lte" ? "to" : "from";
    const type = column.type;
    return (cell) => {
      const day = dayTextCell(type, cell, end);
      return day !== null && compare(op, day, bound);
    };
  }
  return { invalid: `${op} applies only to number, date and timeline columns` };
}

/**
 * What `compileRule` reads of a rule and its column, as text: rules of one key compile to
 * predicates that agree on every cell, so a verdict per value may be shared between them.
 * JSON alone would write NaN, ±Infinity and undefined as null, which the predicates tell apart.
 */
export function ruleKey(rule: FilterRule, column: Column): string {
  const value = JSON.stringify(rule.value, (_, v: unknown) =>
    v === undefined || (typeof v === "number" && !Number.isFinite(v)) ? `\u0000${String(v)}` : v,
  );
  return `${column.type}\u0000${rule.op}\u0000${value}`;
}

/** The predicate of a rule on a column, or why the rule cannot apply to that column. */
export function compileRule(rule: FilterRule, column: Column): CellPredicate | InvalidRule {
  switch (rule.op) {
    case "is_empty":
      return (cell) => isEmptyCell(column, cell);
    case "is_not_empty":
      return (cell) => !isEmptyCell(column, cell);
    case "is":
      return compileIs(column, rule.value);
    case "is_not": {
      const is = compileIs(column, rule.value);
      return typeof is === "function" ? (cell) => !is(cell) : is;
    }
    case "contains":
      return compileContains(column, rule.value);
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return compileComparison(column, rule.op as Comparison, rule.value);
    default:
      return { invalid: `unknown operator ${JSON.stringify(rule.op)}` };
  }
}

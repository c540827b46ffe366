/**
 * Editing the dashboard's filters from the toolbar (immutable updates of the contract's
 * `filters`), and the toolbar's account of boards a rule or the People filter did not reach.
 */
import { FILTER_OPS, type FilterOp } from "../../shared/api/types.generated";
import type { DashboardFilters, FilterReport, FilterRule } from "./engine/types";

/** Each operator's label, and whether it compares against a value; a new operator fails to compile until it is here. */
const OP_FORMS: Record<FilterOp, { label: string; needsValue: boolean }> = {
  is: { label: "is", needsValue: true },
  is_not: { label: "is not", needsValue: true },
  contains: { label: "contains", needsValue: true },
  gt: { label: ">", needsValue: true },
  gte: { label: "≥", needsValue: true },
  lt: { label: "<", needsValue: true },
  lte: { label: "≤", needsValue: true },
  is_empty: { label: "is empty", needsValue: false },
  is_not_empty: { label: "is not empty", needsValue: false },
};

/** The operators the filter menu offers, in the server's order. */
export const FILTER_OP_CHOICES: readonly { op: FilterOp; label: string; needsValue: boolean }[] = FILTER_OPS.map(
  (op) => ({ op, ...OP_FORMS[op] }),
);

export function opNeedsValue(op: string): boolean {
  return FILTER_OP_CHOICES.find((o) => o.op === op)?.needsValue ?? true;
}

function rulesOf(filters: DashboardFilters): FilterRule[] {
  return Array.isArray(filters.rules) ? filters.rules : [];
}

export function addRule(filters: DashboardFilters, column: string): DashboardFilters {
  return { ...filters, rules: [...rulesOf(filters), { column, op: "is", value: "" }] };
}

/** Changes one rule; a value-less op drops the value, so the stored rule says what it does. */
export function updateRule(filters: DashboardFilters, index: number, change: Partial<FilterRule>): DashboardFilters {
  const rules = rulesOf(filters).map((rule, i) => {
    if (i !== index) return rule;
    const next: FilterRule = { ...rule, ...change };
    if (!opNeedsValue(next.op)) delete next.value;
    else if (next.value === undefined) next.value = "";
    return next;
  });
  return { ...filters, rules };
}

export function removeRule(filters: DashboardFilters, index: number): DashboardFilters {
  return { ...filters, rules: rulesOf(filters).filter((_, i) => i !== index) };
}

export function togglePerson(filters: DashboardFilters, memberId: string): DashboardFilters {
  const people = Array.isArray(filters.people) ? filters.people : [];
  return {
    ...filters,
    people: people.includes(memberId) ? people.filter((p) => p !== memberId) : [...people, memberId],
  };
}

/**
 * Rules still being typed (an op that needs a value, with none yet) would empty every board;
 * they stay in the draft but are left out of what the widgets see.
 */
export function effectiveFilters(filters: DashboardFilters): DashboardFilters {
  const rules = rulesOf(filters);
  const complete = rules.filter(
    (r) => !opNeedsValue(r.op) || (r.value !== "" && r.value !== undefined && r.value !== null),
  );
  return complete.length === rules.length ? filters : { ...filters, rules: complete };
}

/** Plain sentences for the toolbar: which boards each rule and the People filter left whole. */
export function reportNotes(report: FilterReport, boardName: (id: string) => string): string[] {
  const notes: string[] = [];
  const names = (ids: readonly string[]) => ids.map(boardName).join(", ");
  for (const rule of report.rules) {
    const column = typeof rule.rule.column === "string" ? rule.rule.column : JSON.stringify(rule.rule.column);
    if (rule.skippedBoardIds.length > 0) {
      notes.push(`Rule on “${column}” not applied to ${names(rule.skippedBoardIds)} (no such column).`);
    }
    for (const invalid of rule.invalid) {
      notes.push(`Rule on “${column}” not applied to ${boardName(invalid.boardId)}: ${invalid.reason}.`);
    }
  }
  if (report.people.active && report.people.skippedBoardIds.length > 0) {
    notes.push(`People filter not applied to ${names(report.people.skippedBoardIds)} (no people column).`);
  }
  return notes;
}

/**
 * The one filtering step every widget reads from: the dashboard's rules (AND-combined) and its
 * People filter. A rule constrains only the boards that have its column; the report says which
 * boards each rule skipped so the toolbar never filters silently.
 */
import type { ItemPredicate } from "./compileRule";
import { type RowPredicate, compileRowRule } from "./rowRule";
import type { PreparedBoard } from "./prepareBoards";
import { resolveColumn } from "./resolveColumn";
import { stringsCell } from "./cellValue";
import type { Column, DashboardFilters, FilterRule, Item } from "./types";

export interface FilteredBoard {
  board: PreparedBoard;
  /**
   * Positions in `board.items` of the items that pass every rule that applies to the board, in
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

function peoplePredicate(columnIds: readonly string[], members: ReadonlySet<string>): ItemPredicate {
  return (item) => {
    for (const id of columnIds) {
      const people = stringsCell(item.values[id]);
      for (let i = 0; i < people.length; i++) if (members.has(people[i] as string)) return true;
    }
    return false;
  };
}

/**
 * A rough per-item cost of a rule, so cheap rules run first and expensive ones see fewer
 * items; the order cannot change the result because every rule is a pure AND term.
 */
function ruleCost(rule: FilterRule, column: Column): number {
  if (rule.op === "contains" || column.type === "timeline") return 2;
  if (column.type === "people" || column.type === "dropdown" || column.type === "date") return 1;
  return 0;
}

const PEOPLE_COST = 1;

function keepMatching(length: number, predicates: readonly RowPredicate[]): Uint32Array {
  const kept = new Uint32Array(length);
  let count = 0;
  const n = predicates.length;
  outer: for (let i = 0; i < length; i++) {
    for (let p = 0; p < n; p++) if (!(predicates[p] as RowPredicate)(i)) continue outer;
    kept[count++] = i;
  }
  return kept.subarray(0, count);
}

/** The items a filtered board kept, as objects (for the few readers that need whole items). */
export function keptItems({ board, rows }: FilteredBoard): Item[] {
  const out: Item[] = new Array<Item>(rows.length);
  for (let k = 0; k < rows.length; k++) out[k] = board.items[rows[k] as number] as Item;
  return out;
}

export function applyFilters(boards: readonly PreparedBoard[], filters?: DashboardFilters | null): FilteredData {
  const rules = Array.isArray(filters?.rules) ? filters.rules : [];
  const members = new Set(Array.isArray(filters?.people) ? filters.people.map(String) : []);
  const report: FilterReport = {
    rules: rules.map((rule) => ({ rule, appliedBoardIds: [], skippedBoardIds: [], invalid: [] })),
    people: { active: members.size > 0, skippedBoardIds: [] },
    totalItems: 0,
    keptItems: 0,
  };
  const out: FilteredBoard[] = [];
  for (const board of boards) {
    const predicates: { test: RowPredicate; cost: number }[] = [];
    rules.forEach((rule, i) => {
      const entry = report.rules[i] as RuleReport;
      const column = rule && typeof rule === "object" ? resolveColumn(rule.column, board) : undefined;
      if (!column) {
        entry.skippedBoardIds.push(board.id);
        return;
      }
      const compiled = compileRowRule(rule, column, board);
      if (typeof compiled === "function") {
        predicates.push({ test: compiled, cost: ruleCost(rule, column) });
        entry.appliedBoardIds.push(board.id);
      } else {
        entry.invalid.push({ boardId: board.id, reason: compiled.invalid });
      }
    });
    if (members.size > 0) {
      if (board.peopleColumnIds.length === 0) report.people.skippedBoardIds.push(board.id);
      else {
        const inPeople = peoplePredicate(board.peopleColumnIds, members);
        const items = board.items;
        predicates.push({ test: (row) => inPeople(items[row] as Item), cost: PEOPLE_COST });
      }
    }
    predicates.sort((a, b) => a.cost - b.cost);
    const rows =
      predicates.length === 0
        ? board.allRows
        : keepMatching(
            board.items.length,
            predicates.map((p) => p.test),
          );
    report.totalItems += board.items.length;
    report.keptItems += rows.length;
    out.push({ board, rows });
  }
  return { boards: out, report };
}

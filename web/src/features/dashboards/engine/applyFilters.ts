/**
 * The one filtering step every widget reads from: the dashboard's rules (AND-combined) and its
 * People filter. A rule constrains only the boards that have its column; the report says which
 * boards each rule skipped so the toolbar never filters silently.
 */
import { bucketCodes } from "./columnar";
import { type RowFilter, compileRowRule, keepByFlags } from "./rowRule";
import { resolveColumn } from "./resolveColumn";
import type {
  Column,
  DashboardFilters,
  FilteredBoard,
  FilteredData,
  FilterReport,
  FilterRule,
  PreparedBoard,
  RuleReport,
} from "./types";

/**
 * The People filter on one board: an item passes when any of its people columns names one of
 * `members`. Each column's people are coded once per load, so this decides per person, not per
 * item, and loops over typed arrays.
 */
function peopleFilter(board: PreparedBoard, members: ReadonlySet<string>): RowFilter {
  return (rows) => {
    const hit = new Uint8Array(board.items.count);
    for (const id of board.peopleColumnIds) {
      const column = board.columnsById.get(id) as Column;
      const { entries, codes, offsets } = bucketCodes(board, column, "day");
      const wanted = Uint8Array.from(entries, (entry) => (members.has(entry.key) ? 1 : 0));
      if (offsets) markNamed(rows, codes, offsets, wanted, hit);
    }
    return keepByFlags(rows, hit, 1);
  };
}

function markNamed(
  rows: Uint32Array,
  codes: Int32Array,
  offsets: Int32Array,
  wanted: Uint8Array,
  hit: Uint8Array,
): void {
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const to = offsets[row + 1] as number;
    for (let j = offsets[row] as number; j < to; j++) {
      if (wanted[codes[j] as number] === 1) {
        hit[row] = 1;
        break;
      }
    }
  }
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
    const narrowings: { keep: RowFilter; cost: number }[] = [];
    rules.forEach((rule, i) => {
      const entry = report.rules[i] as RuleReport;
      const column = rule && typeof rule === "object" ? resolveColumn(rule.column, board) : undefined;
      if (!column) {
        entry.skippedBoardIds.push(board.id);
        return;
      }
      const compiled = compileRowRule(rule, column, board);
      if (typeof compiled === "function") {
        narrowings.push({ keep: compiled, cost: ruleCost(rule, column) });
        entry.appliedBoardIds.push(board.id);
      } else {
        entry.invalid.push({ boardId: board.id, reason: compiled.invalid });
      }
    });
    if (members.size > 0) {
      if (board.peopleColumnIds.length === 0) report.people.skippedBoardIds.push(board.id);
      else narrowings.push({ keep: peopleFilter(board, members), cost: PEOPLE_COST });
    }
    // Each narrowing sees only what the ones before it kept.
    narrowings.sort((a, b) => a.cost - b.cost);
    let rows = board.allRows;
    for (const { keep } of narrowings) rows = keep(rows);
    report.totalItems += board.items.count;
    report.keptItems += rows.length;
    out.push({ board, rows });
  }
  return { boards: out, report };
}

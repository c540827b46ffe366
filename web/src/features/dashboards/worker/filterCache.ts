/**
 * Filter results kept per filter, so going back to a filter seen before redraws from what was
 * computed then instead of filtering 100,000 items and computing every widget again.
 *
 * The bound: at most `MAX_FILTERS` filters, the least recently used dropped first, and all of
 * them dropped as soon as the boards change (a new read, a board connected or dropped), since
 * results of other data are wrong. An entry holds the filter's kept row numbers, a view over a
 * buffer as long as the rows it filtered (at most 4 bytes per item whatever it keeps: 400 KB for
 * 100,000 items; nothing when no rule applies, since the board's own rows are kept), and its
 * widgets' results: figures and chart series are small, but a table keeps as many rows as its
 * own limit. So 100,000 items cost at most about 3.2 MB of row numbers beyond the boards, plus
 * eight copies of the tables' shown rows.
 */
import type { WidgetResult } from "../engine/computeWidget";
import type { FilteredData } from "../engine/types";

export const MAX_FILTERS = 8;

/** A widget's result and the type and settings it was computed for. */
export interface ComputedWidget {
  key: string;
  result: WidgetResult;
  /** The result's JSON, made once when it is first compared with what the page holds. */
  json?: string;
}

export interface FilterEntry {
  filtered: FilteredData;
  /** By widget id. */
  computed: ReadonlyMap<string, ComputedWidget>;
  /** The data key these results were last sent under. */
  key: number;
}

export class FilterCache<Boards> {
  private boards: Boards | null = null;
  /** In use order, least recent first (a `Map` iterates in insertion order). */
  private readonly entries = new Map<string, FilterEntry>();

  constructor(private readonly limit = MAX_FILTERS) {}

  /** The entry of this filter over these very boards, marked as the most recently used. */
  get(boards: Boards, filtersKey: string): FilterEntry | undefined {
    if (boards !== this.boards) return undefined;
    const entry = this.entries.get(filtersKey);
    if (entry) {
      this.entries.delete(filtersKey);
      this.entries.set(filtersKey, entry);
    }
    return entry;
  }

  set(boards: Boards, filtersKey: string, entry: FilterEntry): void {
    if (boards !== this.boards) {
      this.entries.clear();
      this.boards = boards;
    }
    this.entries.delete(filtersKey);
    this.entries.set(filtersKey, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

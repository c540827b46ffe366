/**
 * The Stats tab's figures, apart from its drawing: per category over the week, the average wait
 * before a row was acted on, the pile-up of unread rows per day, the rows looked at and left
 * without action, and the time spent; and the page's own view tally that becomes its reports.
 */
import type { Category, InboxRow, StatsWeek, ViewReport } from "../../shared/api/types.generated";

export interface CategoryFigures {
  category: Category;
  actions: number;
  /** Average wait before the first action, in ms; `null` when nothing was acted on. */
  averageWaitMs: number | null;
  /** Unread rows at the end of each day of the week, oldest first; `null` before the first sample. */
  pileUp: (number | null)[];
  looks: number;
  idleLooks: number;
  visibleMs: number;
}

/**
 * One entry per category that has anything recorded, busiest first (most time spent, then most
 * actions). A day without a sample carries the last known unread count forward: the pile stays
 * where it was until something changes it.
 */
export function weekFigures(week: StatsWeek): CategoryFigures[] {
  const byCategory = new Map<Category, CategoryFigures & { waitMs: number }>();
  const dayIndex = new Map(week.days.map((day, i) => [day, i]));
  for (const row of week.rows) {
    const at = dayIndex.get(row.day);
    if (at === undefined) continue;
    let figures = byCategory.get(row.category);
    if (!figures) {
      figures = {
        category: row.category,
        actions: 0,
        waitMs: 0,
        averageWaitMs: null,
        pileUp: week.days.map(() => null),
        looks: 0,
        idleLooks: 0,
        visibleMs: 0,
      };
      byCategory.set(row.category, figures);
    }
    figures.actions += row.actions;
    figures.waitMs += row.waitMs;
    figures.looks += row.looks;
    figures.idleLooks += row.idleLooks;
    figures.visibleMs += row.visibleMs;
    if (row.unread !== null) figures.pileUp[at] = row.unread;
  }
  return [...byCategory.values()]
    .map(({ waitMs, ...figures }) => ({
      ...figures,
      averageWaitMs: figures.actions > 0 ? Math.round(waitMs / figures.actions) : null,
      pileUp: carryForward(figures.pileUp),
    }))
    .sort((a, b) => b.visibleMs - a.visibleMs || b.actions - a.actions || a.category.localeCompare(b.category));
}

function carryForward(samples: readonly (number | null)[]): (number | null)[] {
  let last: number | null = null;
  return samples.map((sample) => (last = sample ?? last));
}

/** The week's totals over every category, for the tab's headline. */
export function weekTotals(figures: readonly CategoryFigures[]) {
  const actions = figures.reduce((sum, f) => sum + f.actions, 0);
  const waited = figures.reduce((sum, f) => sum + (f.averageWaitMs ?? 0) * f.actions, 0);
  return {
    actions,
    averageWaitMs: actions > 0 ? Math.round(waited / actions) : null,
    looks: figures.reduce((sum, f) => sum + f.looks, 0),
    idleLooks: figures.reduce((sum, f) => sum + f.idleLooks, 0),
    visibleMs: figures.reduce((sum, f) => sum + f.visibleMs, 0),
  };
}

/** A duration as people say it: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "–";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** How long a row must stay on screen to count as looked at. */
export const LOOK_MS = 1000;

/**
 * What the page saw since its last report: per row on screen, since when and whether it was
 * untouched then; per category, visible time and finished looks. Rows are keyed by id here, in the
 * browser only: the reports that leave it carry counts per category.
 */
export interface ViewTally {
  onScreen: Map<string, { category: Category; since: number; untouched: boolean }>;
  looked: Map<string, { category: Category; untouched: boolean }>;
  visibleMs: Map<Category, number>;
}

export const emptyTally = (): ViewTally => ({ onScreen: new Map(), looked: new Map(), visibleMs: new Map() });

const untouched = (row: InboxRow) => row.readAt === null && row.archivedAt === null;

/** A row came on screen at `at`. */
export function rowShown(tally: ViewTally, row: InboxRow, at: number) {
  if (!tally.onScreen.has(row.id)) {
    tally.onScreen.set(row.id, { category: row.category, since: at, untouched: untouched(row) });
  }
}

/** A row left the screen (or the page was hidden) at `at`: its time counts, and a look if long enough. */
export function rowHidden(tally: ViewTally, id: string, at: number) {
  const shown = tally.onScreen.get(id);
  if (!shown) return;
  tally.onScreen.delete(id);
  const ms = Math.max(0, at - shown.since);
  tally.visibleMs.set(shown.category, (tally.visibleMs.get(shown.category) ?? 0) + ms);
  if (ms >= LOOK_MS && !tally.looked.has(id))
    tally.looked.set(id, { category: shown.category, untouched: shown.untouched });
}

/**
 * Closes the period at `at`: rows still on screen count up to now and go on from now. A look is
 * idle when its row was untouched when seen and still is (nothing read, archived or answered it);
 * a row no longer listed is not counted idle, as archiving is one way to leave the list.
 * Returns the reports (nothing when nothing was seen) and the tally to carry on with.
 */
export function closeTally(
  tally: ViewTally,
  rows: readonly InboxRow[],
  at: number,
): { reports: ViewReport[]; next: ViewTally } {
  const next = emptyTally();
  for (const [id, shown] of tally.onScreen) {
    rowHidden(tally, id, at);
    next.onScreen.set(id, { ...shown, since: at });
  }
  const now = new Map(rows.map((r) => [r.id, r]));
  const reports = new Map<Category, ViewReport>();
  const report = (category: Category) => {
    let r = reports.get(category);
    if (!r) reports.set(category, (r = { category, looks: 0, idleLooks: 0, visibleMs: 0 }));
    return r;
  };
  for (const [category, ms] of tally.visibleMs) if (ms > 0) report(category).visibleMs += Math.round(ms);
  for (const [id, look] of tally.looked) {
    const r = report(look.category);
    r.looks += 1;
    const row = now.get(id);
    if (look.untouched && row !== undefined && untouched(row)) r.idleLooks += 1;
  }
  return { reports: [...reports.values()].sort((a, b) => a.category.localeCompare(b.category)), next };
}

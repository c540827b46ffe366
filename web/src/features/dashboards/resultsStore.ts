/**
 * Widget results outside React state: each widget, the kept-items count and the filter notes
 * subscribe to what they show, so a filter result redraws those and nothing else (not the page,
 * its toolbar or the grid around the widgets). The results of the last few views are kept, so
 * going back to one shows it at once, in the edit's own task, while the worker is asked only
 * whether they still hold.
 */
import { useSyncExternalStore } from "react";
import type { FilterReport } from "./engine/types";
import type { WidgetResult } from "./engine/computeWidget";
import type { ResultsUpdate } from "./worker/dashboardCore";
import { MAX_FILTERS } from "./worker/filterCache";

export interface ResultsSnapshot {
  /** 0 until the first results; then changes with every new filter result. */
  dataKey: number;
  report: FilterReport;
  results: ReadonlyMap<string, WidgetResult>;
}

/** Where widgets read their results: a snapshot replaced as a whole, and a way to hear of it. */
export interface ResultsSource {
  subscribe: (onChange: () => void) => () => void;
  getSnapshot: () => ResultsSnapshot;
}

export const EMPTY_REPORT: FilterReport = {
  rules: [],
  people: { active: false, skippedBoardIds: [] },
  totalItems: 0,
  keptItems: 0,
};

export const NO_RESULTS: ResultsSnapshot = { dataKey: 0, report: EMPTY_REPORT, results: new Map() };

/**
 * Folds one update into a snapshot: results of the same data merge by widget id, new data
 * replaces them; a result the update says is unchanged stays the very object it was, so its
 * widget is not drawn again.
 */
export function applyResults(snapshot: ResultsSnapshot, update: ResultsUpdate): ResultsSnapshot {
  const merged = new Map(update.dataKey === snapshot.dataKey ? snapshot.results : []);
  for (const id of update.unchanged) {
    const kept = snapshot.results.get(id);
    if (kept) merged.set(id, kept);
  }
  for (const [id, result] of Object.entries(update.results)) merged.set(id, result);
  return { dataKey: update.dataKey, report: update.report, results: merged };
}

export class ResultsStore implements ResultsSource {
  /** What the page shows. */
  private snapshot = NO_RESULTS;
  /** What the worker's updates build on: what it last sent, or a kept view it was told of. */
  private held = NO_RESULTS;
  /** How many results messages came from the worker. */
  private received = 0;
  /** The results last received per view (the page's view key), least recently shown first. */
  private readonly views = new Map<string, ResultsSnapshot>();
  /** The boards every kept view is of. */
  private boardsVersion: number | null = null;
  private readonly listeners = new Set<() => void>();

  subscribe = (onChange: () => void): (() => void) => {
    this.listeners.add(onChange);
    return () => this.listeners.delete(onChange);
  };

  getSnapshot = (): ResultsSnapshot => this.snapshot;

  apply(update: ResultsUpdate): void {
    this.received++;
    if (update.boardsVersion !== this.boardsVersion) {
      this.views.clear();
      this.boardsVersion = update.boardsVersion;
    }
    const kept = update.kept && update.viewKey !== undefined ? this.views.get(update.viewKey) : undefined;
    if (kept?.dataKey === update.dataKey) {
      // Already shown, when it was chosen; the page may show another kept view since.
      this.held = kept;
      return;
    }
    this.held = applyResults(this.held, update);
    if (update.viewKey !== undefined) this.keep(update.viewKey, this.held);
    this.set(this.held);
  }

  /**
   * Shows the results kept for `viewKey`, if any, at once; returns what the worker needs to tell
   * whether they still hold (see the `view` request's `shown`), or null when none are kept.
   */
  show(viewKey: string): { dataKey: number; seen: number } | null {
    const kept = this.views.get(viewKey);
    if (!kept) return null;
    this.keep(viewKey, kept);
    this.set(kept);
    return { dataKey: kept.dataKey, seen: this.received };
  }

  private keep(viewKey: string, snapshot: ResultsSnapshot): void {
    this.views.delete(viewKey);
    this.views.set(viewKey, snapshot);
    for (const oldest of this.views.keys()) {
      if (this.views.size <= MAX_FILTERS) break;
      this.views.delete(oldest);
    }
  }

  private set(snapshot: ResultsSnapshot): void {
    if (snapshot === this.snapshot) return;
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}

/** A source that never changes, for results computed once (the public page). */
export function fixedResults(snapshot: ResultsSnapshot): ResultsSource {
  return { subscribe: () => () => undefined, getSnapshot: () => snapshot };
}

/** One part of the current results; the caller re-renders only when that part changes. */
export function useResults<T>(source: ResultsSource, select: (snapshot: ResultsSnapshot) => T): T {
  return useSyncExternalStore(source.subscribe, () => select(source.getSnapshot()));
}

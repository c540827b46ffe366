/**
 * Widget results outside React state: each widget, the kept-items count and the filter notes
 * subscribe to what they show, so a filter result redraws those and nothing else (not the page,
 * its toolbar or the grid around the widgets).
 */
import { useSyncExternalStore } from "react";
import type { FilterReport } from "./engine/types";
import type { WidgetResult } from "./engine/computeWidget";
import type { ResultsUpdate } from "./worker/dashboardCore";

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
  private snapshot = NO_RESULTS;
  private readonly listeners = new Set<() => void>();

  subscribe = (onChange: () => void): (() => void) => {
    this.listeners.add(onChange);
    return () => this.listeners.delete(onChange);
  };

  getSnapshot = (): ResultsSnapshot => this.snapshot;

  apply(update: ResultsUpdate): void {
    this.snapshot = applyResults(this.snapshot, update);
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

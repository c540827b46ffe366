/**
 * The dashboard page's draft through its `Autosaver`: the current snapshot, edits that land in
 * the draft at once (and save after the debounce), and saving as the page is left.
 */
import { useCallback, useEffect, useSyncExternalStore } from "react";
import type { DashboardConfig } from "./api";
import type { AutosaveSnapshot, Autosaver } from "./autosave";

export interface Draft {
  name: string;
  config: DashboardConfig;
}

export interface DraftEditing {
  snapshot: AutosaveSnapshot<Draft>;
  /** Applies `change` to the current draft; returning the same draft changes nothing. */
  edit(change: (draft: Draft) => Draft): void;
  /** Like `edit`, for the config alone. */
  editConfig(change: (config: DashboardConfig) => DashboardConfig): void;
}

export function useAutosave(saver: Autosaver<Draft>): DraftEditing {
  const snapshot = useSyncExternalStore(saver.subscribe, saver.getSnapshot);
  const edit = useCallback(
    (change: (d: Draft) => Draft) => {
      const current = saver.getSnapshot().draft;
      const next = change(current);
      if (next !== current) saver.update(next);
    },
    [saver],
  );
  const editConfig = useCallback(
    (change: (c: DashboardConfig) => DashboardConfig) =>
      edit((d) => {
        const config = change(d.config);
        return config === d.config ? d : { ...d, config };
      }),
    [edit],
  );

  // Leaving the page saves at once; closing the tab with unsaved changes asks first.
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (saver.dirty) {
        saver.retryNow();
        e.preventDefault();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      saver.retryNow();
    };
  }, [saver]);

  return { snapshot, edit, editConfig };
}

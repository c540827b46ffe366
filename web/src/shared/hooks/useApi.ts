/** Loads one API resource for a component: data, the error to show, and a reload. */
import { useCallback, useEffect, useState } from "react";
import { apiFetch } from "../api/client";

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** `path` null means "nothing to load yet" (for example, no workspace chosen). */
export function useApi<T>(path: string | null): Resource<T> {
  const [state, setState] = useState<{ path: string | null; data?: T; error?: unknown; loading: boolean }>({
    path,
    loading: path !== null,
  });
  const [generation, setGeneration] = useState(0);

  // A new path shows as loading by itself (its state is another path's); a reload says so first.
  useEffect(() => {
    if (path === null) return;
    const abort = new AbortController();
    apiFetch<T>(path, { signal: abort.signal }).then(
      (data) => setState({ path, data, loading: false }),
      (error: unknown) => {
        if (!abort.signal.aborted) setState({ path, error, loading: false });
      },
    );
    return () => abort.abort();
  }, [path, generation]);

  const reload = useCallback(() => {
    setState((s) => ({ ...s, error: undefined, loading: s.path !== null }));
    setGeneration((g) => g + 1);
  }, []);
  const current = state.path === path;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: current ? state.loading : path !== null,
    reload,
  };
}

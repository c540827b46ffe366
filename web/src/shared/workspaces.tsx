/**
 * The caller's workspaces and the one the shell is showing. The choice is
 * remembered per browser; a remembered workspace that is gone falls back to
 * the first one.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { apiFetch } from "./api/client";
import type { Workspace } from "./api/types.generated";
import { readStored, writeStored } from "./storage";

export interface WorkspacesState {
  workspaces: Workspace[] | undefined;
  error: unknown;
  current: Workspace | undefined;
  select(id: string): void;
  create(name: string): Promise<Workspace>;
  reload(): void;
}

const STORAGE_KEY = "switchboard.workspace";
const WorkspacesContext = createContext<WorkspacesState | null>(null);

export function pickWorkspace(workspaces: Workspace[], wanted: string | null): Workspace | undefined {
  return workspaces.find((w) => w.id === wanted) ?? workspaces[0];
}

export function WorkspacesProvider({ children }: { children: ReactNode }) {
  const [workspaces, setWorkspaces] = useState<Workspace[]>();
  const [error, setError] = useState<unknown>();
  const [wanted, setWanted] = useState<string | null>(() => readStored(STORAGE_KEY));
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    apiFetch<Workspace[]>("/workspaces").then(setWorkspaces, setError);
  }, [generation]);

  const select = useCallback((id: string) => {
    writeStored(STORAGE_KEY, id);
    setWanted(id);
  }, []);

  const create = useCallback(
    async (name: string) => {
      const workspace = await apiFetch<Workspace>("/workspaces", { method: "POST", body: { name } });
      setWorkspaces((all) => [...(all ?? []), workspace]);
      select(workspace.id);
      return workspace;
    },
    [select],
  );

  const reload = useCallback(() => {
    setError(undefined);
    setGeneration((g) => g + 1);
  }, []);
  const current = workspaces ? pickWorkspace(workspaces, wanted) : undefined;
  const state = useMemo(
    () => ({ workspaces, error, current, select, create, reload }),
    [workspaces, error, current, select, create, reload],
  );
  return <WorkspacesContext.Provider value={state}>{children}</WorkspacesContext.Provider>;
}

export function useWorkspaces(): WorkspacesState {
  const state = useContext(WorkspacesContext);
  if (!state) throw new Error("useWorkspaces outside WorkspacesProvider");
  return state;
}

/**
 * The installation's settings for the whole shell: loaded once, changed with
 * `PATCH /settings/<key>`, and kept in step with what the server accepted.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { apiFetch } from "./api/client";
import { applyAppearance, colorModeOf, densityOf, resolveTheme, type Density } from "./appearance";

export type SettingsValues = Record<string, unknown>;

export interface SettingsState {
  values: SettingsValues | undefined;
  error: unknown;
  /** Resolves with the stored value; rejects with the server's ApiError (the old value stays). */
  update(key: string, value: unknown): Promise<unknown>;
  density: Density;
}

const SettingsContext = createContext<SettingsState | null>(null);

const darkQuery = () => window.matchMedia?.("(prefers-color-scheme: dark)");

function useSystemDark(): boolean {
  const [dark, setDark] = useState(() => darkQuery()?.matches ?? false);
  useEffect(() => {
    const query = darkQuery();
    if (!query) return;
    const onChange = () => setDark(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return dark;
}

/**
 * Pages shown without a session (the login page, a published dashboard) have no settings to
 * read: they follow the system's light or dark.
 */
export function SystemAppearance(): null {
  const dark = useSystemDark();
  useEffect(() => {
    applyAppearance(document.documentElement, resolveTheme("system", dark), "comfortable");
  }, [dark]);
  return null;
}

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [values, setValues] = useState<SettingsValues>();
  const [error, setError] = useState<unknown>();
  const systemDark = useSystemDark();

  useEffect(() => {
    apiFetch<SettingsValues>("/settings").then(setValues, setError);
  }, []);

  const update = useCallback(async (key: string, value: unknown) => {
    const reply = await apiFetch<{ key: string; value: unknown }>(`/settings/${encodeURIComponent(key)}`, {
      method: "PATCH",
      body: { value },
    });
    setValues((all) => ({ ...all, [key]: reply.value }));
    return reply.value;
  }, []);

  const density = densityOf(values?.pmBoardDensity);
  const theme = resolveTheme(colorModeOf(values?.pmColorMode), systemDark);
  useEffect(() => {
    applyAppearance(document.documentElement, theme, density);
  }, [theme, density]);

  const state = useMemo(() => ({ values, error, update, density }), [values, error, update, density]);
  return <SettingsContext.Provider value={state}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsState {
  const state = useContext(SettingsContext);
  if (!state) throw new Error("useSettings outside SettingsProvider");
  return state;
}

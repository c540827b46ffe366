/**
 * The installation's settings for the whole shell: loaded once, changed with
 * `PATCH /settings/<key>`, and kept in step with what the server accepted.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { apiFetch } from "./api/client";
import type { SettingsValues } from "./api/settings.generated";
import { applyAppearance, colorModeOf, densityOf, resolveTheme, type Density } from "./appearance";
import type { SettingChanged } from "./api/types.generated";
import { useStreamEvent, useStreamLifecycle } from "./stream/useStream";
import { createCatchUp } from "./stream/catchUp";

/**
 * `GET /settings` as read: the catalog's keys typed, and any key this build does not describe
 * (a newer server's) kept as it came, so the settings page can still show it.
 */
export type StoredSettings = Partial<SettingsValues> & Record<string, unknown>;

export interface SettingsState {
  values: StoredSettings | undefined;
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

function withChange(all: StoredSettings, change: SettingChanged): StoredSettings {
  return { ...all, [change.key]: change.value };
}

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [values, setValues] = useState<StoredSettings>();
  const [error, setError] = useState<unknown>();
  const systemDark = useSystemDark();

  const [catchUp] = useState(() => createCatchUp<SettingChanged>());
  const load = useCallback(() => {
    // A change heard while the read is on its way is newer than what the read may answer.
    catchUp.read(
      apiFetch<StoredSettings>("/settings"),
      (all, missed) => setValues(missed.reduce(withChange, all)),
      setError,
    );
  }, [catchUp]);
  useEffect(load, [load]);
  // A change made elsewhere (the CLI, an agent, another tab) shows here without a reload.
  useStreamEvent<SettingChanged>("settings", (change) => {
    catchUp.heard(change);
    setValues((all) => all && withChange(all, change));
  });
  useStreamLifecycle("reset", load);
  // A change made between the first read and the stream connecting sent its event to no one.
  useStreamLifecycle("open", load);

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

/**
 * The settings as read so far, or undefined outside the provider: for the shared pieces (the
 * composer's field) that a page draws alone in a test, where a missing setting means its default.
 */
export function useSettingValues(): StoredSettings | undefined {
  return useContext(SettingsContext)?.values;
}

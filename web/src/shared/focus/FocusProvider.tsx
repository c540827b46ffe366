/**
 * Focus mode and the pomodoro run, mounted once by the shell above the inbox status: the state is
 * the server's (`GET /focus`, `GET /pomodoro`), kept by the `focus` and `pomodoro` events, so two
 * open tabs show the same thing. When focus mode ends, what it held is told once: a toast, and one
 * system notification where the browser allows them.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { apiFetch } from "../api/client";
import type { FocusEvent, FocusState, PomodoroChange, PomodoroState } from "../api/types.generated";
import { useSettings, type StoredSettings } from "../settings";
import { useStreamEvent, useStreamLifecycle } from "../stream/useStream";
import { useToast } from "../ui/toasts";
import { releaseText, type FocusHold } from "./focus";

export interface FocusStatus {
  focus: FocusState | undefined;
  pomodoro: PomodoroState | undefined;
  /** Whether focus mode holds notifications, and what pierces it, as last rendered. */
  hold: FocusHold;
  /**
   * The same as of this instant, for a stream handler: a `focus` event and an `inbox` event of
   * one burst reach their handlers before React renders between them.
   */
  holdNow(values: StoredSettings | undefined): FocusHold;
  /** `focusModeFeatureEnabled`: off hides the focus control. */
  featureOn: boolean;
  setFocus(on: boolean): void;
  changePomodoro(change: PomodoroChange): void;
}

const FocusContext = createContext<FocusStatus | null>(null);

export function FocusProvider({ children }: { children: ReactNode }) {
  const { values } = useSettings();
  const toast = useToast();
  const [focus, setFocus_] = useState<FocusState>();
  const onNow = useRef(false);
  const setFocusState = useCallback((state: FocusState) => {
    onNow.current = state.on;
    setFocus_(state);
  }, []);
  const [pomodoro, setPomodoro] = useState<PomodoroState>();

  const load = useCallback(() => {
    apiFetch<FocusState>("/focus").then(setFocusState, () => {});
    apiFetch<PomodoroState>("/pomodoro").then(setPomodoro, () => {});
  }, [setFocusState]);
  useEffect(load, [load]);
  useStreamLifecycle("reset", load);
  useStreamLifecycle("open", load);

  const released = useCallback(
    (event: FocusEvent) => {
      setFocusState({ on: event.on, since: event.since, by: event.by });
      // A break that released nothing needs no word: the pill says focus mode is off.
      if (!event.released || event.released.count === 0) return;
      const text = releaseText(event.released);
      toast.info(text);
      if (typeof Notification !== "undefined" && Notification.permission === "granted") {
        try {
          // One tag for every tab, so the system shows the summary once.
          new Notification("Focus mode ended", { body: text, tag: `focus-${event.released.since}` });
        } catch {
          // Some browsers only notify through a service worker; the toast said it.
        }
      }
    },
    [toast, setFocusState],
  );
  useStreamEvent<FocusEvent>("focus", released);
  useStreamEvent<PomodoroState>("pomodoro", setPomodoro);

  const setFocus = useCallback(
    (on: boolean) => {
      // The reply is the event this tab also receives: the stream shows the summary once.
      apiFetch<FocusEvent>("/focus", { method: "PUT", body: { on } }).then(
        (after) => setFocusState({ on: after.on, since: after.since, by: after.by }),
        (error: unknown) => toast.error(error, on ? "Focus mode did not turn on" : "Focus mode did not turn off"),
      );
    },
    [toast, setFocusState],
  );
  const changePomodoro = useCallback(
    (change: PomodoroChange) => {
      apiFetch<PomodoroState>("/pomodoro", { method: "PUT", body: change }).then(setPomodoro, (error: unknown) =>
        toast.error(error, "The pomodoro did not change"),
      );
    },
    [toast],
  );

  // Unknown until the settings arrive, so a user who turned the feature off never sees the pill flash.
  const featureOn = values !== undefined && values.focusModeFeatureEnabled !== false;
  const on = values?.focusModeFeatureEnabled !== false && focus?.on === true;
  const alarmsPierce = values?.alarmsPierceFocusMode !== false;
  const holdNow = useCallback(
    (now: StoredSettings | undefined): FocusHold => ({
      on: now?.focusModeFeatureEnabled !== false && onNow.current,
      alarmsPierce: now?.alarmsPierceFocusMode !== false,
    }),
    [],
  );
  const status = useMemo<FocusStatus>(
    () => ({ focus, pomodoro, hold: { on, alarmsPierce }, holdNow, featureOn, setFocus, changePomodoro }),
    [focus, pomodoro, on, alarmsPierce, holdNow, featureOn, setFocus, changePomodoro],
  );
  return <FocusContext.Provider value={status}>{children}</FocusContext.Provider>;
}

export function useFocus(): FocusStatus {
  const status = useContext(FocusContext);
  if (!status) throw new Error("useFocus outside FocusProvider");
  return status;
}

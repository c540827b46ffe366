/**
 * Visible, dismissable messages: every failed call that is not shown inline
 * lands here, so no error is ever swallowed. Error toasts stay as long as
 * `toastDisplayDurationSeconds` says (the shell passes it in), notices 4 s.
 * An offer (a notice with buttons, such as an agent's click-to-go request)
 * stays as long as an error: the user needs the time to decide.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { errorMessage } from "../api/errorMessage";

/** A button on a toast; clicking it runs `run` and dismisses the toast. */
export interface ToastAction {
  label: string;
  run: () => void;
}

interface Toast {
  id: number;
  kind: "error" | "info";
  text: string;
  actions: readonly ToastAction[];
}

export interface Toaster {
  error(error: unknown, context?: string): void;
  info(text: string): void;
  /** A notice with buttons. */
  offer(text: string, actions: readonly ToastAction[]): void;
  /** How long error toasts stay from now on (`toastDisplayDurationSeconds`, 3 to 30). */
  setErrorSeconds(seconds: number): void;
}

const ToastContext = createContext<Toaster | null>(null);

const INFO_MS = 4000;
/** The setting's default, until the settings are read. */
const DEFAULT_ERROR_SECONDS = 5;

/** The setting clamped to what it accepts; anything else is the default. */
export function errorToastMs(seconds: unknown): number {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return DEFAULT_ERROR_SECONDS * 1000;
  return Math.min(30, Math.max(3, Math.round(seconds))) * 1000;
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const errorMs = useRef(errorToastMs(DEFAULT_ERROR_SECONDS));

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);

  const push = useCallback(
    (kind: Toast["kind"], text: string, actions: readonly ToastAction[] = []) => {
      const id = next.current++;
      setToasts((all) => [...all.slice(-4), { id, kind, text, actions }]);
      setTimeout(() => dismiss(id), kind === "error" || actions.length > 0 ? errorMs.current : INFO_MS);
    },
    [dismiss],
  );

  const toaster = useMemo<Toaster>(
    () => ({
      error: (error, context) => push("error", context ? `${context}: ${errorMessage(error)}` : errorMessage(error)),
      info: (text) => push("info", text),
      offer: (text, actions) => push("info", text, actions),
      setErrorSeconds: (seconds) => {
        errorMs.current = errorToastMs(seconds);
      },
    }),
    [push],
  );

  return (
    <ToastContext.Provider value={toaster}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === "error" ? "alert" : "status"}>
            <span>{t.text}</span>
            {t.actions.map((action) => (
              <button
                key={action.label}
                type="button"
                className="toast-action"
                onClick={() => {
                  dismiss(t.id);
                  action.run();
                }}
              >
                {action.label}
              </button>
            ))}
            <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error("useToast outside ToastProvider");
  return toaster;
}

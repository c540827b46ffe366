/**
 * Visible, dismissable messages: every failed call that is not shown inline
 * lands here, so no error is ever swallowed.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { errorMessage } from "../api/errorMessage";

interface Toast {
  id: number;
  kind: "error" | "info";
  text: string;
}

export interface Toaster {
  error(error: unknown, context?: string): void;
  info(text: string): void;
}

const ToastContext = createContext<Toaster | null>(null);

const INFO_MS = 4000;
const ERROR_MS = 12000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);

  const push = useCallback(
    (kind: Toast["kind"], text: string) => {
      const id = next.current++;
      setToasts((all) => [...all.slice(-4), { id, kind, text }]);
      setTimeout(() => dismiss(id), kind === "error" ? ERROR_MS : INFO_MS);
    },
    [dismiss],
  );

  const toaster = useMemo<Toaster>(
    () => ({
      error: (error, context) => push("error", context ? `${context}: ${errorMessage(error)}` : errorMessage(error)),
      info: (text) => push("info", text),
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

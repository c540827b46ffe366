/**
 * Stop, Restart and Start on an app, one at a time per app: which apps have a request under way
 * (their buttons wait), and a refusal shown as a toast naming the app. The list follows by itself
 * through the stream's `apps` event; `onDone` reads it again at once all the same.
 */
import { useCallback, useRef, useState } from "react";
import { useToast } from "../ui/toasts";

export interface AppAction {
  /** The apps (or declared names) with a request under way. */
  busy: ReadonlySet<string>;
  /** Runs `request` for `name`, unless one for it is under way; `what` names it in a refusal ("Stop web"). */
  run(name: string, what: string, request: () => Promise<unknown>): void;
}

export function useAppAction(onDone: () => void): AppAction {
  const toast = useToast();
  // The ref answers at once (a double click); the state redraws the buttons.
  const underWay = useRef(new Set<string>());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const run = useCallback(
    (name: string, what: string, request: () => Promise<unknown>) => {
      if (underWay.current.has(name)) return;
      underWay.current.add(name);
      setBusy(new Set(underWay.current));
      request()
        .then(onDone, (error: unknown) => toast.error(error, what))
        .finally(() => {
          underWay.current.delete(name);
          setBusy(new Set(underWay.current));
        });
    },
    [onDone, toast],
  );
  return { busy, run };
}

/** A card's buttons: Pause or Resume and Delete, one call at a time, and what the last one was refused with. */
import { useState, type ReactNode } from "react";
import type { CadenceState } from "../../shared/api/types.generated";
import type { Change } from "./api";
import { errorMessage } from "../../shared/api/errorMessage";

/** One call at a time from a card's buttons: whether one runs, and what the last one was refused with. */
export function useCall() {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  /** Runs `run`, then `after` once it succeeded; a refusal is kept in `failed`. */
  const act = (run: () => Promise<unknown>, after: () => void) => {
    setBusy(true);
    setFailed(null);
    run().then(
      () => {
        setBusy(false);
        after();
      },
      (e: unknown) => {
        setBusy(false);
        setFailed(errorMessage(e));
      },
    );
  };
  return { busy, failed, act };
}

/** Pause (an active one) or Resume (a paused one), the card's own buttons, Delete, and the last refusal under them. */
export function CadenceActions({
  state,
  call,
  onMove,
  onDelete,
  children,
}: {
  state: CadenceState;
  call: ReturnType<typeof useCall>;
  onMove: (change: Change) => void;
  onDelete: () => void;
  /** More buttons, before Delete. */
  children?: ReactNode;
}) {
  const change: Change = state === "active" ? "pause" : "resume";
  return (
    <>
      <div className="drip-actions">
        {state !== "done" && (
          <button type="button" disabled={call.busy} onClick={() => onMove(change)}>
            {change === "pause" ? "Pause" : "Resume"}
          </button>
        )}
        {children}
        <button type="button" disabled={call.busy} onClick={onDelete}>
          Delete
        </button>
      </div>
      {call.failed && (
        <p className="inline-error" role="alert">
          {call.failed}
        </p>
      )}
    </>
  );
}

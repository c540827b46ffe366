/**
 * The Settings page's "Restart Switchboard": works whatever `allowAgentAppRestart` says (that
 * setting governs agents and scripts). It asks first, since a restart cuts every open page's
 * stream and every running session's turn. The UI server accepts the restart, drains, and starts a
 * fresh copy of itself; the page waits for `/api/me` to answer again and says so.
 */
import { useState } from "react";
import { apiFetch, apiRequest } from "../../shared/api/client";
import { errorMessage } from "../../shared/api/errorMessage";
import type { Me } from "../../shared/api/types.generated";
import { ConfirmDialog } from "../../shared/ui/Dialog";
import { useToast } from "../../shared/ui/toasts";
import { waitUntilBack } from "./waitUntilBack";

const TIMEOUT_MS = 60_000;

type RestartState = { kind: "idle" } | { kind: "restarting" } | { kind: "failed"; message: string };

/** Whether the server answers the session's `/api/me` with 200; any failure is "not yet". */
const meAnswers = () =>
  apiRequest<Me>("/me").then(
    (reply) => reply.status === 200,
    () => false,
  );

export function RestartButton() {
  const [state, setState] = useState<RestartState>({ kind: "idle" });
  const [confirming, setConfirming] = useState(false);
  const toast = useToast();

  const restart = async () => {
    setConfirming(false);
    setState({ kind: "restarting" });
    try {
      await apiFetch<undefined>("/app/user-restart", { method: "POST" });
    } catch (error) {
      setState({ kind: "failed", message: `The restart was refused: ${errorMessage(error)}` });
      return;
    }
    if (await waitUntilBack(meAnswers, { intervalMs: 500, timeoutMs: TIMEOUT_MS })) {
      setState({ kind: "idle" });
      toast.info("Switchboard is back.");
    } else {
      setState({
        kind: "failed",
        message: `Switchboard did not answer within ${TIMEOUT_MS / 1000} seconds of the restart. Check the terminal where \`switchboard serve\` runs, then reload this page.`,
      });
    }
  };

  return (
    <div className="restart">
      <button type="button" onClick={() => setConfirming(true)} disabled={state.kind === "restarting"}>
        Restart Switchboard
      </button>
      {confirming && (
        <ConfirmDialog
          title="Restart Switchboard?"
          confirmLabel="Restart now"
          onConfirm={() => void restart()}
          onClose={() => setConfirming(false)}
        >
          <p>
            The server stops and starts again on the same ports: running turns are cut off, and open pages reconnect
            once it is back.
          </p>
        </ConfirmDialog>
      )}
      {state.kind === "restarting" && (
        <span className="muted" role="status">
          Switchboard is restarting…
        </span>
      )}
      {state.kind === "failed" && (
        <p className="inline-error" role="alert">
          {state.message}
        </p>
      )}
    </div>
  );
}

/**
 * Retry: a new session with the same prompt, engine and folder as one that failed or ended, opened
 * once it is started. A refusal (the engine is gone, the folder moved) is a toast.
 */
import { useCallback } from "react";
import type { Session } from "../../shared/api/types.generated";
import { navigate, sessionPath } from "../../shared/router";
import { useToast } from "../../shared/ui/toasts";
import { spawnSession } from "./api";
import { retryRequest } from "./lifecycle";

export function useRetry(): (session: Session) => void {
  const toast = useToast();
  return useCallback(
    (session: Session) => {
      spawnSession(retryRequest(session)).then(
        (started) => navigate(sessionPath(started.id)),
        (e: unknown) => toast.error(e, "The session was not started again"),
      );
    },
    [toast],
  );
}

/**
 * `n`, from any page: open the next session that needs the user. It reads the sessions, approvals
 * and input requests afresh at the key press, so it is right on a page that keeps none of them.
 */
import { useCallback, useEffect } from "react";
import { apiFetch } from "../../shared/api/client";
import type { Approval, InputRequest } from "../../shared/api/types.generated";
import { typingIn } from "../../shared/keys";
import { navigate, sessionPath } from "../../shared/router";
import { useToast } from "../../shared/ui/toasts";
import { listSessions } from "./api";
import { nextNeedingYou } from "./board";

async function nextSession(current: string | null): Promise<string | null> {
  const [sessions, { approvals }, { inputRequests }] = await Promise.all([
    listSessions(),
    apiFetch<{ approvals: Approval[] }>("/approvals"),
    apiFetch<{ inputRequests: InputRequest[] }>("/input-requests"),
  ]);
  const asking = new Set([
    ...approvals.filter((a) => a.state === "pending").map((a) => a.sessionId),
    ...inputRequests.filter((r) => r.state === "pending").map((r) => r.sessionId),
  ]);
  return nextNeedingYou(sessions, asking, current);
}

/** The session whose page is open, if one is. */
function openSession(): string | null {
  const match = /^\/sessions\/([^/]+)\/?$/.exec(window.location.pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** Opens the next session that needs the user, or says that none does. */
export function useGoToNextNeedingYou(): () => void {
  const toast = useToast();
  return useCallback(() => {
    nextSession(openSession()).then(
      (id) => (id ? navigate(sessionPath(id)) : toast.info("Nothing needs you right now.")),
      (e: unknown) => toast.error(e, "The sessions were not read"),
    );
  }, [toast]);
}

export function useNextNeedsYouKey(): void {
  const go = useGoToNextNeedingYou();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "n" || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault();
      go();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [go]);
}

/**
 * Listens for agents' `navigate` and `foreground` events and answers them (see
 * `agentRequests.ts`), and reports this tab's presence so the server knows they can reach it.
 * Mounted once, in the shell.
 */
import { useEffect } from "react";
import type { ForegroundEvent, NavigateEvent } from "../shared/api/types.generated";
import { startPresence } from "../shared/presence";
import { navigate } from "../shared/router";
import { useStreamEvent } from "../shared/stream/useStream";
import { useToast, type ToastAction } from "../shared/ui/toasts";
import { foregroundResponse, navigateResponse } from "./agentRequests";

function notificationPermission(): NotificationPermission | "unsupported" {
  return "Notification" in window ? Notification.permission : "unsupported";
}

export function AgentRequests() {
  const toast = useToast();
  useEffect(() => startPresence(), []);

  useStreamEvent<NavigateEvent>("navigate", (event) => {
    const response = navigateResponse(event);
    if (response.kind === "go") navigate(response.path);
    else toast.offer(response.text, [{ label: "Go", run: () => navigate(response.path) }]);
  });

  useStreamEvent<ForegroundEvent>("foreground", (event) => {
    const response = foregroundResponse(event, notificationPermission());
    const { path } = response;
    if (response.kind === "notify") {
      // One tag: a newer request replaces an older one still shown rather than piling up.
      const notification = new Notification(response.title, { body: response.body, tag: "switchboard-foreground" });
      // The click is the user's gesture: only now may the page ask the browser for its tab.
      notification.onclick = () => {
        window.focus();
        if (path) navigate(path);
        notification.close();
      };
      return;
    }
    const actions: ToastAction[] = [];
    if (path) actions.push({ label: "Open session", run: () => navigate(path) });
    if (response.askPermission) {
      actions.push({
        label: "Allow notifications",
        run: () => {
          Notification.requestPermission().catch((e: unknown) => toast.error(e, "Notifications were not allowed"));
        },
      });
    }
    toast.offer(response.text, actions);
  });

  return null;
}

/**
 * Listens for agents' `navigate` and `foreground` events and answers them (see
 * `agentRequests.ts`), and reports this tab's presence so the server knows they can reach it.
 * While focus mode is on they are held and offered once when it ends. Mounted once, in the shell,
 * inside the focus provider.
 */
import { useEffect, useRef } from "react";
import type { ForegroundEvent, NavigateEvent } from "../shared/api/types.generated";
import { useFocus } from "../shared/focus/FocusProvider";
import { startPresence } from "../shared/presence";
import { navigate, sessionPath } from "../shared/router";
import { useSettings } from "../shared/settings";
import { useStreamEvent } from "../shared/stream/useStream";
import { useToast, type ToastAction } from "../shared/ui/toasts";
import {
  NOTHING_HELD,
  foregroundResponse,
  heldRequestsText,
  holdRequest,
  navigateResponse,
  type HeldRequests,
} from "./agentRequests";

function notificationPermission(): NotificationPermission | "unsupported" {
  return "Notification" in window ? Notification.permission : "unsupported";
}

export function AgentRequests() {
  const toast = useToast();
  const { hold, holdNow } = useFocus();
  const { values } = useSettings();
  const held = useRef<HeldRequests>(NOTHING_HELD);
  useEffect(() => startPresence(), []);

  /** Holds the request when focus mode is on now; says whether it did. */
  const heldByFocus = (path: string | null): boolean => {
    if (!holdNow(values).on) return false;
    held.current = holdRequest(held.current, path);
    return true;
  };

  // Offered when focus mode is seen off, by its event or by a reload of the state after the
  // stream reconnected past that event.
  useEffect(() => {
    if (hold.on) return;
    const text = heldRequestsText(held.current);
    const { path } = held.current;
    held.current = NOTHING_HELD;
    if (text) toast.offer(text, path ? [{ label: "Go", run: () => navigate(path) }] : []);
  }, [hold.on, toast]);

  useStreamEvent<NavigateEvent>("navigate", (event) => {
    if (heldByFocus(event.path)) return;
    const response = navigateResponse(event);
    if (response.kind === "go") navigate(response.path);
    else toast.offer(response.text, [{ label: "Go", run: () => navigate(response.path) }]);
  });

  useStreamEvent<ForegroundEvent>("foreground", (event) => {
    if (heldByFocus(event.sessionId ? sessionPath(event.sessionId) : null)) return;
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

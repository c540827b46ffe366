/**
 * What the web app does with an agent's `navigate` and `foreground` events. The server has
 * already applied the settings: `direct` says `allowAgentDirectNavigation` let the request
 * through, and a `foreground` event only comes while this tab is hidden and
 * `allowAgentForegroundFromBackground` is on. What is left here is the browser's part, and
 * focus mode: while it is on, requests are held (no page change, toast or notification) and told
 * once, as one offer, when it ends.
 */
import type { ForegroundEvent, NavigateEvent } from "../shared/api/types.generated";
import { sessionPath } from "../shared/router";

export type NavigateResponse = { kind: "go"; path: string } | { kind: "offer"; text: string; path: string };

export function navigateResponse(event: NavigateEvent): NavigateResponse {
  if (event.direct) return { kind: "go", path: event.path };
  return { kind: "offer", text: `${event.from} asks to open ${event.path}`, path: event.path };
}

/**
 * A system notification when the user allowed them (its click is the user gesture that may
 * bring the tab forward), else a toast the user sees on coming back. `askPermission`: the
 * toast offers to allow notifications, since browsers only ask on a click.
 */
export type ForegroundResponse =
  | { kind: "notify"; title: string; body: string; path: string | null }
  | { kind: "toast"; text: string; path: string | null; askPermission: boolean };

export function foregroundResponse(
  event: ForegroundEvent,
  permission: NotificationPermission | "unsupported",
): ForegroundResponse {
  const path = event.sessionId ? sessionPath(event.sessionId) : null;
  if (permission === "granted") {
    return { kind: "notify", title: `${event.from} asks for your attention`, body: event.reason, path };
  }
  return {
    kind: "toast",
    text: `${event.from} asks for your attention: ${event.reason}`,
    path,
    askPermission: permission === "default",
  };
}

/** What focus mode held of agents' requests: how many, and where the latest wanted to go. */
export interface HeldRequests {
  count: number;
  path: string | null;
}

export const NOTHING_HELD: HeldRequests = { count: 0, path: null };

/** One more request held; the newest path wins, as the newest request is what matters now. */
export function holdRequest(held: HeldRequests, path: string | null): HeldRequests {
  return { count: held.count + 1, path: path ?? held.path };
}

/** The offer shown when focus mode ends, or `null` when nothing was held. */
export function heldRequestsText(held: HeldRequests): string | null {
  if (held.count === 0) return null;
  return held.count === 1
    ? "While you focused, an agent asked for you."
    : `While you focused, agents asked for you ${held.count} times.`;
}

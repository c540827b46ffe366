/**
 * Tells the server whether this tab is in front (`POST /api/ui/presence`), so an agent's
 * navigation request becomes a toast here rather than an inbox note, and a foreground request a
 * system notification. The server forgets a tab silent for 75 s, so an open tab repeats itself
 * every 30 s; a closing tab says it is gone so the next request goes to the inbox at once.
 */
import { apiFetch } from "./api/client";

export const HEARTBEAT_MS = 30_000;

/** This page load's id: the same across a remount, so the server never counts one tab twice. */
const PAGE_APP_ID = crypto.randomUUID();

/** What happened to the page: it loaded (or came back from the back/forward cache), was shown or hidden, is still open, or is closing. */
export type PageMoment = "load" | "visibilitychange" | "heartbeat" | "pagehide";

export interface PresenceReport {
  appId: string;
  visible: boolean;
  gone?: true;
  /** A session's page shows: time in front here is agent-watching time (the weekly recap card). */
  sessionPage?: boolean;
}

/** Whether `path` is one session's page (`/sessions/<id>`), not the list. */
export function isSessionPage(path: string): boolean {
  return /^\/sessions\/[^/]+/.test(path);
}

/** The report for a moment; `gone` only when the page is going away. */
export function presenceReport(appId: string, moment: PageMoment, visibility: DocumentVisibilityState): PresenceReport {
  if (moment === "pagehide") return { appId, visible: false, gone: true };
  return { appId, visible: visibility === "visible" };
}

/** Starts reporting for this page; returns a function that stops (without saying gone: the page stays). */
export function startPresence(appId: string = PAGE_APP_ID): () => void {
  const report = (moment: PageMoment) => {
    const body = {
      ...presenceReport(appId, moment, document.visibilityState),
      sessionPage: isSessionPage(window.location.pathname),
    };
    if (moment === "pagehide") {
      // A fetch started while the page unloads may be cancelled; a beacon is sent regardless. It
      // carries the cookie, and the Blob's type gives it the JSON content type the server demands.
      navigator.sendBeacon("/api/ui/presence", new Blob([JSON.stringify(body)], { type: "application/json" }));
      return;
    }
    // A failed report is not shown: the next heartbeat repeats it, and a server that cannot be
    // reached already shows on every page that reads from it.
    apiFetch("/ui/presence", { method: "POST", body }).catch(() => undefined);
  };
  const onVisibility = () => report("visibilitychange");
  const onHide = () => report("pagehide");
  // A page restored from the back/forward cache said it was gone when it was hidden.
  const onShow = (event: PageTransitionEvent) => {
    if (event.persisted) report("load");
  };
  report("load");
  document.addEventListener("visibilitychange", onVisibility);
  window.addEventListener("pagehide", onHide);
  window.addEventListener("pageshow", onShow);
  const timer = window.setInterval(() => report("heartbeat"), HEARTBEAT_MS);
  return () => {
    document.removeEventListener("visibilitychange", onVisibility);
    window.removeEventListener("pagehide", onHide);
    window.removeEventListener("pageshow", onShow);
    window.clearInterval(timer);
  };
}

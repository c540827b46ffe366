/**
 * A small client-side router on the history API: the app has a handful of
 * fixed paths, so a pattern table and one `popstate` listener are all it needs.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from "react";

export type Route =
  | { name: "boards" }
  | { name: "board"; id: string }
  | { name: "dashboards" }
  | { name: "dashboard"; id: string }
  | { name: "publicDashboard"; token: string }
  | { name: "inbox" }
  | { name: "sessions" }
  | { name: "session"; id: string }
  | { name: "settings" }
  | { name: "tasks" }
  | { name: "caught" }
  | { name: "bugs" }
  | { name: "runners" }
  | { name: "apps" }
  | { name: "ask" }
  | { name: "work" }
  | { name: "scheduledMessages" }
  | { name: "drips" }
  | { name: "drip"; id: string }
  | { name: "automations" }
  | { name: "calendar" }
  | { name: "mail" }
  | { name: "feeds" }
  | { name: "texts" }
  | { name: "messenger" }
  | { name: "briefing" }
  | { name: "drive" }
  | { name: "sheets" }
  | { name: "team" }
  | { name: "meetingRooms" }
  | { name: "notFound"; path: string };

function segment(raw: string): string | null {
  try {
    const decoded = decodeURIComponent(raw);
    return decoded ? decoded : null;
  } catch {
    return null;
  }
}

export function matchRoute(pathname: string): Route {
  const parts = pathname.replace(/\/+$/, "").split("/").slice(1);
  const [first = "", second, ...rest] = parts;
  if (rest.length > 0) return { name: "notFound", path: pathname };
  const id = second === undefined ? null : segment(second);
  switch (first) {
    case "":
      if (second === undefined) return { name: "sessions" };
      break;
    case "boards":
      if (second === undefined) return { name: "boards" };
      if (id) return { name: "board", id };
      break;
    case "dashboards":
      if (second === undefined) return { name: "dashboards" };
      if (id) return { name: "dashboard", id };
      break;
    case "p":
      if (id) return { name: "publicDashboard", token: id };
      break;
    case "sessions":
      if (second === undefined) return { name: "sessions" };
      if (id) return { name: "session", id };
      break;
    case "meeting-rooms":
      if (second === undefined) return { name: "meetingRooms" };
      break;
    case "scheduled-messages":
      if (second === undefined) return { name: "scheduledMessages" };
      break;
    case "drips":
      if (second === undefined) return { name: "drips" };
      if (id) return { name: "drip", id };
      break;
    case "tasks":
      if (second === undefined) return { name: "tasks" };
      if (second === "caught") return { name: "caught" };
      break;
    case "inbox":
    case "settings":
    case "bugs":
    case "runners":
    case "apps":
    case "ask":
    case "work":
    case "automations":
    case "calendar":
    case "mail":
    case "feeds":
    case "texts":
    case "messenger":
    case "briefing":
    case "drive":
    case "sheets":
    case "team":
      if (second === undefined) return { name: first };
      break;
  }
  return { name: "notFound", path: pathname };
}

/** The address of the session page, the inverse of the `session` route. */
/** A board's page. */
export const boardPath = (boardId: string) => `/boards/${encodeURIComponent(boardId)}`;

/** A board's page showing one of its items (scrolled to, marked and focused). */
export const itemPath = (boardId: string, itemId: string) => `${boardPath(boardId)}?item=${encodeURIComponent(itemId)}`;

export const sessionPath = (id: string) => `/sessions/${encodeURIComponent(id)}`;
/** The fragment of a session's page that is its changed files. */
export const CHANGES_FRAGMENT = "changes";
/** A session's changed files: its page, scrolled to them. */
export const sessionChangesPath = (id: string) => `${sessionPath(id)}#${CHANGES_FRAGMENT}`;

const NAVIGATE_EVENT = "switchboard:navigate";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("popstate", onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

export function usePathname(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => "/",
  );
}

/** The address's `#fragment` without the `#` (a settings pane), following navigations and hash changes. */
export function useHash(): string {
  return useSyncExternalStore(
    subscribeWithHash,
    () => window.location.hash.slice(1),
    () => "",
  );
}

/** One `?name=` parameter of the address (`null` when absent), following navigations. */
export function useSearchParam(name: string): string | null {
  const search = useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => "",
  );
  return new URLSearchParams(search).get(name);
}

function subscribeWithHash(onChange: () => void): () => void {
  const unsubscribe = subscribe(onChange);
  window.addEventListener("hashchange", onChange);
  return () => {
    unsubscribe();
    window.removeEventListener("hashchange", onChange);
  };
}

/** An address outside the app (a bookmarked link): opened in a new tab, never pushed as a path. */
export function isExternal(to: string): boolean {
  return /^https?:\/\//i.test(to);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (isExternal(to)) {
    window.open(to, "_blank", "noopener,noreferrer");
    return;
  }
  if (options.replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** An anchor that navigates in place on a plain left click and behaves natively otherwise. */
export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}

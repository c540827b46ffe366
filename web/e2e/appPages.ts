/**
 * Every page of the app, found in a running `serve --demo`: each section of the sidebar, one of
 * the demo's sessions, boards and dashboards, a drip's detail (made here when the demo has none),
 * the dashboard's public link (published here), the login page and the page for an unknown
 * address. The layout test and the screenshot script walk the same list, so a page added here is
 * both checked and photographed.
 */
import type { Page } from "playwright-core";
import type { Board, Dashboard, DripList, PublishedLink, Session, Workspace } from "../src/shared/api/types.generated";
import { sessionTitle } from "../src/features/sessions/lifecycle";
import type { RunningServer } from "./harness";

export interface AppPage {
  /** A short name for files and reports: `agents`, `board`, `drip`… */
  readonly slug: string;
  /** What a reader calls it: the section's label, or the kind of thing and its name. */
  readonly name: string;
  readonly path: string;
  /** The path as a reader should see it: ids as `:id`, who sees it. The path itself when absent. */
  readonly pattern?: string;
  /** What says the page is drawn: a heading of that name, or an element matching a selector. */
  readonly ready: { readonly heading: string } | { readonly selector: string };
  /**
   * The tab title it must have: the thing's name on a board, dashboard, session or drip page, the
   * section's label on a section's page; `null` where the app sets no rule (login, not found).
   */
  readonly title: string | null;
  /** Opened without the owner's cookie: the login page and a published dashboard. */
  readonly anonymous?: boolean;
  /** What the screen shows of the demo, for docs/screens/README.md. */
  readonly shows: string;
}

/** The app's tab titles end so; the inbox badge ("(3) ") in front is not the page's. */
export const pageTitle = (name: string) => `${name} · Switchboard`;
export const withoutBadge = (title: string) => title.replace(/^\(\d+\+?\) /, "");

async function read<T>(server: RunningServer, path: string): Promise<T> {
  const reply = await server.api<T>("GET", path);
  if (reply.status !== 200) throw new Error(`GET ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

async function made<T>(server: RunningServer, path: string, body?: unknown): Promise<T> {
  const reply = await server.api<T>("POST", path, body);
  if (reply.status !== 200 && reply.status !== 201) {
    throw new Error(`POST ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  }
  return reply.body;
}

/** The session a newcomer opens first: the one waiting for them, else the first on the board. */
function firstSession(sessions: readonly Session[]): Session {
  const open = sessions.filter((s) => !s.archived);
  const session = open.find((s) => s.status === "waiting_for_input") ?? open[0];
  if (!session) throw new Error("the demo has no session");
  return session;
}

/** A drip to open: the demo's first, or one made with two items. */
async function someDrip(server: RunningServer): Promise<{ id: string; name: string }> {
  const { drips } = await read<DripList>(server, "/drips");
  const existing = drips[0];
  if (existing) return existing;
  const drip = await made<{ id: string; name: string }>(server, "/drips", {
    name: "Rust in small bites",
    rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
    timeZone: "Europe/Berlin",
  });
  for (const [name, content] of [
    ["1-ownership.md", "# Ownership\n\nEvery value has one owner; moving it hands it on."],
    ["2-borrowing.md", "# Borrowing\n\nMany readers or one writer, never both at once."],
  ]) {
    await made(server, `/drips/${drip.id}/items`, { name, content });
  }
  return drip;
}

/**
 * A section's page: `name` is the sidebar's label and its tab title; `heading` says it is drawn
 * where the page heads itself otherwise, `tabName` where its tab says another section's name.
 */
function section(
  slug: string,
  path: string,
  name: string,
  shows: string,
  { heading = name, tabName = name }: { heading?: string; tabName?: string } = {},
): AppPage {
  return { slug, name, path, shows, ready: { heading }, title: pageTitle(tabName) };
}

/** The sections' pages, as the sidebar names them (web/src/app/Shell.tsx) and as they head themselves. */
const SECTIONS: readonly AppPage[] = [
  section(
    "agents",
    "/",
    "Agents",
    "The agent board: what asked or failed under Needs you (with a reply box), what runs, and turns that did their work under Done.",
  ),
  section(
    "inbox",
    "/inbox",
    "Inbox",
    "Needs you first (sessions that asked or failed), then the rows by category, with a setting's fix as a button where a setting refused a run.",
  ),
  section("boards", "/boards", "Boards", "The workspace's boards."),
  section("dashboards", "/dashboards", "Dashboards", "The workspace's dashboards."),
  section(
    "calendar",
    "/calendar",
    "Calendar",
    "The month with each sprint named by its board, a legend of board colours, +N more on a busy day; a phone opens the agenda.",
  ),
  section("tasks", "/tasks", "Tasks", "Tasks by state, from tasks.md and sessions."),
  section("tasks-caught", "/tasks/caught", "Tasks: caught", "Follow-ups caught from sessions, to keep or drop.", {
    heading: "Tasks",
    tabName: "Tasks",
  }),
  section("bugs", "/bugs", "Bug Intake", "Bug reports and their triage sessions."),
  section("runners", "/runners", "Runners", "Where sessions can run: this machine and runners.toml's hosts."),
  section(
    "work",
    "/work",
    "Work",
    "Work by state, each card led by its session's title, commits ahead and behind in words, Pull request only where a code host is set up.",
    { heading: "Where's my work" },
  ),
  section(
    "apps",
    "/apps",
    "Running apps",
    "The dev servers sessions run, by session, each opened at its own .localhost name through the proxy, with Stop, Restart and its last lines; with none, how one appears.",
  ),
  section(
    "automations",
    "/automations",
    "Automations",
    "Recipes with their runs (each titled by what it was about and when), schedules and rules, with Run now and Test.",
  ),
  section(
    "scheduled-messages",
    "/scheduled-messages",
    "Scheduled messages",
    "Messages to sessions at a time, with the one schedule picker.",
  ),
  section("drips", "/drips", "Drips", "Queues of messages released on a schedule, with Release next now."),
  section(
    "ask",
    "/ask",
    "Ask",
    "A box to ask the tutor about Switchboard and this installation, and the questions asked so far, each opening its conversation.",
  ),
  section("settings", "/settings", "Settings", "Every setting by section, in plain words."),
];

/**
 * Every page of the app on `server`, a `serve --demo`. It publishes the demo's first dashboard
 * and, when the demo has no drip, makes one: call it once per server.
 */
export async function appPages(server: RunningServer): Promise<AppPage[]> {
  const [workspace] = await read<Workspace[]>(server, "/workspaces");
  if (!workspace) throw new Error("the demo has no workspace");
  const scope = `?workspaceId=${encodeURIComponent(workspace.id)}`;
  const [board] = await read<Board[]>(server, `/boards${scope}`);
  if (!board) throw new Error("the demo has no board");
  const [dashboard] = await read<Dashboard[]>(server, `/dashboards${scope}`);
  if (!dashboard) throw new Error("the demo has no dashboard");
  const session = firstSession(await read<Session[]>(server, "/sessions"));
  const drip = await someDrip(server);
  const link = await made<PublishedLink>(server, `/dashboards/${encodeURIComponent(dashboard.id)}/publish`);
  const name = sessionTitle(session);
  return [
    ...SECTIONS,
    {
      slug: "session",
      name: `Session: ${name}`,
      path: `/sessions/${encodeURIComponent(session.id)}`,
      pattern: "/sessions/:id",
      ready: { heading: name },
      title: pageTitle(name),
      shows: "One session: its status, its transcript folded to its answers, and the composer.",
    },
    {
      slug: "board",
      name: `Board: ${board.name}`,
      path: `/boards/${encodeURIComponent(board.id)}`,
      pattern: "/boards/:id",
      ready: { heading: board.name },
      title: pageTitle(board.name),
      shows: "A board's groups and items with their typed columns.",
    },
    {
      slug: "dashboard",
      name: `Dashboard: ${dashboard.name}`,
      path: `/dashboards/${encodeURIComponent(dashboard.id)}`,
      pattern: "/dashboards/:id",
      ready: { selector: "[data-filter-key]" },
      title: pageTitle(dashboard.name),
      shows: "A dashboard's widgets over its boards, under one filter toolbar.",
    },
    {
      slug: "drip",
      name: `Drip: ${drip.name}`,
      path: `/drips/${encodeURIComponent(drip.id)}`,
      pattern: "/drips/:id",
      ready: { heading: drip.name },
      title: pageTitle(drip.name),
      shows: "One drip: its items, what went out, and what comes next.",
    },
    {
      slug: "public-dashboard",
      name: `Published dashboard: ${dashboard.name}`,
      path: `/p/${encodeURIComponent(link.token)}`,
      pattern: "/p/:token (signed out)",
      ready: { heading: dashboard.name },
      title: pageTitle(dashboard.name),
      anonymous: true,
      shows: "A dashboard published to the web, as a visitor without a login sees it.",
    },
    {
      slug: "login",
      name: "Log in",
      path: "/",
      pattern: "/ (signed out)",
      ready: { heading: "Switchboard" },
      title: null,
      anonymous: true,
      shows: "The login page a signed-out visitor meets.",
    },
    {
      slug: "not-found",
      name: "Not found",
      path: "/no/such/page",
      ready: { heading: "Not found" },
      title: null,
      shows: "An address the app does not know.",
    },
  ];
}

/**
 * Opens `target` on `page` and waits until it is drawn and the network is quiet; what went wrong
 * when it never says it is drawn (the page is left as it is, for the caller to report).
 */
export async function openPage(page: Page, uiUrl: string, target: AppPage, timeout = 15_000): Promise<string | null> {
  await page.goto(`${uiUrl}${target.path}`);
  const ready =
    "heading" in target.ready
      ? page.getByRole("heading", { name: target.ready.heading, exact: true }).first()
      : page.locator(target.ready.selector).first();
  try {
    await ready.waitFor({ timeout });
  } catch {
    return "heading" in target.ready
      ? `no heading "${target.ready.heading}" within ${timeout} ms`
      : `nothing matches ${target.ready.selector} within ${timeout} ms`;
  }
  await page.waitForLoadState("networkidle");
  return null;
}

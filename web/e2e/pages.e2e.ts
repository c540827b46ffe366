/**
 * No page of the app logs a console error or throws: each section, a board, a dashboard and its
 * published link, on `switchboard serve --demo`, and the page a visitor without a session gets.
 */
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import { consoleErrors, loggedInPage, serverAndBrowser, widgetsDrawn } from "./harness";

const e2e = serverAndBrowser({ args: ["--demo"] });

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const reply = await e2e.server.api<T>(method, path, body);
  if (reply.status >= 300) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Opens `path` and waits until it has drawn `ready` and made every request it will make. */
async function visit(page: Page, path: string, ready: (page: Page) => Promise<unknown>): Promise<void> {
  await page.goto(`${e2e.server.uiUrl}${path}`);
  await ready(page);
  await page.waitForLoadState("networkidle");
}

const heading = (name: string) => (page: Page) => page.getByRole("heading", { name, exact: true }).waitFor();

test("no page of the app logs a console error", async () => {
  const [workspace] = await api<{ id: string }[]>("GET", "/workspaces");
  if (!workspace) throw new Error("the demo has no workspace");
  const boards = await api<{ id: string; name: string }[]>("GET", `/boards?workspaceId=${workspace.id}`);
  const [board] = boards;
  if (!board) throw new Error("the demo has no board");
  const dashboard = await api<{ id: string }>("POST", "/dashboards", {
    workspaceId: workspace.id,
    name: "Every page",
    config: {
      boardIds: boards.map((b) => b.id),
      filters: {},
      widgets: [
        { id: "n1", type: "numbers", layout: { x: 0, y: 0, w: 3, h: 3 }, settings: { function: "count" } },
        { id: "c1", type: "chart", layout: { x: 3, y: 0, w: 6, h: 4 }, settings: { groupBy: "board" } },
      ],
    },
  });
  const link = await api<{ token: string }>("POST", `/dashboards/${dashboard.id}/publish`);

  const { context, page } = await loggedInPage(e2e, "/");
  const errors = consoleErrors(page);
  const pages: [string, (page: Page) => Promise<unknown>][] = [
    ["/", heading("Agents")],
    ["/boards", (p) => p.getByRole("link", { name: board.name }).waitFor()],
    [`/boards/${board.id}`, heading(board.name)],
    ["/dashboards", (p) => p.getByRole("link", { name: "Every page" }).waitFor()],
    [`/dashboards/${dashboard.id}`, (p) => widgetsDrawn(p, 2)],
    ["/settings", heading("Settings")],
    ["/sessions", heading("Agents")],
    ["/inbox", heading("Inbox")],
    ["/tasks", heading("Tasks")],
    ["/tasks/caught", heading("Tasks")],
    ["/runners", (p) => p.locator('[data-runner="local"]').waitFor()],
    ["/work", heading("Where's my work")],
    ["/automations", heading("Automations")],
    ["/scheduled-messages", heading("Scheduled messages")],
    ["/drips", heading("Drips")],
    [`/p/${link.token}`, (p) => widgetsDrawn(p, 2)],
  ];
  const found: Record<string, string[]> = {};
  for (const [path, ready] of pages) {
    await visit(page, path, ready);
    found[path] = errors.splice(0);
  }
  expect(found).toEqual(Object.fromEntries(pages.map(([path]) => [path, []])));
  await context.close();
});

test("the page for a visitor without a session logs no console error", async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  const errors = consoleErrors(page);
  await visit(page, "/boards", (p) => p.getByText("You are not logged in.").waitFor());
  expect(errors).toEqual([]);
  await context.close();
});

/**
 * The agent board (`/`, the home page, "Agents" in the sidebar, its heading and its tab title),
 * end to end: a session a script starts through the control API with the cli token appears
 * without a reload and its status moves live; its child sits under it, in the group its status
 * puts it in ("Running", then "Needs you" once its turn ends asking; a child whose turn asked
 * nothing is "done" on its own); the search, the filters and the archived
 * toggle work, and a search that finds only archived sessions says so and shows them on request;
 * `agentStatusBoardEnabled` puts an "Agents" link (the sidebar entry's name) in a phone's top bar;
 * j/k select rows, and the selected row carries its actions; titles take the free width and start
 * at one x, the Folder column is there only when folders differ; at 390 px a row's "⋯" menu
 * opens by tap, closes by Escape or a tap outside, and its actions work.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { Locator, Page } from "playwright-core";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, waitForStatus } from "./harness";

const e2e = serverAndBrowser();

interface Spawned {
  id: string;
  status: string;
}

/**
 * `gated` holds its turn open until the test creates the turn's gate file, so the test decides
 * when the status moves; `echo` answers at once.
 */
function writeEngines(dataDir: string, scratchDir: string): void {
  const gated = `cat >/dev/null; echo compiling the parser; while [ ! -e ${scratchDir}/gate-$APP_SESSION_ID ]; do sleep 0.05; done; echo 'Built the parser. Should I ship it?'`;
  writeFileSync(
    join(dataDir, "engines.toml"),
    `[engines.gated]\nkind = "command"\ncommand = ["/bin/sh", "-c", ${JSON.stringify(gated)}]\n\n` +
      `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
  );
}

async function spawn(engine: string, title: string, parent?: string, cwd?: string): Promise<Spawned> {
  const response = await fetch(`${e2e.server.controlUrl}/sessions`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${e2e.server.token}`,
      "Content-Type": "application/json",
      ...(parent ? { "X-App-Source-Session-Id": parent } : {}),
    },
    body: JSON.stringify({ engine, prompt: `prompt of ${title}`, title, ...(cwd ? { cwd } : {}) }),
  });
  const body = (await response.json()) as Spawned;
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

const row = (page: Page, id: string) => page.locator(`tr[data-session-id="${id}"]`);

async function statusOf(id: string): Promise<string> {
  return (await e2e.server.api<Spawned>("GET", `/sessions/${id}`)).body.status;
}

test("a session started through the API shows up live, moves live, and filters apply", async () => {
  writeEngines(e2e.server.dataDir, e2e.server.scratchDir);
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  const { context, page } = await loggedInPage(e2e, "/sessions");
  const errors = consoleErrors(page);
  await page.getByText("No sessions yet.").waitFor();
  // One name for home: the sidebar's link, the heading and the tab title.
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
  expect(await page.getByRole("link", { name: "Agents", exact: true }).count()).toBeGreaterThan(0);
  expect(await page.title()).toMatch(/^(\(\d+\) )?Agents · Switchboard$/);
  // The empty board offers the action that fills it.
  await page.getByRole("button", { name: "Start your first session" }).click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.waitFor();
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });

  const parent = await spawn("gated", "Parent job");
  const parentRow = row(page, parent.id);
  await parentRow.waitFor();
  expect(await parentRow.getByRole("link", { name: "Parent job" }).getAttribute("href")).toBe(`/sessions/${parent.id}`);
  await page.locator(`tr[data-session-id="${parent.id}"][data-status="running"]`).waitFor();
  // What it is doing now: a command engine's latest line of output, as it prints it.
  await parentRow.locator(".session-now", { hasText: "writing: compiling the parser" }).waitFor();

  // A child, spawned naming the parent: drawn under it, one level in, and collapsible.
  const child = await spawn("echo", "Child job", parent.id);
  await page.locator(`tr[data-session-id="${child.id}"][data-status="waiting_for_input"]`).waitFor();
  // Its turn said its prompt back and asked nothing: done, and said once (no activity line repeats it).
  await row(page, child.id)
    .locator(".pill", { hasText: /^Done$/ })
    .waitFor();
  expect(await row(page, child.id).locator(".session-now").count()).toBe(0);
  const order = await page
    .locator("tr[data-session-id]")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-session-id")));
  expect(order).toEqual([parent.id, child.id]);
  // Grouped by the parent's status: it runs, so both are under "Running".
  await page.locator(`tr[data-group="running"][data-session-id="${parent.id}"]`).waitFor();
  await page.locator(`tr[data-group="running"][data-session-id="${child.id}"]`).waitFor();

  // The search keeps what it matches; a child whose parent it hid stands on its own.
  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.fill("child JOB");
  await parentRow.waitFor({ state: "detached" });
  await page.locator(`tr[data-group="done"][data-session-id="${child.id}"]`).waitFor();
  await search.fill("no such words");
  await page.getByText("No session matches these filters.").waitFor();
  await search.fill("");
  await parentRow.waitFor();
  await parentRow.getByRole("button", { name: "Hide 1 child session" }).click();
  await row(page, child.id).waitFor({ state: "detached" });
  await parentRow.getByRole("button", { name: "Show 1 child session" }).click();
  await row(page, child.id).waitFor();

  // The gate opens: the turn ends and the row says so without a reload.
  writeFileSync(join(e2e.server.scratchDir, `gate-${parent.id}`), "");
  await page.locator(`tr[data-session-id="${parent.id}"][data-status="waiting_for_input"]`).waitFor();
  expect(await statusOf(parent.id)).toBe("waiting_for_input");
  // Its turn ended asking: it waits for the user, so its group is "Needs you", the first.
  await page.locator(`tr[data-group="needs_you"][data-session-id="${parent.id}"]`).waitFor();
  expect(await page.locator("tr.board-group").first().getAttribute("data-group")).toBe("needs_you");

  // Filters: by engine, by status, and archived sessions only behind the toggle.
  const engine = page.getByLabel("Engine");
  await engine.selectOption("echo");
  await parentRow.waitFor({ state: "detached" });
  expect(await row(page, child.id).count()).toBe(1);
  await engine.selectOption("all");
  const status = page.getByLabel("Status");
  await status.selectOption("failed");
  await page.getByText("No session matches these filters.").waitFor();
  await status.selectOption("waiting_for_input");
  await parentRow.waitFor();
  await status.selectOption("all");

  const stop = await e2e.server.api("POST", `/sessions/${child.id}/stop`);
  expect(stop.status).toBe(202);
  await page.locator(`tr[data-session-id="${child.id}"][data-status="stopped"]`).waitFor();
  const archive = await e2e.server.api("POST", `/sessions/${child.id}/archive`);
  expect(archive.status).toBeLessThan(300);
  await row(page, child.id).waitFor({ state: "detached" });
  await page.getByLabel(/Show archived/).check();
  await row(page, child.id).waitFor();
  expect(await row(page, child.id).getAttribute("class")).toContain("archived");

  expect(errors).toEqual([]);
  await context.close();
});

test("agentStatusBoardEnabled puts an Agents link in the phone's top bar, named as the sidebar's entry", async () => {
  await setSetting(e2e.server, "agentStatusBoardEnabled", false);
  const { context, page } = await loggedInPage(e2e, "/inbox");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  const shortcut = page.locator(".topbar").getByRole("link", { name: "Agents", exact: true });
  expect(await shortcut.count()).toBe(0);
  // The settings provider follows `settings` events: no reload needed.
  await setSetting(e2e.server, "agentStatusBoardEnabled", true);
  await shortcut.click();
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/");
  expect(await shortcut.getAttribute("aria-current")).toBe("page");
  // A wide window lists Agents first in the sidebar on every page: no second way there, by another name.
  await page.setViewportSize({ width: 1440, height: 900 });
  await shortcut.waitFor({ state: "hidden" });
  expect(await page.getByRole("button", { name: "Agent board" }).count()).toBe(0);
  const sidebar = page.getByRole("navigation", { name: "Sections", exact: true });
  expect(await sidebar.getByRole("link", { name: "Agents", exact: true }).getAttribute("aria-current")).toBe("page");
  await setSetting(e2e.server, "agentStatusBoardEnabled", false);
  await shortcut.waitFor({ state: "detached" });
  await context.close();
});

test("j and k move through the board's rows as drawn, and Enter opens the selected session", async () => {
  writeEngines(e2e.server.dataDir, e2e.server.scratchDir);
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  const first = await spawn("echo", "Keyboard one");
  const second = await spawn("echo", "Keyboard two");
  const { context, page } = await loggedInPage(e2e, "/sessions");
  for (const id of [first.id, second.id]) {
    await page.locator(`tr[data-session-id="${id}"][data-status="waiting_for_input"]`).waitFor();
  }
  const drawn = await page
    .locator("tr[data-session-id]")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-session-id")));
  const selected = () => page.locator('tr[aria-current="true"]').getAttribute("data-session-id");
  await page.keyboard.press("j");
  expect(await selected()).toBe(drawn[0]);
  await page.keyboard.press("j");
  expect(await selected()).toBe(drawn[1]);
  await page.keyboard.press("k");
  expect(await selected()).toBe(drawn[0]);
  // Typing in the search box is typing, not a command.
  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.focus();
  await page.keyboard.press("j");
  expect(await search.inputValue()).toBe("j");
  await search.fill("");
  await search.blur();

  // The selected row carries its actions as buttons; the others keep them out of the way.
  const selectedRow = row(page, drawn[0] ?? "");
  const bar = selectedRow.locator(".row-action-bar");
  // The bar fades in over 80 ms: read it once the fade has run.
  await expect.poll(() => bar.evaluate((e) => getComputedStyle(e).opacity)).toBe("1");
  await expect
    .poll(() =>
      row(page, drawn[1] ?? "")
        .locator(".row-action-bar")
        .evaluate((e) => getComputedStyle(e).opacity),
    )
    .toBe("0");
  await bar.getByRole("button", { name: /^Open / }).waitFor();

  // The "⋯" menu from the keyboard: Enter opens it on its first action, Escape closes it and the
  // focus goes back to its button; Enter there is the button's, not the board's.
  const more = selectedRow.getByRole("button", { name: /^Actions for / });
  await more.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("dialog", { name: /^Actions for / });
  await menu.waitFor();
  expect(await menu.getByRole("button", { name: "Open" }).evaluate((e) => e === document.activeElement)).toBe(true);
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  expect(await more.evaluate((e) => e === document.activeElement)).toBe(true);
  expect(new URL(page.url()).pathname).toBe("/sessions");
  await more.blur();

  await page.keyboard.press("Enter");
  await page.waitForURL(`**/sessions/${drawn[0]}`);
  await context.close();
});

/**
 * Stops every session still open, and waits until each is stopped: agent-driven sessions are
 * limited to a few at a time (`agentDrivenMaxConcurrent`), and the earlier tests leave some open.
 */
async function stopOpenSessions(): Promise<void> {
  const { body } = await e2e.server.api<(Spawned & { archived: boolean })[]>("GET", "/sessions");
  const open = body.filter((s) => ["queued", "starting", "running", "waiting_for_input"].includes(s.status));
  for (const s of open) expect((await e2e.server.api("POST", `/sessions/${s.id}/stop`)).status).toBe(202);
  for (const s of open) await waitForStatus(e2e.server, s.id, "stopped");
}

/**
 * Where the board's top-level titles (with a tree toggle or without) and its groups' headings
 * start, in page pixels: one x when they are aligned.
 */
async function titleStarts(page: Page): Promise<Set<number>> {
  const titles = await lefts(page.locator('tr.session-row[data-depth="0"] .session-title'));
  const headings = await page
    .locator("tr.board-group th")
    .evaluateAll((ths) =>
      ths.map((th) => Math.round(th.getBoundingClientRect().left + parseFloat(getComputedStyle(th).paddingLeft))),
    );
  expect(titles.length).toBeGreaterThan(0);
  return new Set([...titles, ...headings]);
}

/** The left edge of each element `locator` finds, in page pixels. */
const lefts = (locator: Locator) =>
  locator.evaluateAll((es) => es.map((e) => Math.round(e.getBoundingClientRect().left)));

test("titles take the free width and start at one x; the Folder column shows only when folders differ", async () => {
  await stopOpenSessions();
  writeEngines(e2e.server.dataDir, e2e.server.scratchDir);
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  await setSetting(e2e.server, "agentDrivenMaxConcurrent", 5);
  const parent = await spawn("echo", "Aligned parent");
  await spawn("echo", "Aligned child", parent.id);
  await spawn("echo", "Aligned loner");
  const { context, page } = await loggedInPage(e2e, "/sessions");
  const errors = consoleErrors(page);
  await page.getByRole("link", { name: "Aligned loner" }).waitFor();
  await page.getByRole("link", { name: "Aligned child" }).waitFor();

  // Every session works in the same folder: no column says it on every row.
  expect(await page.getByRole("columnheader", { name: "Folder" }).count()).toBe(0);
  // The title's column takes what the others leave: most of the table.
  const [titleWidth, tableWidth] = await page.evaluate(() => [
    document.querySelector("table.session-board col.col-session")?.getBoundingClientRect().width ?? 0,
    document.querySelector("table.session-board")?.getBoundingClientRect().width ?? 1,
  ]);
  expect(titleWidth / tableWidth).toBeGreaterThan(0.4);

  // Top-level titles, with a tree toggle or without, and the groups' headings start at one x;
  // a child's is further in.
  const xs = await titleStarts(page);
  expect(xs.size).toBe(1);
  const [x] = [...xs];
  const [childX] = await lefts(page.getByRole("link", { name: "Aligned child" }));
  expect(childX).toBeGreaterThan(x ?? 0);

  // A session in another folder: the column is drawn, with the folder's last part.
  const elsewhere = mkdtempSync(join(e2e.server.scratchDir, "api-"));
  const other = await spawn("echo", "Elsewhere", undefined, elsewhere);
  await page.getByRole("columnheader", { name: "Folder" }).waitFor();
  const folder = elsewhere.slice(elsewhere.lastIndexOf("/") + 1);
  expect(await row(page, other.id).locator(".folder").textContent()).toBe(folder);

  expect(errors).toEqual([]);
  await context.close();
});

test("a search that finds only archived sessions says so, and shows them on request", async () => {
  await stopOpenSessions();
  writeEngines(e2e.server.dataDir, e2e.server.scratchDir);
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  const hidden = await spawn("echo", "Needle in the archive");
  expect((await e2e.server.api("POST", `/sessions/${hidden.id}/stop`)).status).toBe(202);
  expect((await e2e.server.api("POST", `/sessions/${hidden.id}/archive`)).status).toBeLessThan(300);
  const { context, page } = await loggedInPage(e2e, "/sessions");
  const errors = consoleErrors(page);
  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.fill("needle");
  await page.getByText("No session matches these filters.").waitFor();
  const note = page.locator(".board-archived-note");
  await note.filter({ hasText: "1 archived match —" }).waitFor();
  expect(await row(page, hidden.id).count()).toBe(0);

  await note.getByRole("button", { name: "show" }).click();
  await row(page, hidden.id).waitFor();
  expect(await page.getByLabel(/Show archived/).isChecked()).toBe(true);
  await note.waitFor({ state: "detached" });

  // Without a search, the toggle alone counts them: no note.
  await page.getByLabel(/Show archived/).uncheck();
  await search.fill("");
  expect(await note.count()).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
});

test("at 390 px a row's ⋯ menu opens by tap, closes by Escape or a tap outside, and its actions work", async () => {
  await stopOpenSessions();
  writeEngines(e2e.server.dataDir, e2e.server.scratchDir);
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  const job = await spawn("gated", "Phone job");
  const { browser, server } = e2e;
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const errors = consoleErrors(page);
  await page.goto(`${server.uiUrl}/login?token=${encodeURIComponent(server.token)}&next=/`);
  const jobRow = page.locator(`tr[data-session-id="${job.id}"][data-status="running"]`);
  await jobRow.waitFor();

  // Nothing runs off the side, the board included; the menu's button is a finger's size.
  const sideways = await page.evaluate(() =>
    [document.documentElement, ...document.querySelectorAll(".content, .board-scroller")].map(
      (e) => e.scrollWidth - e.clientWidth,
    ),
  );
  expect(sideways.every((d) => d <= 0)).toBe(true);
  // A tree in the board (the earlier tests' parent and child): titles and headings still line up.
  expect((await titleStarts(page)).size).toBe(1);
  // The filters take two rows: the search with the archived toggle, then the three choices.
  const filterRows = await page
    .locator(".board-filters > *")
    .evaluateAll((es) => new Set(es.map((e) => Math.round(e.getBoundingClientRect().top))).size);
  expect(filterRows).toBe(2);
  const more = jobRow.getByRole("button", { name: "Actions for Phone job" });
  const box = await more.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(44);
  expect(box?.height).toBeGreaterThanOrEqual(44);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);

  const menu = page.getByRole("dialog", { name: "Actions for Phone job" });
  await more.tap();
  await menu.waitFor();
  // Inside the window, every action a finger's size.
  const panel = await menu.boundingBox();
  expect(panel?.x).toBeGreaterThanOrEqual(0);
  expect((panel?.x ?? 0) + (panel?.width ?? 0)).toBeLessThanOrEqual(390);
  for (const height of await menu
    .getByRole("button")
    .evaluateAll((bs) => bs.map((b) => b.getBoundingClientRect().height))) {
    expect(height).toBeGreaterThanOrEqual(44);
  }
  expect(await menu.getByRole("button").allTextContents()).toEqual(["Open", "Stop", "Archive"]);
  await page.keyboard.press("Escape");
  await menu.waitFor({ state: "detached" });
  await more.tap();
  await menu.waitFor();
  await page.getByRole("heading", { name: "Agents", exact: true }).tap();
  await menu.waitFor({ state: "detached" });

  // Stop, after asking.
  await more.tap();
  await menu.getByRole("button", { name: "Stop" }).tap();
  const confirm = page.getByRole("dialog", { name: "Stop Phone job?" });
  await confirm.getByRole("button", { name: "Stop" }).tap();
  await page.locator(`tr[data-session-id="${job.id}"][data-status="stopped"]`).waitFor();
  expect(await statusOf(job.id)).toBe("stopped");

  // Archive: the row leaves the board.
  const stoppedRow = row(page, job.id);
  await stoppedRow.getByRole("button", { name: "Actions for Phone job" }).tap();
  expect(await menu.getByRole("button").allTextContents()).toEqual(["Open", "Retry", "Archive"]);
  await menu.getByRole("button", { name: "Archive" }).tap();
  await stoppedRow.waitFor({ state: "detached" });
  expect((await e2e.server.api<{ archived: boolean }>("GET", `/sessions/${job.id}`)).body.archived).toBe(true);

  // Open goes to the session's page.
  const other = await spawn("echo", "Phone other");
  await row(page, other.id).getByRole("button", { name: "Actions for Phone other" }).tap();
  await page.getByRole("dialog", { name: "Actions for Phone other" }).getByRole("button", { name: "Open" }).tap();
  await page.waitForURL(`**/sessions/${other.id}`);

  expect(errors).toEqual([]);
  await context.close();
});

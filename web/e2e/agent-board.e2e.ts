/**
 * The agent board (`/`, the home page), end to end: a session a script starts through the control API
 * with the cli token appears without a reload and its status moves live; its child sits under
 * it, in the group its status puts it in ("Running", then "Needs you" once it waits); the search,
 * the filters and the archived toggle work; the Agent board button follows
 * `agentStatusBoardEnabled` and opens the board from another page.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

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
  const gated = `cat >/dev/null; echo compiling the parser; while [ ! -e ${scratchDir}/gate-$APP_SESSION_ID ]; do sleep 0.05; done; echo done`;
  writeFileSync(
    join(dataDir, "engines.toml"),
    `[engines.gated]\nkind = "command"\ncommand = ["/bin/sh", "-c", ${JSON.stringify(gated)}]\n\n` +
      `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
  );
}

async function spawn(engine: string, title: string, parent?: string): Promise<Spawned> {
  const response = await fetch(`${e2e.server.controlUrl}/sessions`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${e2e.server.token}`,
      "Content-Type": "application/json",
      ...(parent ? { "X-App-Source-Session-Id": parent } : {}),
    },
    body: JSON.stringify({ engine, prompt: `prompt of ${title}`, title }),
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
  // Its status says it waits, once: no activity line repeats it.
  expect(await row(page, child.id).locator(".tag").textContent()).toBe("waiting for input");
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
  await page.locator(`tr[data-group="needs_you"][data-session-id="${child.id}"]`).waitFor();
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
  // Now it waits for the user: its group is "Needs you", the first.
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

test("the Agent board button follows agentStatusBoardEnabled and opens the board", async () => {
  await setSetting(e2e.server, "agentStatusBoardEnabled", false);
  const { context, page } = await loggedInPage(e2e, "/inbox");
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  const button = page.getByRole("button", { name: "Agent board" });
  expect(await button.count()).toBe(0);
  // The settings provider follows `settings` events: no reload needed.
  await setSetting(e2e.server, "agentStatusBoardEnabled", true);
  await button.waitFor();
  await button.click();
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/");
  await setSetting(e2e.server, "agentStatusBoardEnabled", false);
  await button.waitFor({ state: "detached" });
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
  // With no workspace yet, the sidebar's "New workspace name" field takes the focus: keys typed
  // there are its own. The board's keys work from the page.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

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

  await page.keyboard.press("Enter");
  await page.waitForURL(`**/sessions/${drawn[0]}`);
  await context.close();
});

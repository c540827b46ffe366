/**
 * The inbox page, end to end: a webhook delivery, an agent's alert and a failed session appear
 * live (no reload) with the tab counts, the sidebar count and the title badge following; j/k move
 * the selection; a row opens its session and is read; rows are marked read and archived (one by
 * `e`, others by "Archive selected"); the chime log says why no notification showed; an alert's
 * "Start session" opens the New session dialog in the folder `alertSessionDefaultProjectId` names.
 * And after a send on the session page, `postSendNavigation` picks where to go.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import { consoleErrors, deliverWebhook, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

interface Row {
  id: string;
  title: string;
  readAt: string | null;
  archivedAt: string | null;
}

const row = (page: Page, id: string) => page.locator(`li[data-row-id="${id}"]`);
const tab = (page: Page, name: string) => page.getByRole("tab", { name: new RegExp(`^${name}`) });

async function rowState(id: string): Promise<Row> {
  const reply = await e2e.server.api<Row[]>("GET", "/inbox?state=all");
  const found = reply.body.find((r) => r.id === id);
  if (!found) throw new Error(`row ${id} is not listed`);
  return found;
}

test("a failed session, a webhook delivery and an alert appear on the inbox page live, are opened, read and archived", async () => {
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n\n` +
      `[engines.broken]\nkind = "command"\ncommand = ["/bin/sh", "-c", "cat >/dev/null; echo no such target >&2; exit 3"]\n`,
  );
  await setSetting(e2e.server, "webhooksEnabled", true);
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  await setSetting(e2e.server, "alertSessionDefaultProjectId", "/tmp");
  const { context, page } = await loggedInPage(e2e, "/inbox");
  await context.grantPermissions(["notifications"], { origin: e2e.server.uiUrl });
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  await page.getByText("Nothing here.").waitFor();

  // A webhook delivery: the row arrives without a reload, and every count follows.
  const delivered = await deliverWebhook(e2e.server, { title: "Deploy failed" });
  expect(delivered.status).toBe(202);
  const webhookRow = page.locator("li[data-row-id]", { hasText: "Deploy failed" });
  await webhookRow.waitFor();
  const webhookId = (await webhookRow.getAttribute("data-row-id")) ?? "";
  // Its category in words, and its time relative, the exact time on hover.
  await webhookRow.locator(".pill", { hasText: "Webhook" }).waitFor();
  const time = webhookRow.locator("time");
  expect(await time.innerText()).toMatch(/^(just now|\d+ s ago)$/);
  expect(await time.getAttribute("title")).toMatch(/\d/);
  await tab(page, "Webhooks").locator(".tab-count", { hasText: "1" }).waitFor();
  await page.locator(".nav-link .nav-count", { hasText: "1" }).waitFor();
  await page.waitForFunction(() => document.title === "(1) Inbox · Switchboard");
  // The icon carries the count too (drawn on a canvas), and goes back to the shipped one at 0.
  await page.waitForFunction(() =>
    document.querySelector<HTMLLinkElement>("link[rel~='icon']")?.href.startsWith("data:image/png"),
  );

  // An agent's alert: on top, the counts at two.
  const alert = await e2e.server.api<Row>("POST", "/alert", { title: "Tests failing", body: "3 of 40" });
  expect(alert.status).toBe(201);
  await row(page, alert.body.id).waitFor();
  await page.locator(".nav-link .nav-count", { hasText: "2" }).waitFor();
  await tab(page, "All").locator(".tab-count", { hasText: "2" }).waitFor();
  expect(await page.locator("li[data-row-id]").evaluateAll((items) => items.map((i) => i.dataset.rowId))).toEqual([
    alert.body.id,
    webhookId,
  ]);

  // A session whose engine fails: its row comes on top, in the Sessions tab.
  const failed = await e2e.server.api<{ id: string }>("POST", "/sessions", {
    engine: "broken",
    prompt: "build it",
    title: "Nightly build",
  });
  expect(failed.status, JSON.stringify(failed.body)).toBe(201);
  const sessionRow = page.locator("li[data-row-id]", { hasText: "Nightly build failed" });
  await sessionRow.waitFor();
  const sessionRowId = (await sessionRow.getAttribute("data-row-id")) ?? "";
  await tab(page, "Sessions").locator(".tab-count", { hasText: "1" }).waitFor();
  await page.locator(".nav-link .nav-count", { hasText: "3" }).waitFor();
  await page.waitForFunction(() => document.title === "(3) Inbox · Switchboard");

  // j and k move the selection (outside a text field: the fresh install's workspace form has
  // the focus until the page is clicked).
  await page.getByRole("heading", { name: "Inbox", exact: true }).click();
  const selected = (id: string) => page.locator(`li[data-row-id="${id}"][aria-current="true"]`).waitFor();
  await page.keyboard.press("j");
  await selected(sessionRowId);
  await page.keyboard.press("j");
  await selected(alert.body.id);
  await page.keyboard.press("j");
  await selected(webhookId);
  await page.keyboard.press("k");
  await page.locator(`li[data-row-id="${alert.body.id}"][aria-current="true"]`).waitFor();

  // Mark read: the row and the counts change, and the server has it.
  await row(page, webhookId).getByRole("button", { name: "Mark read" }).click();
  await row(page, webhookId).getByRole("button", { name: "Mark unread" }).waitFor();
  await page.locator(".nav-link .nav-count", { hasText: "2" }).waitFor();
  expect(await tab(page, "Webhooks").locator(".tab-count").count()).toBe(0);
  expect((await rowState(webhookId)).readAt).not.toBeNull();

  // Start session on the alert: the New session dialog, in the folder the setting names.
  await row(page, alert.body.id).getByRole("button", { name: "Start session" }).click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  expect(await dialog.getByLabel("Folder").inputValue()).toBe("/tmp");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });

  // `e` archives the selected row; "Archive selected" the checked ones.
  await page.keyboard.press("e");
  await row(page, alert.body.id).waitFor({ state: "detached" });
  expect((await rowState(alert.body.id)).archivedAt).not.toBeNull();

  // Open: the failed session's page, and its row is read.
  await row(page, sessionRowId).getByRole("button", { name: "Open" }).click();
  await page.waitForURL(`**/sessions/${failed.body.id}`);
  await expect.poll(async () => (await rowState(sessionRowId)).readAt).not.toBeNull();
  await page.goBack();
  await row(page, sessionRowId).getByRole("button", { name: "Mark unread" }).waitFor();

  await row(page, webhookId).getByRole("checkbox").check();
  await row(page, sessionRowId).getByRole("checkbox").check();
  await page.getByRole("button", { name: "Archive selected (2)" }).click();
  await page.getByText("Nothing here.").waitFor();
  expect((await rowState(webhookId)).archivedAt).not.toBeNull();
  await page.waitForFunction(() => document.title === "Inbox · Switchboard");

  // The chime log says why no system notification showed: the tab was in front.
  await page.getByText(/Notification history \(3\)/).click();
  const log = page.getByRole("list", { name: "Notification history" });
  await log.getByText("suppressed: tab in foreground (backgrounded)").first().waitFor();
  expect(await log.locator("li").count()).toBe(3);
  expect(await page.locator("link[rel~='icon']").getAttribute("href")).toBe("/favicon.svg");

  // With notificationBehavior "always" and the permission granted, a delivery shows one.
  await setSetting(e2e.server, "notificationBehavior", "always");
  // The `settings` event reaches the page before the delivery's `inbox` event: one stream, in order.
  await deliverWebhook(e2e.server, { title: "Deploy failed again" });
  await log.getByText("Deploy failed again — shown (always)").waitFor();

  expect(errors).toEqual([]);
  await context.close();
});

test("after a send, postSendNavigation moves to the next waiting session of the folder, then to the waiting room", async () => {
  await setSetting(e2e.server, "postSendNavigation", ["next_in_project", "waiting_room"]);
  const spawn = async (title: string) => {
    const reply = await e2e.server.api<{ id: string }>("POST", "/sessions", { engine: "echo", prompt: "hello", title });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body.id;
  };
  const first = await spawn("First of the folder");
  const second = await spawn("Second of the folder");
  for (const id of [first, second]) {
    await expect
      .poll(async () => (await e2e.server.api<{ status: string }>("GET", `/sessions/${id}`)).body.status)
      .toBe("waiting_for_input");
  }
  const { context, page } = await loggedInPage(e2e, `/sessions/${first}`);
  const errors = consoleErrors(page);
  const composer = page.getByLabel("Follow-up message");
  await composer.fill("and again");
  await composer.press("Enter");
  await page.waitForURL(`**/sessions/${second}`);

  // Read fresh, so the page cannot still hold the earlier list when it sends.
  await setSetting(e2e.server, "postSendNavigation", ["waiting_room"]);
  await page.reload();
  await page.getByRole("heading", { name: "Second of the folder" }).waitFor();
  await composer.fill("once more");
  await composer.press("Enter");
  await page.waitForURL("**/sessions?status=waiting_for_input");
  expect(await page.getByLabel("Status").inputValue()).toBe("waiting_for_input");
  expect(errors).toEqual([]);
  await context.close();
});

test("a push's click, /inbox?row=<id>, selects and focuses that row", async () => {
  // A row below the named one of this test's own, so j has somewhere to go whatever earlier tests left.
  const older = await e2e.server.api<Row>("POST", "/alert", { title: "Backup finished late", body: "04:10" });
  expect(older.status).toBe(201);
  const named = await e2e.server.api<Row>("POST", "/alert", { title: "Nightly run red", body: "2 failures" });
  expect(named.status).toBe(201);
  const newer = await e2e.server.api<Row>("POST", "/alert", { title: "Disk almost full", body: "92 %" });
  expect(newer.status).toBe(201);
  const { context, page } = await loggedInPage(e2e, `/inbox?row=${named.body.id}`);
  const wanted = row(page, named.body.id);
  await wanted.waitFor();
  await page.waitForFunction((id) => document.activeElement?.getAttribute("data-row-id") === id, named.body.id);
  expect(await wanted.getAttribute("aria-current")).toBe("true");
  expect(await row(page, newer.body.id).getAttribute("aria-current")).toBeNull();
  // The keys go on from there: j moves to the next row down.
  await page.keyboard.press("j");
  await page.waitForFunction(
    (id) => document.querySelector(`li[data-row-id="${id}"]`)?.getAttribute("aria-current") !== "true",
    named.body.id,
  );
  await context.close();
});

/**
 * The fleet governor in the cockpit, against a real server and a `command` engine whose turns
 * never end on their own: the governor's line in the board's header (nothing while a check has
 * nothing to report; a revive shown once a session event makes the board read again; Check now
 * answering even when idle), and a session paused and resumed from its page, with the stop
 * reason shown on the page and the board while it is paused.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { Check } from "../src/shared/api/types.generated";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "switchboard-e2e-governor-"));
  // Every turn runs until it is ended, so Pause has a process to end and Resume starts another.
  const script = join(folder, "hold.sh");
  writeFileSync(script, "#!/bin/sh\nwhile :; do sleep 1; done\n");
  chmodSync(script, 0o755);
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.hold]\nkind = "command"\ncommand = ["/bin/sh", ${JSON.stringify(script)}]\n`,
  );
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Starts a `hold` session as the user (the browser's cookie); returns its id. */
async function startHolding(page: Page, title: string): Promise<string> {
  return page.evaluate(
    async ({ cwd, title }) => {
      const reply = await fetch("/api/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ engine: "hold", prompt: "work", cwd, title }),
      });
      return ((await reply.json()) as { id: string }).id;
    },
    { cwd: folder, title },
  );
}

test("the governor's line is hidden while idle and shows a revive in the header", async () => {
  const { context, page } = await loggedInPage(e2e, "/sessions");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
  const line = page.getByRole("region", { name: "Governor" });

  // An idle check (nothing dormant, nothing revived) read after a session event: nothing shown.
  const idle = await e2e.server.api<Check>("POST", "/governor/check");
  expect(idle.status).toBe(200);
  expect(idle.body.revived).toEqual([]);
  const reread = page.waitForResponse((r) => r.url().endsWith("/api/governor") && r.request().method() === "GET");
  const id = await startHolding(page, "Revivable");
  await reread;
  await page.locator(`tr[data-session-id="${id}"]`).waitFor();
  expect(await line.count()).toBe(0);
  expect(await page.getByText(/running, target/).count()).toBe(0);

  // Paused, and the settings let the governor bring paused work back: the check revives it, and
  // the line in the header says so once a session event makes the board read again.
  expect((await e2e.server.api("POST", `/sessions/${id}/pause`)).status).toBe(200);
  await page.locator(`tr[data-session-id="${id}"][data-status="paused"]`).waitFor();
  await setSetting(e2e.server, "sessionRefillIncludePaused", true);
  const revive = await e2e.server.api<Check>("POST", "/governor/check");
  expect(revive.body.revived).toEqual([id]);
  await line.filter({ hasText: /Governor .*: revived 1 session/ }).waitFor();
  expect(await page.locator("header.page-head").getByRole("region", { name: "Governor" }).count()).toBe(1);

  // Check now answers even when there is nothing to do.
  await line.getByRole("button", { name: "Check now" }).click();
  await line.filter({ hasText: /nothing to do \([1-9]\d* running, target \d+\)/ }).waitFor();

  await setSetting(e2e.server, "sessionRefillIncludePaused", false);
  expect(errors).toEqual([]);
  await context.close();
});

test("a session is paused and resumed from its page", async () => {
  const { context, page } = await loggedInPage(e2e, "/sessions");
  const errors = consoleErrors(page);
  const id = await startHolding(page, "Pausable");
  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  const status = page.getByTestId("session-status");
  await status.filter({ hasText: "running" }).waitFor();
  expect(await page.getByRole("button", { name: "Resume" }).count()).toBe(0);

  await page.getByRole("button", { name: "Pause" }).click();
  await status.filter({ hasText: "paused" }).waitFor();
  // The status says it once: no reason line repeats it.
  expect(await page.getByTestId("session-stop-reason").count()).toBe(0);
  expect(await page.getByRole("button", { name: "Pause" }).count()).toBe(0);
  expect(await page.getByLabel("Follow-up message").isDisabled()).toBe(true);

  // The board says it too, once.
  await page.goto(`${e2e.server.uiUrl}/sessions`);
  await page.locator(`tr[data-session-id="${id}"][data-status="paused"] .pill`).filter({ hasText: "paused" }).waitFor();
  expect(await page.locator(`tr[data-session-id="${id}"] .stop-reason`).count()).toBe(0);

  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  await page.getByRole("button", { name: "Resume" }).click();
  await status.filter({ hasText: "running" }).waitFor();
  await page.getByTestId("session-stop-reason").waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Pause" }).waitFor();

  expect(errors).toEqual([]);
  await context.close();
});

/**
 * The fleet governor in the cockpit, against a real server and a `command` engine whose turns
 * never end on their own: the board's governor panel (Check now run by the owner from the browser;
 * a check shown once a session event makes the panel read again), and a session paused and resumed
 * from its page, with the stop reason shown on the page and the board while it is paused.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { consoleErrors, loggedInPage, serverAndBrowser } from "./harness";

const e2e = serverAndBrowser();
let folder: string;

beforeAll(async () => {
  // With no workspace the sidebar puts the cursor in its "New workspace name" field.
  expect((await e2e.server.api("POST", "/workspaces", { name: "E2E" })).status).toBe(201);
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

test("the board shows the governor's last check, read again after session events", async () => {
  const { context, page } = await loggedInPage(e2e, "/sessions");
  const errors = consoleErrors(page);
  const panel = page.getByRole("region", { name: "Governor" });
  await panel.getByText("No check yet.").waitFor();

  // The owner runs a check from the browser: the panel shows it at once.
  await panel.getByRole("button", { name: "Check now" }).click();
  await panel
    .getByTestId("governor-check")
    .filter({ hasText: /^.*\b0 running/ })
    .waitFor();

  // A check run through the control API while a session works shows once a session event
  // makes the panel read again.
  await startHolding(page, "Works");
  expect((await e2e.server.api("POST", "/governor/check")).status).toBe(200);
  await startHolding(page, "Wakes the panel");
  await panel
    .getByTestId("governor-check")
    .filter({ hasText: /[1-9]\d* running, target \d+; \d+ revived, \d+ skipped of \d+ candidates?/ })
    .waitFor();

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
  await page.locator(`tr[data-session-id="${id}"][data-status="paused"] .tag`).filter({ hasText: "paused" }).waitFor();
  expect(await page.locator(`tr[data-session-id="${id}"] .stop-reason`).count()).toBe(0);

  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  await page.getByRole("button", { name: "Resume" }).click();
  await status.filter({ hasText: "running" }).waitFor();
  await page.getByTestId("session-stop-reason").waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Pause" }).waitFor();

  expect(errors).toEqual([]);
  await context.close();
});

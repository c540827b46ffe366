/**
 * Bug Intake in the browser against a real server: the sidebar shows it only while
 * `bugIntakeEnabled` is on; a report made with the form is listed (with intake off, it starts
 * nothing and says so); held, then released once intake is on, it starts its triage session,
 * which the list links to; dismissed, it offers nothing more.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const CONVERSATION_CLAUDE = resolve(import.meta.dirname, "../../crates/cli/tests/fixtures/conversation-claude");

const e2e = serverAndBrowser();

interface Report {
  id: string;
  title: string;
  state: string;
  sessionId: string | null;
}

const reports = async () => (await e2e.server.api<{ reports: Report[] }>("GET", "/bug-reports")).body.reports;

test("a report from the form is held, released into a triage session and dismissed", async () => {
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.primary]\nkind = "claude"\ncommand = ["/bin/sh", ${JSON.stringify(CONVERSATION_CLAUDE)}]\n`,
  );
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  const { context, page } = await loggedInPage(e2e, "/bugs");
  const errors = consoleErrors(page);
  const sidebar = page
    .getByRole("navigation", { name: "Sections" })
    .getByRole("link", { name: "Bug Intake", exact: true });
  await page.getByRole("heading", { name: "Bug Intake" }).waitFor();
  expect(await sidebar.count()).toBe(0);
  await page.getByText("Bug Intake is off").waitFor();
  // The note names the setting by its label, linking to it, its key on hover.
  expect(await page.locator("main [data-setting-key=bugIntakeEnabled]").getAttribute("title")).toBe(
    "Setting key: bugIntakeEnabled",
  );

  const form = page.getByRole("form", { name: "Report a bug" });
  await form.getByLabel("Title").fill("Search returns nothing");
  await form.getByLabel("What happens").fill("Since the deploy.");
  await form.getByLabel(/^Project/).fill("/tmp");
  await form.getByRole("button", { name: "Report" }).click();
  const item = page.locator("li.bug-item", { hasText: "Search returns nothing" });
  await item.waitFor();
  await expect.poll(() => item.getAttribute("data-state")).toBe("new");
  expect((await reports())[0]?.sessionId).toBeNull();

  await item.getByRole("button", { name: "Hold: Search returns nothing" }).click();
  await expect.poll(() => item.getAttribute("data-state")).toBe("held");

  await setSetting(e2e.server, "bugIntakeEnabled", true);
  await sidebar.first().waitFor();
  await item.getByRole("button", { name: "Release: Search returns nothing" }).click();
  await expect.poll(async () => (await reports())[0]?.sessionId ?? null).not.toBeNull();
  await item.getByRole("link", { name: "triage session" }).waitFor();

  await item.getByRole("button", { name: "Dismiss: Search returns nothing" }).click();
  await expect.poll(() => item.getAttribute("data-state")).toBe("dismissed");
  expect(await item.getByRole("button").count()).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
});

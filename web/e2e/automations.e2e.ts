/**
 * Automations against a real server: a recipe made in the UI (a taken name refused beside the
 * Name field), run with a value for its placeholder, its run in the history with a link to its
 * session; a recipe without placeholders run from the palette straight into its session; a
 * schedule made in the UI; and a schedule an agent made with its own token, pending, approved
 * from the inbox row's Approve button, after which the row is read and the schedule active; a rule
 * made in the page (a webhook delivery whose `ref` is main runs a recipe), fired by one delivery
 * and not another, with the firing and its session in its history; and a rule an agent made,
 * approved from the inbox. The page, filled, does not scroll sideways at 390 px. A rule whose run
 * a setting refuses moves its item to the rule's failed status, and its inbox row names the setting
 * by its label and opens the settings page at that setting's row.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type {
  RecipeList,
  RecipeRunList,
  RecipeSchedule,
  RecipeScheduleList,
  Rule,
  RuleList,
} from "../src/shared/api/types.generated";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, startSessionInPage, until } from "./harness";

const e2e = serverAndBrowser();

beforeAll(async () => {
  const scratch = e2e.server.scratchDir;
  // `holder` keeps its session alive and leaves its agent token where the test reads it.
  const holder = join(scratch, "holder.sh");
  writeFileSync(
    holder,
    `#!/bin/sh\nprintf '%s' "$APP_CLI_TOKEN" > '${scratch}'/token-"$APP_SESSION_ID"\nexec sleep 300\n`,
  );
  chmodSync(holder, 0o755);
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/bin/sh", "-c", "echo \\"reply to: $(tail -n 1)\\""]\n\n` +
      `[engines.holder]\nkind = "command"\ncommand = ["/bin/sh", ${JSON.stringify(holder)}]\n`,
  );
});

/** What an engine wrote to `path`, once it is there. */
async function written(path: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (existsSync(path)) {
      const text = readFileSync(path, "utf8").trim();
      if (text) return text;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${path} was never written`);
}

/**
 * Photographs the page as it is at 1440 and 390 px in the light and dark themes (into
 * AUTOMATIONS_SCREENSHOTS, or a fresh folder), and finds no serious axe violation in any.
 */
async function shoot(page: Page, name: string) {
  const dir = process.env.AUTOMATIONS_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "automations-shots-"));
  expect(await everyLook(e2e.server, page, name, dir)).toEqual({});
}

const card = (page: Page, name: string) => page.locator("li[data-recipe-id]", { hasText: name });

test("a recipe is made in the page, run with a value, and its run is in the history", async () => {
  const { context, page } = await loggedInPage(e2e, "/automations");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Automations", exact: true }).waitFor();
  await page.getByText("No recipes yet.").waitFor();

  await page.getByRole("button", { name: "New recipe" }).click();
  const dialog = page.getByRole("dialog", { name: "New recipe" });
  await dialog.getByLabel("Name").fill("Triage");
  await dialog.getByLabel("Engine").selectOption("echo");
  await dialog.getByLabel("Folder").fill(e2e.server.scratchDir);
  await dialog.getByLabel("Prompt").fill("Triage the issues labelled {{label}}");
  await dialog.getByText("Each run asks for {{label}}.").waitFor();
  // The permission level is what docs/automations.md says it is: the run's, for its whole life.
  await dialog.getByText("Permission level and spend cap").click();
  await dialog.getByText(/keeps this level for its whole life/).waitFor();
  expect(await dialog.textContent()).not.toContain("for now");
  await dialog.getByRole("button", { name: "Save recipe" }).click();
  await dialog.waitFor({ state: "detached" });
  const triage = card(page, "Triage");
  await triage.getByText("{{label}}", { exact: true }).waitFor();

  // A taken name: the server's refusal is said beside the Name field.
  await page.getByRole("button", { name: "New recipe" }).click();
  await dialog.getByLabel("Name").fill("triage");
  await dialog.getByLabel("Engine").selectOption("echo");
  await dialog.getByLabel("Folder").fill(e2e.server.scratchDir);
  await dialog.getByLabel("Prompt").fill("Again");
  await dialog.getByRole("button", { name: "Save recipe" }).click();
  const nameField = dialog.getByRole("textbox", { name: "Name" });
  await page.waitForFunction(() =>
    document.querySelector("#recipe-form-name-error")?.textContent?.includes("already has a recipe"),
  );
  expect(await nameField.getAttribute("aria-invalid")).toBe("true");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Run: the placeholder is asked for, and the run shows in the history with its session.
  await triage.getByRole("button", { name: "Run", exact: true }).click();
  const run = page.getByRole("dialog", { name: "Run Triage" });
  await run.getByRole("button", { name: "Run now" }).click();
  await run.getByText("Give a value for {{label}}.").waitFor();
  await run.getByRole("textbox", { name: "label", exact: true }).fill("bug");
  await run.getByRole("button", { name: "Run now" }).click();
  await run.waitFor({ state: "detached" });
  await triage.getByRole("status").getByText("Run started.").waitFor();
  const history = triage.getByRole("table", { name: "Runs of Triage" });
  await history.locator("tbody tr").first().waitFor();
  expect(await history.locator("tbody tr").count()).toBe(1);
  await history.getByText("by hand").waitFor();

  const recipes = await e2e.server.api<RecipeList>("GET", "/recipes");
  const recipeId = recipes.body.recipes[0]!.id;
  const runs = await e2e.server.api<RecipeRunList>("GET", `/recipes/${recipeId}/runs`);
  expect(runs.body.runs).toHaveLength(1);
  const sessionId = runs.body.runs[0]!.sessionId!;
  expect(await history.getByRole("link", { name: "Open" }).getAttribute("href")).toBe(`/sessions/${sessionId}`);
  await history.getByRole("link", { name: "Open" }).click();
  await page.getByRole("log", { name: "Transcript" }).getByText("reply to: Triage the issues labelled bug").waitFor();

  // A recipe without placeholders runs from the palette straight into its session.
  const quick = await e2e.server.api<{ id: string }>("POST", "/recipes", {
    name: "Quick check",
    engine: "echo",
    prompt: "Check",
    cwd: e2e.server.scratchDir,
  });
  expect(quick.status).toBe(201);
  await page.keyboard.press("Control+k");
  const box = page.getByRole("combobox", { name: "Page, session, board, dashboard or action" });
  await box.fill("run recipe quick");
  await page.getByRole("option", { name: /Run recipe: Quick check/ }).waitFor();
  await box.press("Enter");
  await page.waitForURL((url) => url.pathname.startsWith("/sessions/") && !url.pathname.endsWith(sessionId));
  await page.getByRole("log", { name: "Transcript" }).getByText("reply to: Check").waitFor();

  // One with a placeholder opens its Run dialog on the page instead, even when Enter comes
  // before the palette has read the recipes: the Enter waits for them.
  let releaseRecipes = () => {};
  const recipesHeld = new Promise<void>((resolve) => (releaseRecipes = resolve));
  await page.route("**/api/recipes", async (route) => {
    await recipesHeld;
    await route.continue();
  });
  await page.keyboard.press("Control+k");
  await box.fill("run recipe triage");
  await page.locator('[role="listbox"][aria-busy="true"]').waitFor();
  await box.press("Enter");
  releaseRecipes();
  await page.getByRole("dialog", { name: "Run Triage" }).waitFor();
  await page.unroute("**/api/recipes");
  await page.getByRole("dialog", { name: "Run Triage" }).getByRole("button", { name: "Cancel" }).click();
  // The browser logs the refused save (409, a taken name) as a failed load, and nothing else.
  expect(errors.filter((e) => !e.includes("409 (Conflict)"))).toEqual([]);
  await context.close();
});

test("a schedule is made in the page, and one an agent made is approved from the inbox", async () => {
  const { context, page } = await loggedInPage(e2e, "/automations#schedules");
  const errors = consoleErrors(page);
  await page.getByText("No schedules yet.").waitFor();

  // Made in the page: every problem is said at once, each under its field, in words.
  await page.getByRole("button", { name: "New schedule" }).click();
  const dialog = page.getByRole("dialog", { name: "New schedule" });
  await dialog.getByLabel("Recipe").selectOption({ label: "Triage" });
  const zone = dialog.getByRole("combobox", { name: "Time zone" });
  expect(await zone.inputValue()).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
  // The one picker: presets first, then a custom cron pattern or RRULE.
  const repeats = dialog.getByLabel("Repeats");
  expect(await repeats.inputValue()).toBe("daily");
  await repeats.selectOption("custom");
  await zone.fill("Mars/Olympus");
  const pattern = dialog.getByRole("textbox", { name: /Cron pattern/ });
  await pattern.fill("61 25 * * *");
  await dialog.getByRole("button", { name: "Save schedule" }).click();
  const said = async (field: string) => (await page.locator(`#schedule-form-${field}-error`).textContent()) ?? "";
  await page.locator("#schedule-form-values-error").waitFor();
  expect(await said("cron")).toBe("The minute must be 0–59, not 61. The hour must be 0–23, not 25.");
  expect(await said("timeZone")).toBe("No time zone is called Mars/Olympus: use a name such as Europe/Berlin.");
  expect(await said("values")).toBe("Give a value for {{label}}.");
  for (const field of [pattern, zone]) expect(await field.getAttribute("aria-invalid")).toBe("true");
  await shoot(page, "schedule-errors");
  await zone.fill("Europe/Berlin");
  await dialog.getByRole("textbox", { name: "label", exact: true }).fill("bug");
  await repeats.selectOption("daily");
  await dialog.getByLabel("At", { exact: true }).fill("02:30");
  // The next three times, in words.
  await dialog.getByText(/^Next: .* at 02:30, .* at 02:30 and .* at 02:30\.$/).waitFor();
  await shoot(page, "schedule-picker");
  await dialog.getByRole("button", { name: "Save schedule" }).click();
  await dialog.waitFor({ state: "detached" });
  const made = page.locator("li[data-schedule-id]", { hasText: "Every day at 02:30" });
  await made.getByText("Active", { exact: true }).waitFor();
  await made.getByText("Europe/Berlin").waitFor();

  // Run now: the recipe with the schedule's values, at once; its ticks go on.
  await made.getByRole("button", { name: "Run now" }).click();
  await made.getByRole("status").getByText("Run started.").waitFor();
  await made.getByRole("link", { name: "Open its session" }).waitFor();

  // An agent's schedule waits for approval, told by a row in the inbox.
  const holderId = await startSessionInPage(page, { engine: "holder", prompt: "hold", title: "Holder" });
  const token = await written(join(e2e.server.scratchDir, `token-${holderId}`));
  const recipes = await e2e.server.api<RecipeList>("GET", "/recipes");
  const triage = recipes.body.recipes.find((r) => r.name === "Triage")!;
  const agentMade = await fetch(`${e2e.server.controlUrl}/schedules`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      recipeId: triage.id,
      rrule: "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
      timeZone: "America/New_York",
      values: { label: "agent" },
    }),
  });
  expect(agentMade.status).toBe(201);
  const pending = (await agentMade.json()) as RecipeSchedule;
  expect(pending.state).toBe("pending");

  // The page shows it waiting without a reload, with the count on its tab.
  await page.getByRole("tab", { name: /Schedules.*1 to approve/ }).waitFor();
  const waiting = page.locator(`li[data-schedule-id="${pending.id}"]`);
  await waiting.getByText("Every week on Monday at 09:00").waitFor();
  await waiting.getByText("made by an agent").waitFor();

  await page.goto(`${e2e.server.uiUrl}/inbox`);
  const row = page.locator("li[data-row-id]", { hasText: "An agent asks to schedule the recipe Triage" });
  await row.first().waitFor();
  await row
    .first()
    .getByRole("button", { name: /^Approve/ })
    .click();
  await page
    .locator("li[data-row-id].read", { hasText: "An agent asks to schedule the recipe Triage" })
    .first()
    .waitFor();
  await row
    .first()
    .getByRole("button", { name: /^Approve/ })
    .waitFor({ state: "detached" });
  const after = await e2e.server.api<RecipeScheduleList>("GET", "/schedules");
  expect(after.body.schedules.find((s) => s.id === pending.id)?.state).toBe("active");

  // Back on the page it is active, and can be paused and resumed.
  await page.goto(`${e2e.server.uiUrl}/automations#schedules`);
  await waiting.getByText("Active", { exact: true }).waitFor();
  await waiting.getByRole("button", { name: "Pause" }).click();
  await waiting.getByText("Paused", { exact: true }).waitFor();
  await waiting.getByRole("button", { name: "Resume" }).click();
  await waiting.getByText("Active", { exact: true }).waitFor();

  expect((await e2e.server.api("POST", `/sessions/${holderId}/stop`)).status).toBeLessThan(300);
  // The browser logs the refused save (400, a bad pattern) as a failed load, and nothing else.
  expect(errors.filter((e) => !e.includes("400 (Bad Request)"))).toEqual([]);
  await context.close();
});

test("a rule is made in the page, fires, and one an agent made is approved from the inbox", async () => {
  await setSetting(e2e.server, "webhooksEnabled", true);
  // A rule's runs are agent-driven spawns.
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  const hook = await e2e.server.api<{ id: string; url: string }>("POST", "/webhooks", { name: "Deploys" });
  expect(hook.status).toBe(201);
  const { context, page } = await loggedInPage(e2e, "/automations#rules");
  const errors = consoleErrors(page);
  await page.getByText("No rules yet.").waitFor();

  // A webhook delivery whose ref is main runs "Quick check".
  await page.getByRole("button", { name: "New rule" }).click();
  const dialog = page.getByRole("dialog", { name: "New rule" });
  await dialog.getByLabel("Name").fill("Check main");
  await dialog.getByLabel("It fires when").selectOption("webhook");
  await dialog.getByRole("combobox", { name: /^Webhook/ }).selectOption({ label: "Deploys" });
  await dialog.getByRole("textbox", { name: /Only deliveries where/ }).fill("ref = main");
  await dialog.getByLabel("Run the recipe").selectOption({ label: "Quick check" });
  await dialog.getByRole("button", { name: "Save rule" }).click();
  await dialog.waitFor({ state: "detached" });
  const rule = page.locator("li[data-rule-id]", { hasText: "Check main" });
  await rule
    .getByText("When a delivery to webhook “Deploys” where ref is “main” → run “Quick check”", { exact: true })
    .waitFor();

  for (const ref of ["other", "main"]) {
    const delivered = await fetch(hook.body.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ref }),
    });
    expect(delivered.status).toBe(202);
  }
  await rule.getByRole("button", { name: "History" }).click();
  const history = rule.getByRole("table", { name: "History of Check main" });
  // Only the delivery that matches fires it; its session is linked.
  await history.getByText(/^(Started|Done)$/).waitFor();
  expect(await history.locator("tbody tr").count()).toBe(1);
  await history.getByRole("link", { name: "Open" }).waitFor();

  // Test: a dry run says what the rule would do, and does nothing.
  await rule.getByRole("button", { name: "Test" }).click();
  const test = rule.getByRole("status", { name: "Test" });
  await test.getByText("Start a session of the recipe “Quick check”.").waitFor();
  await test.getByText("Nothing would stop it today.").waitFor();
  expect(await history.locator("tbody tr").count()).toBe(1);

  // An agent's rule waits for approval, told by a row in the inbox.
  const holderId = await startSessionInPage(page, { engine: "holder", prompt: "hold", title: "Rule holder" });
  const token = await written(join(e2e.server.scratchDir, `token-${holderId}`));
  const agentMade = await fetch(`${e2e.server.controlUrl}/rules`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      name: "Agent's rule",
      when: { kind: "session_end", outcome: "failed" },
      then: [{ kind: "inbox", title: "A session failed" }],
    }),
  });
  expect(agentMade.status).toBe(201);
  const pending = (await agentMade.json()) as Rule;
  expect(pending.state).toBe("pending");
  await page.getByRole("tab", { name: /Rules.*1 to approve/ }).waitFor();

  await page.goto(`${e2e.server.uiUrl}/inbox`);
  const row = page.locator("li[data-row-id]", { hasText: "Agent's rule" });
  await row.getByRole("button", { name: /^Approve/ }).click();
  await page.locator("li[data-row-id].read", { hasText: "Agent's rule" }).waitFor();
  const after = await e2e.server.api<RuleList>("GET", "/rules");
  expect(after.body.rules.find((r) => r.id === pending.id)?.state).toBe("active");

  expect((await e2e.server.api("POST", `/sessions/${holderId}/stop`)).status).toBeLessThan(300);
  expect(errors).toEqual([]);
  await context.close();
});

test("the page, filled, fits a phone's width", async () => {
  const { context, page } = await loggedInPage(e2e, "/automations");
  await page.setViewportSize({ width: 390, height: 844 });
  for (const tab of ["recipes", "schedules", "rules"]) {
    await page.goto(`${e2e.server.uiUrl}/automations#${tab}`);
    await page.locator("li[data-recipe-id], li[data-schedule-id], li[data-rule-id]").first().waitFor();
    const runs = page.getByRole("button", { name: "Runs" }).first();
    if (tab === "recipes") await runs.click();
    await page.waitForLoadState("networkidle");
    const faults = await page.evaluate(() => {
      const found: string[] = [];
      if (document.documentElement.scrollWidth > window.innerWidth + 1) {
        found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
      }
      const controls = [...document.querySelectorAll("main a, main button, main input, main select")];
      for (const control of controls) {
        const box = control.getBoundingClientRect();
        if (box.width > 0 && box.right > window.innerWidth + 1 && !control.closest(".table-scroll")) {
          found.push(`"${(control.textContent ?? "").trim()}" ends at ${Math.round(box.right)} px`);
        }
      }
      return found;
    });
    expect(faults, tab).toEqual([]);
  }
  await context.close();
});

test("a rule whose run a setting refuses fails its item, and its inbox row opens that setting", async () => {
  const api = e2e.server.api.bind(e2e.server);
  const before = (await api<{ value: number }>("GET", "/settings/agentDrivenMaxConcurrent")).body.value;
  await setSetting(e2e.server, "agentDrivenMaxConcurrent", 0);
  const workspace = (await api<{ id: string }>("POST", "/workspaces", { name: "Agent work" })).body;
  const board = (
    await api<{ id: string }>("POST", "/boards", {
      workspaceId: workspace.id,
      name: "Agent tasks",
      preset: "first-agent-board",
    })
  ).body;
  const item = (
    await api<{ id: string }>("POST", `/boards/${board.id}/items`, {
      name: "Fix the login",
      values: { prompt: "Tokens expire too early.", status: "Queued" },
    })
  ).body;
  const recipe = (
    await api<{ id: string }>("POST", "/recipes", {
      name: "Work an item",
      engine: "echo",
      cwd: e2e.server.scratchDir,
      prompt: "{{item.name}}",
    })
  ).body;
  const rule = await api("POST", "/rules", {
    name: "Agent loop",
    when: { kind: "item_status", boardId: board.id, status: "Ready for agent" },
    then: [
      {
        kind: "start_recipe",
        recipeId: recipe.id,
        item: { runningStatus: "Running", finishedStatus: "Review", failedStatus: "Failed" },
      },
    ],
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  await api("PATCH", `/items/${item.id}`, { values: { status: "Ready for agent" } });
  // The item does not sit in "Ready for agent" as if an agent were on it.
  await until(
    () => api<{ values: Record<string, unknown> }>("GET", `/items/${item.id}`).then((r) => r.body),
    (read) => read.values.status === "Failed",
  );

  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  const row = page.locator("li[data-row-id]", { hasText: "A run of the recipe Work an item did not finish" });
  await row.waitFor();
  // The reason names the setting as the settings page does, and one button opens it there.
  const fix = row.getByRole("button", { name: /^Open setting: / });
  const label = ((await fix.textContent()) ?? "").replace("Open setting: ", "");
  expect(label).not.toBe("agentDrivenMaxConcurrent");
  expect(await row.textContent()).toContain(label);
  await shoot(page, "run-refused");
  await fix.click();
  await page.waitForURL(/\/settings#agentDrivenMaxConcurrent$/);
  const target = page.locator('.setting-targeted[data-setting="agentDrivenMaxConcurrent"]');
  await target.waitFor();
  await expect.poll(() => target.evaluate((el) => el.getBoundingClientRect().top >= 0)).toBe(true);

  // The recipe's run history is where the row's Open goes: the run is there with why it failed.
  await page.goto(`${e2e.server.uiUrl}/automations#runs=${recipe.id}`);
  await page
    .getByRole("table", { name: "Runs of Work an item" })
    .getByText(/did not start|could not start/)
    .waitFor();
  await setSetting(e2e.server, "agentDrivenMaxConcurrent", before);
  expect(errors).toEqual([]);
  await context.close();
});

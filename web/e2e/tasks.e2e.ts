/**
 * The utility model's features in the browser, against a real server whose primary engine is a
 * stand-in of Claude Code that answers utility questions as the real CLI prints them
 * (crates/cli/tests/fixtures/utility-claude): the Tasks page (add, nest and reorder by keyboard,
 * check, snooze, a task added elsewhere showing without a reload; a workspace's list mirrored to a
 * project folder and edited there), the Caught view (follow-ups
 * arriving while it is open, keep, dismiss), and an AI title reaching the board without a reload,
 * then renamed by the user.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, waitForStatus } from "./harness";

const UTILITY_CLAUDE = resolve(import.meta.dirname, "../../crates/cli/tests/fixtures/utility-claude");

const e2e = serverAndBrowser();

interface ApiTask {
  id: string;
  text: string;
  parentId: string | null;
  position: number;
  state: string;
  snoozedUntil: string | null;
}

const tasks = async () => (await e2e.server.api<{ tasks: ApiTask[] }>("GET", "/tasks")).body.tasks;

function useUtilityClaude() {
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.primary]\nkind = "claude"\ncommand = ["/bin/sh", ${JSON.stringify(UTILITY_CLAUDE)}]\n`,
  );
}

/** Starts a session as the browser does, with no title of the user's. */
async function spawn(page: Page, prompt: string): Promise<string> {
  return page.evaluate(
    async (body) => {
      const r = await fetch("/api/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return ((await r.json()) as { id: string }).id;
    },
    { engine: "primary", prompt },
  );
}

test("tasks are added, nested and moved by keyboard, checked and snoozed", async () => {
  useUtilityClaude();
  const { context, page } = await loggedInPage(e2e, "/tasks");
  const errors = consoleErrors(page);
  await page.getByRole("link", { name: "Tasks", exact: true }).first().waitFor();
  const add = page.getByRole("textbox", { name: "New task" });
  // Typed as a person types: the first word is capitalized once it is complete.
  await add.pressSequentially("write the release notes");
  expect(await add.inputValue()).toBe("Write the release notes");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await add.pressSequentially("tag v2 and push");
  await add.press("Enter");
  const ship = page.getByRole("textbox", { name: "Task: Tag v2 and push" });
  await ship.waitFor();

  // Tab nests it under the task above; focus stays on it.
  await ship.press("Tab");
  await expect.poll(async () => (await tasks()).find((t) => t.text === "Tag v2 and push")?.parentId).not.toBeNull();
  const row = page.locator("li.task-row", { has: page.getByRole("textbox", { name: "Task: Tag v2 and push" }) });
  await expect.poll(() => row.getAttribute("data-depth")).toBe("1");
  await expect.poll(() => ship.evaluate((el) => el === document.activeElement)).toBe(true);
  // Shift+Tab takes it out again, then Alt+ArrowUp puts it first.
  await ship.press("Shift+Tab");
  await expect.poll(() => row.getAttribute("data-depth")).toBe("0");
  await ship.press("Alt+ArrowUp");
  await expect
    .poll(async () =>
      (await tasks())
        .filter((t) => t.parentId === null)
        .sort((a, b) => a.position - b.position)
        .map((t) => t.text),
    )
    .toEqual(["Tag v2 and push", "Write the release notes"]);
  await expect
    .poll(() =>
      page.locator("li.task-row .task-text").evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)),
    )
    .toEqual(["Tag v2 and push", "Write the release notes"]);

  // Check one, snooze the other.
  await page.getByRole("checkbox", { name: "Done: Tag v2 and push" }).click();
  await expect.poll(async () => (await tasks()).find((t) => t.text === "Tag v2 and push")?.state).toBe("done");
  await page.getByRole("combobox", { name: "Snooze: Write the release notes" }).selectOption("tomorrow");
  await page.getByText(/snoozed until/).waitFor();
  const snoozed = (await tasks()).find((t) => t.text === "Write the release notes");
  expect(snoozed?.snoozedUntil).not.toBeNull();
  expect(new Date(snoozed?.snoozedUntil ?? 0).getTime()).toBeGreaterThan(Date.now());

  // A task written elsewhere (an agent, a script, a tasks.md edit) shows without a reload.
  expect((await e2e.server.api("POST", "/tasks", { text: "Rotate the deploy key" })).status).toBe(201);
  await page.getByRole("textbox", { name: "Task: Rotate the deploy key" }).waitFor();

  // Hide completed tasks: the done one goes and is counted.
  await setSetting(e2e.server, "tasksV2HideCompleted", true);
  await page.getByText("1 completed task hidden").waitFor();
  await setSetting(e2e.server, "tasksV2HideCompleted", false);
  expect(errors).toEqual([]);
  await context.close();
});

test("a workspace's list is picked, mirrored to a project folder and edited there", async () => {
  const workspace = await e2e.server.api<{ id: string }>("POST", "/workspaces", { name: "Platform" });
  expect(workspace.status).toBe(201);
  const workspaceId = workspace.body.id;
  const project = mkdtempSync(join(tmpdir(), "switchboard-tasks-project-"));
  try {
    const { context, page } = await loggedInPage(e2e, "/tasks");
    const errors = consoleErrors(page);
    await page.getByRole("combobox", { name: "Task list" }).selectOption({ label: "Platform" });
    await page.getByText("once it has a task").waitFor();
    const add = page.getByRole("textbox", { name: "New task" });
    await add.fill("Rotate the staging certificates");
    await add.press("Enter");
    await page.getByRole("textbox", { name: "Task: Rotate the staging certificates" }).waitFor();
    await page.getByText(/This list is mirrored to .*tasks\.md/).waitFor();
    const listed = async (query: string) =>
      (await e2e.server.api<{ tasks: ApiTask[] }>("GET", `/tasks${query}`)).body.tasks.map((t) => t.text);
    expect(await listed(`?workspaceId=${encodeURIComponent(workspaceId)}`)).toEqual([
      "Rotate the staging certificates",
    ]);
    expect(await listed("")).not.toContain("Rotate the staging certificates");

    // A folder that is not there is refused and nothing changes.
    const folder = page.getByRole("textbox", { name: "Project folder" });
    await folder.fill(join(project, "missing"));
    await page.getByRole("button", { name: "Mirror here" }).click();
    await page.getByRole("alert").filter({ hasText: "not an existing directory" }).waitFor();
    // The browser logs the refused request; that one line is expected, and only it.
    expect(errors).toEqual([expect.stringMatching(/status of 400 .*\/api\/tasks\/mirror/)]);
    errors.splice(0);
    await folder.fill(project);
    await page.getByRole("button", { name: "Mirror here" }).click();
    await page.getByRole("button", { name: "Stop mirroring" }).waitFor();
    const file = join(project, "tasks.md");
    await expect
      .poll(() => readFileSync(file, "utf8"), { timeout: 10_000 })
      .toContain("Rotate the staging certificates");

    // An edit in the project's tasks.md reaches the open page.
    writeFileSync(file, `${readFileSync(file, "utf8")}- [ ] Renew the wildcard domain\n`);
    await page.getByRole("textbox", { name: "Task: Renew the wildcard domain" }).waitFor({ timeout: 20_000 });

    // The choice of list outlives a reload.
    await page.reload();
    await page.getByRole("textbox", { name: "Task: Renew the wildcard domain" }).waitFor();
    await page.getByRole("button", { name: "Stop mirroring" }).click();
    await page.getByRole("button", { name: "Mirror here" }).waitFor();
    const mirrors = (
      await e2e.server.api<{ mirrors: { workspaceId: string | null; folder: string | null }[] }>("GET", "/tasks/mirror")
    ).body.mirrors;
    expect(mirrors.find((m) => m.workspaceId === workspaceId)?.folder).toBeNull();
    await page.getByRole("combobox", { name: "Task list" }).selectOption({ label: "Personal" });
    await page.getByRole("textbox", { name: "Task: Renew the wildcard domain" }).waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

test("follow-ups caught from an archived session are kept or dismissed", async () => {
  useUtilityClaude();
  await setSetting(e2e.server, "tasksV2CatchesEnabled", true);
  const { context, page } = await loggedInPage(e2e, "/tasks/caught");
  const errors = consoleErrors(page);
  await page.getByText(/Nothing caught/).waitFor();
  const id = await spawn(page, "fix the login test");
  await waitForStatus(e2e.server, id, "waiting_for_input");
  expect((await e2e.server.api("POST", `/sessions/${id}/archive`)).status).toBe(200);
  await expect
    .poll(async () => (await e2e.server.api<{ caught: unknown[] }>("GET", "/tasks/caught")).body.caught.length, {
      timeout: 20_000,
    })
    .toBe(2);
  // The view was open and empty while they were staged: they arrive without a reload.
  const list = page.getByRole("list", { name: "Caught follow-ups" });
  await expect.poll(() => list.getByRole("listitem").count()).toBe(2);
  await page.getByRole("link", { name: /^Caught\s*2$/ }).waitFor();
  await list.getByText("Someone should still update the changelog.").waitFor();
  await page.getByRole("button", { name: "Keep: Update the changelog" }).click();
  await page.getByRole("button", { name: "Dismiss: Add a retry test" }).click();
  await page.getByText(/Nothing caught/).waitFor();
  const kept = (await tasks()).find((t) => t.text === "Update the changelog");
  expect(kept).toBeDefined();
  await page.getByRole("link", { name: "Tasks", exact: true }).last().click();
  await page.getByRole("textbox", { name: "Task: Update the changelog" }).waitFor();
  await page.getByRole("link", { name: "from a session" }).first().waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

test("an AI title reaches the board without a reload, and a rename is the user's", async () => {
  useUtilityClaude();
  await setSetting(e2e.server, "sessionTitleStyle", "brief");
  const { context, page } = await loggedInPage(e2e, "/");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
  const id = await spawn(page, "the login test fails one run in five, find out why");
  // The board drew the session first under its prompt; the title arrives as a stream event.
  await page.getByText("Fix the flaky login test").first().waitFor({ timeout: 20_000 });
  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  await page.getByRole("heading", { name: "Fix the flaky login test" }).waitFor();
  await expect.poll(() => page.title()).toBe("Fix the flaky login test · Switchboard");
  await page.getByRole("button", { name: "Rename", exact: true }).click();
  const field = page.getByRole("textbox", { name: "Session title" });
  await field.fill("Login test: the race");
  await field.press("Enter");
  await page.getByRole("heading", { name: "Login test: the race" }).waitFor();
  const session = (await e2e.server.api<{ title: string; titleSource: string }>("GET", `/sessions/${id}`)).body;
  expect(session).toMatchObject({ title: "Login test: the race", titleSource: "user" });
  expect(errors).toEqual([]);
  await context.close();
});

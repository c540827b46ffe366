/**
 * A session started, watched and answered from the web app, against a `command` engine: the New
 * session dialog (a refusal shown in it, then a start), the reply appearing without a reload, a
 * follow-up sent while a turn runs shown as queued and then answered, Stop (confirmed) and Archive.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();
let folder: string;
let gate: string;
/** The CLI tests' fake Claude Code: a realistic stream-json turn with tools, an edit and a cost. */
const FAKE_CLAUDE = resolve(import.meta.dirname, "../../crates/cli/tests/fixtures/typed-claude");
/** More entries than the page's 200 per page. */
const LONG_LINES = 240;

beforeAll(async () => {
  // With no workspace the sidebar puts the cursor in its "New workspace name" field.
  expect((await e2e.server.api("POST", "/workspaces", { name: "E2E" })).status).toBe(201);
  folder = mkdtempSync(join(tmpdir(), "switchboard-e2e-engine-"));
  gate = join(folder, "gate");
  const script = join(folder, "reply.sh");
  // Turn 1 waits for the gate file the test creates, so a follow-up sent meanwhile is queued;
  // a message saying "hold" never ends on its own, so Stop has a turn to end.
  writeFileSync(
    script,
    `#!/bin/sh
# Switchboard puts its notes before the text: the message is the last line.
input=$(tail -n 1)
if [ "$APP_TURN" = 1 ]; then
  while [ ! -e '${gate}' ]; do sleep 0.05; done
fi
if [ "$input" = hold ]; then
  while :; do sleep 1; done
fi
echo "reply to: $input"
`,
  );
  chmodSync(script, 0o755);
  // One line at a time, slower than the server's flushes, so each line is an entry of its own
  // and the transcript outgrows a page.
  const long = join(folder, "long.sh");
  writeFileSync(
    long,
    `#!/bin/sh
cat > /dev/null
i=1
while [ $i -le ${LONG_LINES} ]; do echo "chunk $i"; i=$((i+1)); sleep 0.06; done
`,
  );
  chmodSync(long, 0o755);
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/bin/sh", ${JSON.stringify(script)}]\n\n` +
      `[engines.long]\nkind = "command"\ncommand = ["/bin/sh", ${JSON.stringify(long)}]\n\n` +
      `[engines.claude]\nkind = "claude"\ncommand = ["/bin/sh", ${JSON.stringify(FAKE_CLAUDE)}]\n`,
  );
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

test("a session is started from the dialog, answered while it runs, stopped and archived", async () => {
  const { context, page } = await loggedInPage(e2e, "/sessions");
  const errors = consoleErrors(page);
  await page.getByRole("button", { name: "New session" }).click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.getByLabel("Engine").selectOption("echo");
  await dialog.getByLabel("Folder").fill(folder);
  await dialog.getByLabel("Prompt").fill("hello");
  await dialog.getByLabel("Title").fill("E2E session");

  // The folder is no git repository: isolation is refused, and the dialog says why.
  await dialog.getByLabel("Isolate in a git worktree").check();
  await dialog.getByRole("button", { name: "Start session" }).click();
  await dialog.getByRole("alert").filter({ hasText: "is not inside a git repository" }).waitFor();

  await dialog.getByLabel("Isolate in a git worktree").uncheck();
  await dialog.getByRole("button", { name: "Start session" }).click();
  await page.getByRole("heading", { name: "E2E session" }).waitFor();
  expect(new URL(page.url()).pathname).toMatch(/^\/sessions\/[^/]+$/);
  const transcript = page.getByRole("log", { name: "Transcript" });
  await transcript.getByText("hello", { exact: true }).waitFor();

  // The cursor is in the composer (sessionAutoFocusInput is on by default).
  const composer = page.getByLabel("Follow-up message");
  expect(await composer.evaluate((el) => el === document.activeElement)).toBe(true);

  // Turn 1 is held open: the follow-up waits its turn, and says so.
  await page.getByTestId("session-status").filter({ hasText: "running" }).waitFor();
  await composer.fill("second");
  await composer.press("Enter");
  const queued = page.getByRole("list", { name: "Queued messages" });
  await queued.getByText("second").waitFor();
  expect(await queued.getByText("queued").count()).toBe(1);

  writeFileSync(gate, "");
  await transcript.getByText("reply to: hello").waitFor();
  await transcript.getByText("reply to: second").waitFor();
  await queued.waitFor({ state: "detached" });
  await page.getByTestId("session-status").filter({ hasText: "waiting for input" }).waitFor();

  // With sessionAutoFocusInput off the page leaves the cursor alone, and R puts it in the composer.
  await setSetting(e2e.server, "sessionAutoFocusInput", false);
  await page.reload();
  await transcript.getByText("reply to: second").waitFor();
  expect(await composer.evaluate((el) => el === document.activeElement)).toBe(false);
  await page.keyboard.press("r");
  expect(await composer.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await composer.inputValue()).toBe("");

  // A turn that never ends on its own: Stop asks first, then ends the process tree.
  await composer.fill("hold");
  await composer.press("Enter");
  await page.getByTestId("session-status").filter({ hasText: "running" }).waitFor();
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Stop this session?" });
  await confirm.getByRole("button", { name: "Stop", exact: true }).click();
  await page.getByTestId("session-status").filter({ hasText: "stopped" }).waitFor();
  expect(await composer.isDisabled()).toBe(true);

  await page.getByRole("button", { name: "Archive" }).click();
  await page.getByText("archived", { exact: true }).waitFor();
  expect(await page.getByRole("button", { name: "Archive" }).count()).toBe(0);

  // Chromium logs every refused request, the expected 400 of the isolation attempt included.
  const refusal = "the server responded with a status of 400 (Bad Request) (" + e2e.server.uiUrl + "/api/sessions)";
  expect(errors.filter((e) => !e.endsWith(refusal))).toEqual([]);
  await context.close();
});

/** Starts a session as the user (the browser's cookie), like the dialog does; returns its id. */
async function spawnFromPage(page: Page, engine: string, title: string): Promise<string> {
  return page.evaluate(
    async ({ engine, title, cwd }) => {
      const reply = await fetch("/api/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ engine, prompt: "go", cwd, title }),
      });
      return ((await reply.json()) as { id: string }).id;
    },
    { engine, title, cwd: folder },
  );
}

test("a Claude turn shows its final answer, with the steps before it folded and its edit as a diff", async () => {
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox" }).waitFor();
  await page.goto(`${e2e.server.uiUrl}/sessions/${await spawnFromPage(page, "claude", "Claude")}`);
  const transcript = page.getByRole("log", { name: "Transcript" });
  // The answer once (the result's copy of the last message is not shown twice), as Markdown.
  await transcript.getByText("The tests pass now.").waitFor();
  expect(await transcript.getByText("The tests pass now.").count()).toBe(1);
  expect(await transcript.locator("code", { hasText: "add" }).count()).toBe(1);
  await page.getByText("$0.04").waitFor();

  const fold = transcript.getByRole("button", { name: /earlier steps/ });
  expect(await fold.getAttribute("aria-expanded")).toBe("false");
  expect(await transcript.getByText("cargo test").count()).toBe(0);
  await fold.click();
  await transcript.getByText("cargo test", { exact: true }).waitFor();
  await transcript.locator("summary", { hasText: "Edit" }).click();
  await transcript.getByText("- a - b").waitFor();
  await transcript.getByText("+ a + b").waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

test("a long transcript opens at its end, keeps few rows in the page, and loads earlier ones on scrolling up", async () => {
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox" }).waitFor();
  const id = await spawnFromPage(page, "long", "Long");
  for (let tries = 0; ; tries++) {
    const session = await e2e.server.api<{ status: string }>("GET", `/sessions/${id}`);
    if (session.body.status === "waiting_for_input") break;
    if (tries > 300) throw new Error(`the long turn did not end: ${session.body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const tail = await e2e.server.api<{ more: boolean }>("GET", `/sessions/${id}/transcript?format=json&tail=true`);
  expect(tail.body.more).toBe(true);

  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  const transcript = page.getByRole("log", { name: "Transcript" });
  await transcript.getByText(`chunk ${LONG_LINES}`, { exact: true }).waitFor();
  expect(await transcript.getByText("chunk 1", { exact: true }).count()).toBe(0);
  expect(await page.locator(".transcript-row").count()).toBeLessThan(40);

  // Each step to the top asks for the page before the first entry held.
  for (let tries = 0; (await transcript.getByText("chunk 1", { exact: true }).count()) === 0; tries++) {
    if (tries > 100) throw new Error("scrolling up never reached the first entry");
    await transcript.evaluate((el) => (el.scrollTop = 0));
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await page.locator(".transcript-row").count()).toBeLessThan(40);
  expect(errors).toEqual([]);
  await context.close();
});

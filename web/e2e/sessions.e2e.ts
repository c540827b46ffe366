/**
 * A session started, watched and answered from the web app, against a `command` engine: the New
 * session dialog (a refusal shown in it, then a start), the reply appearing without a reload, a
 * follow-up sent while a turn runs shown as queued and then answered, Stop (confirmed) and Archive.
 * The transcript draws a tool call and its result as one row with its time and duration, a
 * program's lines as one log, and offers "Jump to latest" when scrolled up; a failed step shows ✗,
 * its exit code and last lines without being opened, even inside a closed fold; an engine's stop
 * reason (`error_max_turns`) reads as words with the code as their title; a Claude session offers
 * Fork, a command one does not; an isolated session lists its changed files with their diffs.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
/**
 * A Claude Code run whose build fails (exit code 1, as Claude's Bash reports it), whose next step
 * works, and which then stops at its turn limit: a `result` carrying only its subtype.
 */
const LIMITED_CLAUDE = `#!/bin/sh
cat <<'JSON'
{"type":"system","subtype":"init","session_id":"c-limit","model":"claude-sonnet-4-5","claude_code_version":"2.0.14"}
{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go build ./...","description":"Build"}}]},"session_id":"c-limit"}
JSON
sleep 0.3
cat <<'JSON'
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"Exit code 1\\n./main.go:3:2: undefined: mapping.NewTextFieldMapping","is_error":true}]},"session_id":"c-limit"}
{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Grep","input":{"pattern":"NewTextFieldMapping","path":"cmd"}}]},"session_id":"c-limit"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"cmd/indexer/mapping.go"}]},"session_id":"c-limit"}
{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":40,"session_id":"c-limit","total_cost_usd":0.5,"usage":{"input_tokens":10,"output_tokens":2}}
JSON
exit 1
`;
/** More entries than the page's 200 per page. */
const LONG_LINES = 240;

beforeAll(async () => {
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
  const limited = join(folder, "limited-claude.sh");
  writeFileSync(limited, LIMITED_CLAUDE);
  chmodSync(limited, 0o755);
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/bin/sh", ${JSON.stringify(script)}]\n\n` +
      `[engines.long]\nkind = "command"\ncommand = ["/bin/sh", ${JSON.stringify(long)}]\n\n` +
      `[engines.claude]\nkind = "claude"\ncommand = ["/bin/sh", ${JSON.stringify(FAKE_CLAUDE)}]\n\n` +
      `[engines.limited]\nkind = "claude"\ncommand = ["/bin/sh", ${JSON.stringify(limited)}]\n`,
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
  // "reply to: second" asks nothing: the turn is done, not waiting on the user.
  await page.getByTestId("session-status").filter({ hasText: "done" }).waitFor();

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
  await page.getByText("Archived", { exact: true }).waitFor();
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
  // The fold names the failure it holds, and keeps that step in view while closed: the failed
  // test run with its last lines, not the steps that worked.
  expect(await fold.textContent()).toMatch(/1 failed/);
  const failed = transcript.locator('details[data-tool-state="failed"]', { hasText: "cargo test" });
  await failed.waitFor();
  expect(await failed.getAttribute("open")).toBeNull();
  const tail = transcript.getByRole("group", { name: "Last lines of the output" });
  expect(await tail.getByText("test add ... FAILED").isVisible()).toBe(true);
  expect(await transcript.locator("summary", { hasText: "Edit" }).count()).toBe(0);
  await fold.click();
  await transcript.getByText("cargo test", { exact: true }).waitFor();
  expect(await transcript.locator('details[data-tool-state="failed"]').count()).toBe(1);
  await transcript.locator("summary", { hasText: "Edit" }).click();
  await transcript.getByText("- a - b").waitFor();
  await transcript.getByText("+ a + b").waitFor();

  // A call and its result are one row: the failed test run carries its output, its start time
  // and how long it ran; no result stands apart from its call.
  const bash = transcript.locator('details[data-tool-state="failed"]', { hasText: "cargo test" });
  await bash.locator("summary").click();
  await bash.getByText("test add ... FAILED").waitFor();
  expect(await bash.locator(".entry-when time").count()).toBe(1);
  expect(await bash.locator(".entry-when").textContent()).toMatch(/\d+\.\d s|\d+ s/);
  expect(await transcript.locator("summary", { hasText: "Tool result" }).count()).toBe(0);

  // The engine can fork, and the session has a conversation to copy.
  await page.getByRole("button", { name: "Fork" }).click();
  const fork = page.getByRole("dialog", { name: "Fork this session" });
  await fork.getByRole("textbox", { name: "What should the fork do?" }).waitFor();
  await fork.getByRole("button", { name: "Cancel" }).click();
  await fork.waitFor({ state: "detached" });
  expect(errors).toEqual([]);
  await context.close();
});

test("a failed step shows ✗ and its exit code unopened, and a stop reason reads as words with its code on hover", async () => {
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox" }).waitFor();
  await page.goto(`${e2e.server.uiUrl}/sessions/${await spawnFromPage(page, "limited", "Limited")}`);
  await page.getByTestId("session-status").filter({ hasText: "failed" }).waitFor();
  const transcript = page.getByRole("log", { name: "Transcript" });

  // Nothing opened: the build's row says ✗ (and "Failed" to a screen reader), exit 1, the command
  // as a prompt line, and its last lines; the step that worked says ✓.
  const build = transcript.locator('details[data-tool-state="failed"]', { hasText: "go build" });
  await build.waitFor();
  expect(await build.getAttribute("open")).toBeNull();
  const summary = build.locator("summary");
  expect(await summary.locator(".step-status").textContent()).toBe("✗Failed");
  expect(await summary.textContent()).toContain("$ go build ./...");
  expect(await summary.getByTitle("Exit code").textContent()).toBe("exit 1");
  expect(await summary.textContent()).not.toContain('"command"');
  const tail = transcript.getByRole("group", { name: "Last lines of the output" });
  expect(await tail.getByText("undefined: mapping.NewTextFieldMapping").isVisible()).toBe(true);
  const grep = transcript.locator('details[data-tool-state="ok"]', { hasText: "NewTextFieldMapping in cmd" });
  expect(await grep.locator(".step-status").textContent()).toBe("✓Succeeded");

  // The engine's stop reason, error_max_turns, is said in words, on the page and in the
  // transcript; the code is the words' title, for whoever wants it.
  const words = "It stopped at its turn limit before it finished.";
  const header = page.getByTestId("session-error");
  await header.getByText(words).waitFor();
  expect(await header.getByText(words).getAttribute("title")).toBe("error_max_turns");
  expect(await page.getByText("error_max_turns", { exact: true }).count()).toBe(0);
  const entry = transcript.locator(".entry-error").getByText(words);
  expect(await entry.getAttribute("title")).toBe("error_max_turns");

  // On a phone the page, its failed step and its error, does not scroll sideways.
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await build.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
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
  // A program's lines show as logs of many lines, not a box per line.
  const line = (n: number) => transcript.locator(".entry-stdout", { hasText: new RegExp(`(^|\\n)chunk ${n}(\\n|$)`) });
  await line(LONG_LINES).waitFor();
  expect(Number(await line(LONG_LINES).getAttribute("data-lines"))).toBeGreaterThan(1);
  expect(await line(1).count()).toBe(0);
  expect(await page.locator(".transcript-row").count()).toBeLessThan(40);
  expect(await page.getByRole("button", { name: "Fork" }).count()).toBe(0);

  // Each step to the top asks for the page before the first entry held; away from the end,
  // "Jump to latest" brings the reader back.
  for (let tries = 0; (await line(1).count()) === 0; tries++) {
    if (tries > 100) throw new Error("scrolling up never reached the first entry");
    await transcript.evaluate((el) => (el.scrollTop = 0));
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await page.locator(".transcript-row").count()).toBeLessThan(40);
  await transcript.evaluate((el) => (el.scrollTop = 0));
  await page.getByRole("button", { name: /Jump to latest/ }).click();
  await page.getByRole("button", { name: /Jump to latest/ }).waitFor({ state: "detached" });
  await page.waitForFunction(() => {
    const log = document.querySelector('[role="log"]');
    return log !== null && log.scrollHeight - log.scrollTop - log.clientHeight < 50;
  });
  expect(errors).toEqual([]);
  await context.close();
});

test("an isolated session lists the files it changed, and each opens its diff", async () => {
  const repo = join(folder, "repo");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=E2E", "-c", "user.email=e2e@example.com", ...args], { cwd: repo });
  mkdirSync(repo, { recursive: true });
  git("init", "--quiet");
  writeFileSync(join(repo, "README.md"), "# App\n\nOld line.\n");
  git("add", ".");
  git("commit", "--quiet", "-m", "first");
  const writer = join(folder, "writer.sh");
  writeFileSync(
    writer,
    `#!/bin/sh\ncat >/dev/null\nprintf '# App\\n\\nNew line.\\n' > README.md\necho hello > notes.txt\necho done\n`,
  );
  chmodSync(writer, 0o755);
  const engines = join(e2e.server.dataDir, "engines.toml");
  writeFileSync(
    engines,
    `${readFileSync(engines, "utf8")}\n[engines.writer]\nkind = "command"\ncommand = ["/bin/sh", ${JSON.stringify(writer)}]\n`,
  );

  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox" }).waitFor();
  const id = await page.evaluate(async (cwd) => {
    const reply = await fetch("/api/sessions", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ engine: "writer", prompt: "edit", cwd, title: "Writer", isolation: "worktree" }),
    });
    return ((await reply.json()) as { id: string }).id;
  }, repo);
  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  const files = page.getByRole("list", { name: "Changed files" });
  await files.getByRole("button", { name: /README\.md/ }).waitFor();
  await files.getByRole("button", { name: /notes\.txt/ }).waitFor();
  expect(await files.getByRole("button", { name: /README\.md/ }).textContent()).toContain("+1");
  await files.getByRole("button", { name: /README\.md/ }).click();
  const diff = page.getByLabel("Diff of README.md");
  await diff.locator(".diff-deleted", { hasText: "-Old line." }).waitFor();
  await diff.locator(".diff-added", { hasText: "+New line." }).waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

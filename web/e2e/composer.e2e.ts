/**
 * The composer against a real server whose primary engine is a stand-in of Claude Code: it answers
 * the `initialize` control request with its commands as the real CLI does (docs/skills.md) and
 * answers a turn in stream-json. The `/` menu by keyboard on the session page and in the New
 * session dialog (arrows, Enter and Tab pick, Escape closes, a `/path` is sent as typed, an engine
 * that cannot list says why on hover and nothing else); Ask
 * opened from the sidebar and answered; a pasted link becoming the document's Markdown through
 * `POST /imports/url` (a page served by the test), Shift keeping the bare link, a failure keeping
 * it with the reason; pasted HTML becoming Markdown. Each look passes axe-core at 1440 and 390 px
 * in both themes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, until } from "./harness";

const e2e = serverAndBrowser();

/** What the stand-in answers every turn with; the Ask test looks for it on the session's page. */
const ANSWER = "Declare the host in runners.toml (docs/runners.md, Declaring a runner).";

/**
 * Claude Code as the composer meets it: with `--input-format stream-json`, the `initialize`
 * control request answered with three commands in 2.1's shape (a project skill, a user skill, a
 * built-in); otherwise one turn that says ANSWER.
 */
const STANDIN = `import json, sys
args = sys.argv[1:]
if "--input-format" in args:
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "control_request" and message["request"].get("subtype") == "initialize":
            commands = [
                {"name": "deploy", "description": "Deploy the branch to an environment (project)", "argumentHint": "[environment]"},
                {"name": "greet", "description": "Greet the user warmly (user)", "argumentHint": "[name]"},
                {"name": "compact", "description": "Clear the conversation but keep a summary", "argumentHint": "", "builtin": True},
            ]
            response = {"subtype": "success", "request_id": message["request_id"], "response": {"commands": commands}}
            print(json.dumps({"type": "control_response", "response": response}), flush=True)
    sys.exit(0)
answer = ${JSON.stringify(ANSWER)}
print(json.dumps({"type": "system", "subtype": "init", "session_id": "c-standin", "cwd": "/w", "model": "claude-sonnet-4-5", "tools": [], "claude_code_version": "2.1.330"}))
print(json.dumps({"type": "assistant", "message": {"id": "m1", "type": "message", "role": "assistant", "content": [{"type": "text", "text": answer}]}, "session_id": "c-standin"}))
print(json.dumps({"type": "result", "subtype": "success", "is_error": False, "num_turns": 1, "result": answer, "session_id": "c-standin", "total_cost_usd": 0.001, "usage": {"input_tokens": 10, "output_tokens": 12}}))
`;

/** The documents the paste test imports: served on loopback, as a page on the web would be. */
let documents: Server;
let documentsUrl = "";
let project = "";
const shots = process.env.COMPOSER_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "composer-shots-"));

beforeAll(async () => {
  const script = join(e2e.server.scratchDir, "standin-claude.py");
  writeFileSync(script, STANDIN);
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.primary]\nkind = "claude"\ncommand = ["python3", ${JSON.stringify(script)}]\n\n` +
      `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
  );
  project = join(mkdtempSync(join(e2e.server.scratchDir, "project-")), "shop");
  const skill = join(project, ".claude/skills/deploy/SKILL.md");
  mkdirSync(dirname(skill), { recursive: true });
  writeFileSync(
    skill,
    '---\nname: deploy\ndescription: Deploy the branch to an environment\nargument-hint: "[environment]"\n---\nRun make deploy ENV=$ARGUMENTS.\n',
  );
  documents = createServer((request, response) => {
    if (request.url === "/notes.md") {
      response.setHeader("Content-Type", "text/markdown; charset=utf-8");
      response.end("# Release notes\n\n- Faster start\n- Fewer restarts\n");
      return;
    }
    response.statusCode = 404;
    response.end("not here");
  });
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
  const address = documents.address();
  if (typeof address !== "object" || address === null) throw new Error("the documents server has no port");
  documentsUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((resolve) => documents.close(resolve));
});

/** A session of the stand-in in the project, started from `page` as the browser does, once its turn is done; its id. */
async function startSession(page: Page, title: string): Promise<string> {
  const reply = await page.evaluate(
    async (body) => {
      const r = await fetch("/api/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as { id: string } };
    },
    { engine: "primary", prompt: "Look around", cwd: project, title },
  );
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  const id = reply.body.id;
  const settled = await until(
    () => e2e.server.api<{ status: string }>("GET", `/sessions/${id}`),
    (r) => !["starting", "running", "queued"].includes(r.body.status),
    30_000,
  );
  expect(settled.body.status).not.toBe("failed");
  return id;
}

/** Every message the session was sent, in order. */
/**
 * A message becomes a turn only once the turn before it ended, which on a machine running the whole suite can take
 * longer than a poll's default 5 s.
 */
const TURN_WAIT = { timeout: 30_000 };

async function inputs(id: string): Promise<string[]> {
  const reply = await e2e.server.api<{ turns: { input: string }[] }>("GET", `/sessions/${id}/transcript`);
  return reply.body.turns.map((turn) => turn.input);
}

const menu = (page: Page) => page.getByRole("listbox", { name: "Skills" });
const options = (page: Page) => menu(page).getByRole("option");

async function activeOption(page: Page, box: ReturnType<Page["getByRole"]>): Promise<string> {
  const id = await box.getAttribute("aria-activedescendant");
  expect(id).toBeTruthy();
  return (await page.locator(`[id="${id}"]`).textContent()) ?? "";
}

test("the / menu lists the engine's skills and is driven by keyboard, never in a /path's way", async () => {
  const { page } = await loggedInPage(e2e);
  const errors = consoleErrors(page);
  const id = await startSession(page, "Ship the shop");
  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  const box = page.getByRole("textbox", { name: "Follow-up message" });
  await box.click();

  await box.press("/");
  await expect.poll(() => options(page).count()).toBe(3);
  const deploy = options(page).filter({ hasText: "/deploy" });
  await expect.poll(() => deploy.textContent()).toContain("[environment]");
  expect(await deploy.textContent()).toContain("Deploy the branch to an environment");
  expect(await deploy.textContent()).toContain("Project");
  expect(await options(page).filter({ hasText: "/greet" }).textContent()).toContain("Yours");
  expect(await activeOption(page, box)).toContain("/deploy");
  expect(await everyLook(e2e.server, page, "composer-slash-menu", shots)).toEqual({});

  // The arrows move through the options, wrapping; the box keeps the focus.
  await box.press("ArrowDown");
  expect(await activeOption(page, box)).toContain("/greet");
  await box.press("ArrowUp");
  await box.press("ArrowUp");
  expect(await activeOption(page, box)).toContain("/compact");
  expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Follow-up message");

  // Typing filters; Enter picks, putting the skill and a space in, and the menu closes.
  await box.pressSequentially("dep");
  await expect.poll(() => options(page).count()).toBe(1);
  await box.press("Enter");
  expect(await box.inputValue()).toBe("/deploy ");
  await expect.poll(() => menu(page).count()).toBe(0);
  await box.pressSequentially("staging");
  await box.press("Enter");
  await expect.poll(() => inputs(id), TURN_WAIT).toContain("/deploy staging");
  await expect.poll(() => box.inputValue()).toBe("");

  // Tab picks too.
  await box.pressSequentially("/gr");
  await expect.poll(() => options(page).count()).toBe(1);
  await box.press("Tab");
  expect(await box.inputValue()).toBe("/greet ");
  await box.fill("");

  // Escape closes it and leaves the text.
  await box.press("/");
  await expect.poll(() => options(page).count()).toBe(3);
  await box.press("Escape");
  await expect.poll(() => menu(page).count()).toBe(0);
  expect(await box.inputValue()).toBe("/");
  await box.fill("");

  // A path is typed and sent as it is: the menu filters to nothing and closes.
  await box.pressSequentially("/tmp/notes.md");
  expect(await menu(page).count()).toBe(0);
  await box.press("Enter");
  await expect.poll(() => inputs(id), TURN_WAIT).toContain("/tmp/notes.md");

  // The New session dialog's prompt offers the same, for the folder typed.
  await page.getByRole("button", { name: "New session" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.getByRole("textbox", { name: "Folder" }).fill(project);
  const prompt = dialog.getByRole("textbox", { name: "Prompt" });
  await prompt.click();
  await prompt.press("/");
  await expect.poll(() => options(page).count()).toBe(3);
  await prompt.pressSequentially("gre");
  await prompt.press("Enter");
  expect(await prompt.inputValue()).toBe("/greet ");

  // An engine that cannot list: one quiet line, the reason on hover, no error; Enter still types.
  await dialog.getByRole("combobox", { name: "Engine" }).selectOption("echo");
  await prompt.fill("");
  await prompt.press("/");
  const quiet = dialog.getByText("This engine offers no skills here");
  await quiet.waitFor();
  expect(await quiet.getAttribute("title")).toContain("external command");
  expect(await dialog.getByRole("alert").count()).toBe(0);
  await prompt.press("Enter");
  expect(await prompt.inputValue()).toBe("/\n");
  expect(errors).toEqual([]);
  await page.close();
});

test("Ask opens from the sidebar, and a question opens its session with the tutor's answer", async () => {
  const { page } = await loggedInPage(e2e);
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
  await page.getByRole("navigation").getByRole("link", { name: "Ask", exact: true }).click();
  await page.getByRole("heading", { name: "Ask", exact: true }).waitFor();
  await page.getByText("No questions yet").waitFor();
  expect(await everyLook(e2e.server, page, "ask-empty", shots)).toEqual({});

  await page.getByRole("textbox", { name: "Your question" }).fill("How do I add a runner?");
  await page.getByRole("button", { name: "Ask", exact: true }).click();
  await page.waitForURL(/\/sessions\/[^/]+$/);
  const sessionId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  await page.getByText(ANSWER).first().waitFor({ timeout: 30_000 });
  const session = await e2e.server.api<{ project: string | null }>("GET", `/sessions/${sessionId}`);
  expect(session.body.project).toBe("ask");

  await page.goto(`${e2e.server.uiUrl}/ask`);
  const row = page.getByRole("link", { name: "How do I add a runner?" });
  await row.waitFor();
  expect(await everyLook(e2e.server, page, "ask", shots)).toEqual({});
  await row.click();
  await page.waitForURL(new RegExp(`/sessions/${sessionId}$`));
  expect(errors).toEqual([]);
  await page.close();
});

/** Puts `text` (and `html`, when given) on the clipboard, as copying it elsewhere would. */
async function copy(page: Page, text: string, html?: string): Promise<void> {
  await page.evaluate(
    async ({ text, html }) => {
      const items: Record<string, Blob> = { "text/plain": new Blob([text], { type: "text/plain" }) };
      if (html) items["text/html"] = new Blob([html], { type: "text/html" });
      await navigator.clipboard.write([new ClipboardItem(items)]);
    },
    { text, html },
  );
}

async function pastePage(): Promise<{ context: BrowserContext; page: Page; box: ReturnType<Page["getByRole"]> }> {
  const { context, page } = await loggedInPage(e2e);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: e2e.server.uiUrl });
  const id = await startSession(page, "Read the notes");
  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  const box = page.getByRole("textbox", { name: "Follow-up message" });
  await box.click();
  return { context, page, box };
}

test("a pasted link becomes the document's Markdown with its source; Shift keeps the link; a failure keeps it and says why", async () => {
  const { page, box } = await pastePage();
  const errors = consoleErrors(page);
  const url = `${documentsUrl}/notes.md`;

  await box.pressSequentially("Summarise ");
  await copy(page, url);
  await box.press("Control+V");
  await expect.poll(() => box.inputValue(), { timeout: 15_000 }).toContain("- Faster start");
  const imported = await box.inputValue();
  expect(imported.startsWith("Summarise Source: ")).toBe(true);
  expect(imported).toContain(url);
  expect(imported).toContain("Release notes");

  // Shift while pasting: the bare link, and nothing fetched.
  await box.fill("");
  await box.press("Control+Shift+V");
  expect(await box.inputValue()).toBe(url);
  await page.waitForTimeout(500);
  expect(await box.inputValue()).toBe(url);
  expect(await page.getByRole("status").filter({ hasText: "Importing" }).count()).toBe(0);

  // A link that cannot be imported stays as it was, with the reason under the box.
  await box.fill("");
  const missing = `${documentsUrl}/missing.md`;
  await copy(page, missing);
  await box.press("Control+V");
  await page.getByText("Kept the link as it is:").waitFor();
  expect(await box.inputValue()).toBe(missing);
  expect(await everyLook(e2e.server, page, "composer-paste-failed", shots)).toEqual({});
  expect(errors.filter((e) => !e.includes("/api/imports/url"))).toEqual([]);
  await page.close();
});

test("pasted HTML becomes Markdown, and plain text once the setting is off", async () => {
  const { page, box } = await pastePage();
  const html =
    '<h2>Checklist</h2><ul><li>Run <code>make test</code></li><li>Read <a href="https://x.test/">the guide</a></li></ul>';
  await copy(page, "Checklist Run make test Read the guide", html);
  await box.press("Control+V");
  expect(await box.inputValue()).toBe("## Checklist\n\n- Run `make test`\n- Read [the guide](https://x.test/)");

  await box.fill("");
  const setting = await e2e.server.api("PATCH", "/settings/pasteRichTextAsMarkdown", { value: false });
  expect(setting.status).toBe(200);
  await expect
    .poll(() =>
      page.evaluate(() =>
        fetch("/api/settings")
          .then((r) => r.json())
          .then((s) => s.pasteRichTextAsMarkdown),
      ),
    )
    .toBe(false);
  await page.waitForTimeout(300);
  await box.press("Control+V");
  expect(await box.inputValue()).toBe("Checklist Run make test Read the guide");
  await e2e.server.api("PATCH", "/settings/pasteRichTextAsMarkdown", { value: true });
  await page.close();
});

/**
 * Answering where you are, end to end against the real server: an agent's question (the echo
 * engine repeats its prompt, so a prompt that asks makes a reply that asks) is answered from its
 * inbox row and from its board row, each reply arriving as the session's next turn; `n` goes from
 * any page to the next session that needs the user; the board's row actions stop (after a
 * confirmation), retry and archive.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";

const e2e = serverAndBrowser();

interface Spawned {
  id: string;
  status: string;
  turns: number;
  turnEnd: "asked" | "done" | null;
}

async function ready(): Promise<void> {
  const gated = `cat >/dev/null; while [ ! -e ${e2e.server.scratchDir}/gate-$APP_SESSION_ID ]; do sleep 0.05; done`;
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n\n` +
      `[engines.gated]\nkind = "command"\ncommand = ["/bin/sh", "-c", ${JSON.stringify(gated)}]\n`,
  );
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  // Sessions waiting for an answer count as active, and each test leaves some waiting.
  await setSetting(e2e.server, "agentDrivenMaxConcurrent", 10);
}

async function spawn(engine: string, title: string, prompt: string): Promise<Spawned> {
  const reply = await e2e.server.api<Spawned>("POST", "/sessions", { engine, prompt, title });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

async function sessionOf(id: string): Promise<Spawned> {
  return (await e2e.server.api<Spawned>("GET", `/sessions/${id}`)).body;
}

/** What the session was sent and what it said, every turn. */
async function transcriptOf(id: string): Promise<string> {
  const reply = await e2e.server.api<{ turns: { input: string; output: string | null }[] }>(
    "GET",
    `/sessions/${id}/transcript`,
  );
  return reply.body.turns.map((t) => `${t.input}\n${t.output ?? ""}`).join("\n");
}

test("an agent's question is answered inline from its inbox row and from its board row", async () => {
  await ready();
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();

  const asked = await spawn("echo", "Pick a database", "Should I use Postgres or SQLite?");
  await until(
    () => sessionOf(asked.id),
    (s) => s.status === "waiting_for_input",
  );
  // The row is titled with the question itself, and its reply box sends the follow-up.
  const row = page.locator("li[data-row-id]", { hasText: "Should I use Postgres or SQLite?" });
  await row.waitFor();
  const rowId = (await row.getAttribute("data-row-id")) ?? "";
  await row.getByRole("textbox", { name: /^Reply to / }).fill("SQLite, bundled.");
  await row.getByRole("button", { name: "Send" }).click();
  // Answered, the row is read and its reply box goes.
  await page.locator(`li.read[data-row-id="${rowId}"]`).waitFor();
  const answered = await until(
    () => sessionOf(asked.id),
    (s) => s.turns === 2 && s.status === "waiting_for_input",
  );
  expect(answered.turns).toBe(2);
  expect(await transcriptOf(asked.id)).toContain("SQLite, bundled.");

  // From the agent board: the waiting session's row carries a reply box under it.
  const second = await spawn("echo", "Name the crate", "What should the crate be called?");
  await until(
    () => sessionOf(second.id),
    (s) => s.status === "waiting_for_input",
  );
  await page.goto(`${e2e.server.uiUrl}/`);
  const answers = page.locator(`tr[data-group="needs_you"][data-answers-for="${second.id}"]`);
  await answers.getByRole("textbox", { name: "Reply to Name the crate" }).fill("Call it switchboard-core.");
  await answers.getByRole("textbox", { name: "Reply to Name the crate" }).press("Enter");
  // The second turn ended, not only began: its output is stored by then.
  await until(
    () => sessionOf(second.id),
    (s) => s.turns === 2 && s.status === "waiting_for_input",
  );
  expect(await transcriptOf(second.id)).toContain("Call it switchboard-core.");

  expect(errors).toEqual([]);
  await context.close();
});

test("n opens the next session that needs you, from any page, in the board's order", async () => {
  await ready();
  // Each echoes its question back, so its turn ends asking: it needs you.
  const older = await spawn("echo", "Older question", "Which port?");
  await until(
    () => sessionOf(older.id),
    (s) => s.turnEnd === "asked",
  );
  const newer = await spawn("echo", "Newer question", "Which host?");
  await until(
    () => sessionOf(newer.id),
    (s) => s.turnEnd === "asked",
  );
  // What needs you: a failed session, or one whose turn did not end done (earlier tests' echoes
  // said their prompts back and asked nothing).
  const waiting = (await e2e.server.api<(Spawned & { archived: boolean })[]>("GET", "/sessions")).body.filter(
    (s) => !s.archived && (s.status === "failed" || (s.status === "waiting_for_input" && s.turnEnd !== "done")),
  );

  // The session page's follow-up box would take the focus, and `n` typed there is text.
  await setSetting(e2e.server, "sessionAutoFocusInput", false);
  const { context, page } = await loggedInPage(e2e, "/settings");
  await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();
  const visited: string[] = [];
  for (let i = 0; i <= waiting.length; i++) {
    const before = page.url();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("n");
    await page.waitForURL((url) => url.href !== before);
    visited.push(decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? ""));
  }
  // The most recent first, every waiting session once, then round again.
  expect(visited[0]).toBe(newer.id);
  expect(new Set(visited.slice(0, waiting.length))).toEqual(new Set(waiting.map((s) => s.id)));
  expect(visited[waiting.length]).toBe(newer.id);
  await setSetting(e2e.server, "sessionAutoFocusInput", true);
  await context.close();
});

test("the board's row actions stop after asking, retry with the same prompt, and archive", async () => {
  await ready();
  const running = await spawn("gated", "Long build", "build everything");
  await until(
    () => sessionOf(running.id),
    (s) => s.status === "running",
  );
  const { context, page } = await loggedInPage(e2e, "/");
  const errors = consoleErrors(page);
  const row = page.locator(`tr[data-session-id="${running.id}"]`);
  await row.waitFor();

  await row.hover();
  await row.getByRole("button", { name: "Stop Long build" }).click();
  const dialog = page.getByRole("dialog", { name: "Stop Long build?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect((await sessionOf(running.id)).status).toBe("running");
  await row.getByRole("button", { name: "Stop Long build" }).click();
  await dialog.getByRole("button", { name: "Stop" }).click();
  await page.locator(`tr[data-session-id="${running.id}"][data-status="stopped"]`).waitFor();

  // Retry starts a new session with the same prompt and opens it.
  await row.hover();
  await row.getByRole("button", { name: "Retry Long build" }).click();
  await page.waitForURL((url) => /^\/sessions\/.+/.test(url.pathname) && !url.pathname.endsWith(running.id));
  const retried = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
  const copy = (await e2e.server.api<Spawned & { prompt: string; engine: string }>("GET", `/sessions/${retried}`)).body;
  expect([copy.prompt, copy.engine]).toEqual(["build everything", "gated"]);
  writeFileSync(join(e2e.server.scratchDir, `gate-${retried}`), "");

  await page.goto(`${e2e.server.uiUrl}/`);
  await row.hover();
  await row.getByRole("button", { name: "Archive Long build" }).click();
  await row.waitFor({ state: "detached" });
  expect((await e2e.server.api<{ archived: boolean }>("GET", `/sessions/${running.id}`)).body.archived).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
});

test("Ctrl+K opens any session or page by name and runs the main actions", async () => {
  await ready();
  const target = await spawn("echo", "Palette target", "a prompt for the palette");
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  const box = page.getByRole("combobox", { name: "Page, session, board, dashboard or action" });

  await page.keyboard.press("Control+k");
  await box.fill("palette targ");
  await page.getByRole("option", { name: /Palette target/ }).waitFor();
  await box.press("Enter");
  await page.waitForURL(`**/sessions/${target.id}`);
  await box.waitFor({ state: "detached" });

  await page.keyboard.press("Control+k");
  await box.fill("settings");
  // The page named so comes before an action that only mentions it.
  expect(await page.getByRole("option").first().textContent()).toContain("Settings");
  await box.press("Enter");
  await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();

  await page.keyboard.press("Control+k");
  await box.fill("new sess");
  await box.press("ArrowDown");
  await box.press("ArrowUp");
  await box.press("Enter");
  await page.getByRole("dialog", { name: "New session" }).waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

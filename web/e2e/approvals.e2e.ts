/**
 * Approvals in the inbox, end to end: a `command` session's engine runs the real
 * `switchboard hook pre-tool-use` with a recorded Claude Code hook input (a Bash call, which
 * asks at `guarded`) and prints the hook's answer. The approval shows under the session's
 * `cli_pending` row with its command; Approve lets the waiting hook go on (the transcript shows
 * the allow) and marks the row read; one answered elsewhere (as the CLI does) leaves the page live.
 * The same approval is answered where the user is: on its row of the agent board (which puts the
 * session under "Needs you") and on the session's page.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { binary, consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

interface Approval {
  id: string;
  sessionId: string;
  state: string;
}

async function spawn(title: string): Promise<string> {
  const reply = await e2e.server.api<{ id: string }>("POST", "/sessions", { engine: "asker", prompt: "work", title });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id;
}

async function pendingOf(sessionId: string): Promise<Approval> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const list = await e2e.server.api<{ approvals: Approval[] }>("GET", "/approvals");
    const found = list.body.approvals.find((a) => a.sessionId === sessionId);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no approval for ${sessionId}`);
}

async function output(sessionId: string): Promise<string> {
  const reply = await e2e.server.api<{ turns: { output: string | null }[] }>(
    "GET",
    `/sessions/${sessionId}/transcript`,
  );
  return reply.body.turns.map((t) => t.output ?? "").join("");
}

/**
 * A stand-in for Claude Code: one tool call (a Bash command) through the real hook, its answer
 * printed. Guarded, the call asks the user.
 */
async function writeAsker(): Promise<void> {
  const scratch = e2e.server.scratchDir;
  const project = join(scratch, "project");
  mkdirSync(project, { recursive: true });
  const hookInput = {
    session_id: "0b3c2f9e-5f1e-4c1a-9d7e-2a1f3c4d5e6f",
    transcript_path: "/home/me/.claude/projects/p/0b3c2f9e.jsonl",
    cwd: project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "cargo test --workspace", description: "Run the tests" },
    tool_use_id: "toolu_01e2e",
  };
  writeFileSync(join(scratch, "hook.json"), JSON.stringify(hookInput));
  const script = `cat >/dev/null; exec "${binary}" hook pre-tool-use < "${join(scratch, "hook.json")}"`;
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.asker]\nkind = "command"\ncommand = ["/bin/sh", "-c", ${JSON.stringify(script)}]\n`,
  );
  await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
  await setSetting(e2e.server, "requireSpawnSourceSession", false);
  // Sessions waiting for an answer count as active, and each test leaves some waiting.
  await setSetting(e2e.server, "agentDrivenMaxConcurrent", 10);
  await setSetting(e2e.server, "agentPermissionLevel", "guarded");
}

test("an approval appears in the inbox and Approve lets the waiting hook go on", async () => {
  await writeAsker();
  const { page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();

  // The approval shows under its session's cli_pending row, the command as code.
  const sessionId = await spawn("Fix the build");
  const approval = await pendingOf(sessionId);
  const row = page.locator("li[data-row-id]", { hasText: "Fix the build asks to use Bash" });
  await row.waitFor();
  const rowId = (await row.getAttribute("data-row-id")) ?? "";
  const card = row.locator(`[data-approval-id="${approval.id}"]`);
  await card.locator("code", { hasText: "cargo test --workspace" }).waitFor();
  await card.getByText("Run the tests").waitFor();

  // Approve: the hook goes on with an allow, the card leaves and the row is read.
  await card.getByRole("button", { name: "Approve", exact: true }).click();
  await card.waitFor({ state: "detached" });
  const deadline = Date.now() + 20_000;
  let said = "";
  while (Date.now() < deadline && !said.includes('"permissionDecision":"allow"')) {
    said = await output(sessionId);
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(said).toContain('"permissionDecision":"allow"');
  await page.locator(`li[data-row-id="${rowId}"].read`).waitFor();
  const decided = await e2e.server.api<Approval>("GET", `/approvals/${approval.id}`);
  expect(decided.body.state).toBe("allowed");

  // One answered elsewhere (the CLI's `approvals deny`) leaves the page without a reload.
  const other = await spawn("Second task");
  const second = await pendingOf(other);
  const secondCard = page.locator(`[data-approval-id="${second.id}"]`);
  await secondCard.waitFor();
  const denied = await e2e.server.api("POST", `/approvals/${second.id}`, { decision: "deny" });
  expect(denied.status, JSON.stringify(denied.body)).toBe(200);
  await secondCard.waitFor({ state: "detached" });

  expect(errors).toEqual([]);
});

async function decisionSaid(sessionId: string, decision: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  let said = "";
  while (Date.now() < deadline && !said.includes(`"permissionDecision":"${decision}"`)) {
    said = await output(sessionId);
    await new Promise((r) => setTimeout(r, 100));
  }
  return said;
}

test("an approval is answered from the agent board's row and from the session page", async () => {
  await writeAsker();
  const { context, page } = await loggedInPage(e2e, "/");
  const errors = consoleErrors(page);
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();

  // A running session holding an approval needs the user: it is under "Needs you", its card below it.
  const onBoard = await spawn("Board approval");
  const approval = await pendingOf(onBoard);
  await page.locator(`tr[data-group="needs_you"][data-session-id="${onBoard}"]`).waitFor();
  const card = page.locator(
    `tr[data-group="needs_you"][data-answers-for="${onBoard}"] [data-approval-id="${approval.id}"]`,
  );
  await card.locator("code", { hasText: "cargo test --workspace" }).waitFor();
  await card.getByRole("button", { name: "Deny", exact: true }).click();
  await card.waitFor({ state: "detached" });
  expect(await decisionSaid(onBoard, "deny")).toContain('"permissionDecision":"deny"');
  expect((await e2e.server.api<Approval>("GET", `/approvals/${approval.id}`)).body.state).toBe("denied");

  // On the session's own page: Always for this session.
  const onPage = await spawn("Page approval");
  const second = await pendingOf(onPage);
  await page.goto(`${e2e.server.uiUrl}/sessions/${onPage}`);
  const pageCard = page.locator(`[data-approval-id="${second.id}"]`);
  await pageCard.waitFor();
  await pageCard.getByRole("button", { name: "Always for this session" }).click();
  await pageCard.waitFor({ state: "detached" });
  expect(await decisionSaid(onPage, "allow")).toContain('"permissionDecision":"allow"');
  const decided = await e2e.server.api<Approval & { remember: string }>("GET", `/approvals/${second.id}`);
  expect([decided.body.state, decided.body.remember]).toEqual(["allowed", "session"]);

  expect(errors).toEqual([]);
  await context.close();
});

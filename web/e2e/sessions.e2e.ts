/**
 * A session started, watched and answered from the web app, against a `command` engine: the New
 * session dialog (a refusal shown in it, then a start), the reply appearing without a reload, a
 * follow-up sent while a turn runs shown as queued and then answered, Stop (confirmed) and Archive.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser } from "./harness";

const e2e = serverAndBrowser();
let folder: string;
let gate: string;

beforeAll(() => {
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
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.echo]\nkind = "command"\ncommand = ["/bin/sh", ${JSON.stringify(script)}]\n`,
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

/**
 * Images attached in the composer (docs/attachments.md) against a real server: on the session
 * page of an engine whose model sees images (a stand-in of Claude Code, on its default model) an
 * image chosen with the attach button is uploaded at once, shown as a chip, and sent as its path;
 * a file that is not an image gets a chip with the reason and is removed with its ×; in the New
 * session dialog, an engine that cannot see images (a `command` engine) with `imageBridgeMode` off
 * refuses the start with the reason. Each look passes axe-core at 1440 and 390 px (the page's in
 * both themes).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, expect, test } from "vitest";
import { everyLook, seriousFindings } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, until } from "./harness";

const e2e = serverAndBrowser();

/** Claude Code as far as a turn goes: one answer in stream-json. */
const STANDIN = `import json, sys
print(json.dumps({"type": "system", "subtype": "init", "session_id": "c-img", "cwd": "/w", "model": "claude-sonnet-4-5", "tools": []}))
print(json.dumps({"type": "assistant", "message": {"id": "m1", "type": "message", "role": "assistant", "content": [{"type": "text", "text": "Seen."}]}, "session_id": "c-img"}))
print(json.dumps({"type": "result", "subtype": "success", "is_error": False, "num_turns": 1, "result": "Seen.", "session_id": "c-img", "total_cost_usd": 0.001, "usage": {"input_tokens": 10, "output_tokens": 2}}))
`;

/** A real 2×2 red PNG. */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000002000000020802000000fdd49a73000000104944415478" +
    "9c63f8cfc000440c100a001fee03fd8b5f14d40000000049454e44ae426082",
  "hex",
);

let project = "";
const shots = process.env.COMPOSER_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "attachment-shots-"));

beforeAll(() => {
  const script = join(e2e.server.scratchDir, "standin-claude.py");
  writeFileSync(script, STANDIN);
  writeFileSync(
    join(e2e.server.dataDir, "engines.toml"),
    `[engines.primary]\nkind = "claude"\ncommand = ["python3", ${JSON.stringify(script)}]\n\n` +
      `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
  );
  project = mkdtempSync(join(e2e.server.scratchDir, "project-"));
});

async function settled(id: string): Promise<void> {
  const reply = await until(
    () => e2e.server.api<{ status: string }>("GET", `/sessions/${id}`),
    (r) => !["starting", "running", "queued"].includes(r.body.status),
    30_000,
  );
  expect(reply.body.status).not.toBe("failed");
}

const fileInput = (page: Page) => page.locator('input[type="file"]').first();

test("an image attached on the session page is uploaded, shown as a chip and sent as its path", async () => {
  const { context, page } = await loggedInPage(e2e);
  const errors = consoleErrors(page);
  const started = await page.evaluate(
    async (body) => {
      const r = await fetch("/api/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as { id: string } };
    },
    { engine: "primary", prompt: "Hello", cwd: project },
  );
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const id = started.body.id;
  await settled(id);
  await page.goto(`${e2e.server.uiUrl}/sessions/${id}`);
  const box = page.getByRole("textbox", { name: "Follow-up message" });
  await box.waitFor();

  await fileInput(page).setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: PNG });
  const chips = page.getByRole("list", { name: "Attached images" });
  await chips.getByText("shot.png").waitFor();
  await until(
    () => chips.getByText("uploading…").count(),
    (n) => n === 0,
  );
  await box.fill("What is in this screenshot?");
  expect(await everyLook(e2e.server, page, "composer-attachment", shots)).toEqual({});

  await fileInput(page).setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hi") });
  await chips.getByRole("alert").filter({ hasText: "not a PNG, JPEG, GIF or WebP image" }).waitFor();
  expect(await everyLook(e2e.server, page, "composer-attachment-refused", shots)).toEqual({});
  await page.getByRole("button", { name: "Remove notes.txt" }).click();
  expect(await chips.getByText("notes.txt").count()).toBe(0);

  await page.getByRole("button", { name: "Send", exact: true }).click();
  await until(
    () => chips.count(),
    (n) => n === 0,
  );
  const transcript = await until(
    () => e2e.server.api<{ turns: { input: string }[] }>("GET", `/sessions/${id}/transcript`),
    (r) => r.body.turns.length >= 2,
  );
  const sent = transcript.body.turns[1]?.input ?? "";
  expect(sent).toContain("What is in this screenshot?");
  expect(sent).toMatch(/\[Image attached: .*\/attachments\/[0-9a-f]{64}\.png\]/);
  expect(errors).toEqual([]);
  await context.close();
});

/** Opens New session (through the menu on a phone), picks the `command` engine, attaches an image and starts. */
async function refusedStart(page: Page, phone: boolean) {
  if (phone) await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("button", { name: "New session" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.getByRole("combobox", { name: "Engine" }).selectOption("echo");
  await dialog.getByRole("textbox", { name: "Folder" }).fill(project);
  await dialog.getByRole("textbox", { name: "Prompt" }).fill("Describe the screenshot");
  await dialog.locator('input[type="file"]').setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: PNG });
  await dialog.getByText("shot.png").waitFor();
  await until(
    () => dialog.getByText("uploading…").count(),
    (n) => n === 0,
  );
  await dialog.getByRole("button", { name: "Start session" }).click();
  await dialog.getByText("cannot see images").waitFor();
  expect(await dialog.getByText("imageBridgeMode").count()).toBeGreaterThan(0);
}

test("a model that cannot see images refuses the start while imageBridgeMode is off", async () => {
  const { context, page } = await loggedInPage(e2e);
  await refusedStart(page, false);
  await page.screenshot({ path: join(shots, "new-session-image-refused-1440.png") });
  expect(await seriousFindings(page)).toEqual([]);
  // The dialog belongs to the layout of its width: on a phone it is opened from the menu.
  await page.goto(`${e2e.server.uiUrl}/`);
  await page.setViewportSize({ width: 390, height: 900 });
  await refusedStart(page, true);
  await page.screenshot({ path: join(shots, "new-session-image-refused-390.png") });
  expect(await seriousFindings(page)).toEqual([]);
  const sessions = await e2e.server.api<{ engine: string }[]>("GET", "/sessions");
  expect(sessions.body.filter((s) => s.engine === "echo")).toEqual([]);
  await context.close();
});

/**
 * The demo a newcomer opens, end to end in headless Chromium against a real `switchboard serve
 * --demo`: an agent is at work when the app opens; the waiting session, answered in the UI, runs
 * a second turn on the built-in demo engine, with tool steps, and waits again; and the New session
 * dialog offers the demo engine (saying how to configure a real one when it is all there is),
 * starts a session on it, and holds its layout on a phone; and Work, Automations, Scheduled messages
 * and Drips open on the demo's own things, not empty, at 1440 and 390 px in both themes with no
 * serious axe finding.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { everyLook } from "./axe";
import type { EngineInfo, Entry, Session } from "../src/shared/api/types.generated";
import { loggedInPage, serverAndBrowser, waitForStatus, until } from "./harness";

const e2e = serverAndBrowser({ args: ["--demo"] });

async function sessions(): Promise<Session[]> {
  const reply = await e2e.server.api<Session[]>("GET", "/sessions");
  expect(reply.status).toBe(200);
  return reply.body;
}

async function entries(id: string): Promise<Entry[]> {
  const reply = await e2e.server.api<{ entries: Entry[] }>("GET", `/sessions/${id}/transcript?format=json&limit=500`);
  expect(reply.status).toBe(200);
  return reply.body.entries;
}

test("an agent is at work when the demo opens", async () => {
  const running = (await until(sessions, (all) => all.some((s) => s.status === "running"))).find(
    (s) => s.status === "running",
  );
  if (!running) throw new Error("no demo session runs");
  expect(running.engine).toBe("demo");
  const { context, page } = await loggedInPage(e2e, `/sessions/${running.id}`);
  await page.getByTestId("session-status").filter({ hasText: "running" }).waitFor();
  await page
    .getByRole("log", { name: "Transcript" })
    .getByText(/Migrate the billing webhooks/)
    .first()
    .waitFor();
  await context.close();
});

test("the demo's waiting session, answered in the UI, runs a second turn with steps", async () => {
  const waiting = (await sessions()).find((s) => s.status === "waiting_for_input");
  if (!waiting) throw new Error("the demo has no waiting session");
  const { context, page } = await loggedInPage(e2e, `/sessions/${waiting.id}`);
  const transcript = page.getByRole("log", { name: "Transcript" });
  await transcript
    .getByText(/Shall I request changes on #1432/)
    .first()
    .waitFor();

  const composer = page.getByLabel("Follow-up message");
  await composer.fill("Request changes on #1432 and fix the label.");
  await composer.press("Enter");
  await transcript
    .getByText(/42 passed/)
    .first()
    .waitFor({ timeout: 30_000 });
  await waitForStatus(e2e.server, waiting.id, "waiting_for_input");
  // The second turn reports its work and asks nothing: done, not waiting on the user.
  await page
    .getByTestId("session-status")
    .filter({ hasText: /^Done$/ })
    .waitFor();

  const second = (await entries(waiting.id)).filter((e) => e.turn === 2);
  const results = second.filter((e) => e.kind === "tool_result");
  expect(second.filter((e) => e.kind === "tool_call").length).toBeGreaterThanOrEqual(3);
  expect(results.some((e) => e.kind === "tool_result" && e.isError)).toBe(true);
  expect(results.some((e) => e.kind === "tool_result" && !e.isError)).toBe(true);
  expect(second.at(-1)?.kind).toBe("final");
  expect((await sessions()).find((s) => s.id === waiting.id)?.status).toBe("waiting_for_input");
  await context.close();
});

test("on a phone the New session dialog, demo notice and all, fits the width", async () => {
  const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const { uiUrl, token } = e2e.server;
  await page.goto(`${uiUrl}/login?token=${encodeURIComponent(token)}&next=/sessions`);
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("button", { name: "New session" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  await dialog.getByLabel("Engine").waitFor();
  const engines = (await e2e.server.api<EngineInfo[]>("GET", "/engines")).body;
  if (engines.every((e) => e.name === "demo")) await dialog.locator("[data-demo-only]").waitFor();
  const box = await dialog.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  const sideways = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
  expect(sideways).toBeLessThanOrEqual(0);
  await context.close();
});

test("the New session dialog offers the demo engine and starts a session on it", async () => {
  const engines = (await e2e.server.api<EngineInfo[]>("GET", "/engines")).body;
  const onlyDemo = engines.every((e) => e.name === "demo");
  const { context, page } = await loggedInPage(e2e, "/sessions");
  await page.getByRole("button", { name: "New session" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New session" });
  const engine = dialog.getByLabel("Engine");
  await engine.waitFor();
  await expect.poll(() => engine.locator("option").allTextContents()).toContain("Demo engine (scripted, no model)");
  if (onlyDemo) {
    // Nothing else can run here: the demo engine is chosen, and the dialog says how to add a real one.
    expect(await engine.inputValue()).toBe("demo");
    const notice = dialog.locator("[data-demo-only]");
    await notice.waitFor();
    expect(await notice.textContent()).toContain("engines.toml");
    expect(await notice.textContent()).toContain("docs/engines.md");
    expect(await notice.textContent()).toContain('kind = "claude"');
  } else {
    await engine.selectOption("demo");
  }

  await dialog.getByLabel("Folder").fill(e2e.server.scratchDir);
  await dialog.getByLabel("Prompt").fill("What does the API do?");
  await dialog.getByLabel("Title").fill("Ask the demo engine");
  await dialog.getByRole("button", { name: "Start session" }).click();
  await page.getByRole("heading", { name: "Ask the demo engine" }).waitFor();
  const transcript = page.getByRole("log", { name: "Transcript" });
  await transcript
    .getByText(/Scripted demo answer/)
    .first()
    .waitFor({ timeout: 30_000 });
  const started = (await sessions()).find((s) => s.title === "Ask the demo engine");
  expect(started?.engine).toBe("demo");
  await context.close();
});

test("Work, Automations, Scheduled messages and Drips open on the demo's own things", async () => {
  const dir = process.env.DEMO_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "demo-shots-"));
  const pages = [
    { path: "/work", name: "work", shows: "Triage flaky CI jobs" },
    { path: "/automations", name: "automations", shows: "Weekly dependency check" },
    { path: "/scheduled-messages", name: "scheduled-messages", shows: "Weekly review" },
    { path: "/drips", name: "drips", shows: "Switchboard tips" },
  ];
  const { context, page } = await loggedInPage(e2e, "/work");
  const found: Record<string, Record<string, string[]>> = {};
  for (const { path, name, shows } of pages) {
    await page.goto(`${e2e.server.uiUrl}${path}`);
    await page.getByText(shows).first().waitFor();
    const faults = await everyLook(e2e.server, page, `demo-${name}`, dir);
    await page.setViewportSize({ width: 390, height: 844 });
    if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)) {
      faults["390"] = ["the page scrolls sideways"];
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    if (Object.keys(faults).length > 0) found[name] = faults;
  }
  console.log(`demo screenshots in ${dir}`);
  expect(found).toEqual({});
  await context.close();
});

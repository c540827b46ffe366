/**
 * Focus mode and the pomodoro in two tabs of one browser, against a real server: the focus pill
 * turns focus mode on in both tabs, a webhook that needs the user arrives and its notification
 * is held (the chime log says why), an agent's request to open a page is held too, turning focus
 * mode off tells what was held as one summary and offers the held request once, and
 * a pomodoro started in one tab shows its timer in the other until it is stopped there.
 */
import type { Page } from "playwright-core";
import { beforeAll, expect, test } from "vitest";
import { consoleErrors, deliverWebhook, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

beforeAll(async () => {
  await setSetting(e2e.server, "webhooksEnabled", true);
});

/** Opens `page` on the inbox and waits until its event stream is connected. */
async function openListening(page: Page): Promise<void> {
  const listening = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/stream");
  await page.goto(`${e2e.server.uiUrl}/inbox`);
  await listening;
  await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
}

test("focus mode holds notifications and tells them once; both tabs share the pomodoro", async () => {
  const { context, page: first } = await loggedInPage(e2e);
  const errors = consoleErrors(first);
  await openListening(first);
  const second = await context.newPage();
  await openListening(second);
  const controls = (page: Page) => page.getByRole("group", { name: "Focus" });
  const pill = (page: Page) => controls(page).getByRole("button", { name: /^Focus/ });

  await pill(first).click();
  await expect.poll(() => pill(first).getAttribute("aria-pressed")).toBe("true");
  await expect.poll(() => pill(second).getAttribute("aria-pressed")).toBe("true");
  expect((await e2e.server.api<{ on: boolean }>("GET", "/focus")).body.on).toBe(true);

  expect((await deliverWebhook(e2e.server, { build: "red" })).status).toBe(202);
  const chimes = () =>
    first.evaluate(() => JSON.parse(localStorage.getItem("switchboard.inbox.chimes") ?? "[]") as { reason: string }[]);
  await expect.poll(async () => (await chimes()).map((c) => c.reason)).toContain("held: focus mode");
  const asked = await e2e.server.api<{ delivered: string }>("POST", "/ui/navigate", { view: "settings" });
  expect(asked.body.delivered).toBe("toast");

  await pill(first).click();
  await first.getByRole("status").filter({ hasText: "While you focused: 1 webhook." }).waitFor();
  const offer = first.getByRole("status").filter({ hasText: "While you focused, an agent asked for you." });
  await offer.waitFor();
  expect(await first.getByRole("status").filter({ hasText: "asks to open" }).count()).toBe(0);
  await offer.getByRole("button", { name: "Go" }).click();
  await first.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
  await second.getByRole("status").filter({ hasText: "While you focused: 1 webhook." }).waitFor();
  await expect.poll(() => pill(second).getAttribute("aria-pressed")).toBe("false");

  await controls(first).getByRole("button", { name: "Start pomodoro" }).click();
  await first.getByRole("timer").filter({ hasText: "Focus 1/4" }).waitFor();
  await second.getByRole("timer").filter({ hasText: "Focus 1/4" }).waitFor();
  // The run manages focus mode (pomodoroAutoEnableFocusModeDefault is on).
  await expect.poll(() => pill(second).getAttribute("aria-pressed")).toBe("true");
  await controls(second).getByRole("button", { name: "Stop" }).click();
  await controls(first).getByRole("button", { name: "Start pomodoro" }).waitFor();
  await expect.poll(() => pill(first).getAttribute("aria-pressed")).toBe("false");

  expect(errors).toEqual([]);
  await context.close();
});

test("with focusModeFeatureEnabled off the pill is gone and the pomodoro stays", async () => {
  await setSetting(e2e.server, "focusModeFeatureEnabled", false);
  // A density the page shows only once it has read the settings, so "no pill" is not "not yet".
  await setSetting(e2e.server, "pmBoardDensity", "compact");
  const { context, page } = await loggedInPage(e2e);
  try {
    await openListening(page);
    await page.locator('html[data-density="compact"]').waitFor({ state: "attached" });
    await page.getByRole("button", { name: "Start pomodoro" }).waitFor();
    const pill = page.getByRole("group", { name: "Focus" }).getByRole("button", { name: /^Focus/ });
    expect(await pill.count()).toBe(0);
    await setSetting(e2e.server, "focusModeFeatureEnabled", true);
    await pill.waitFor();
  } finally {
    await context.close();
    await setSetting(e2e.server, "focusModeFeatureEnabled", true);
    await setSetting(e2e.server, "pmBoardDensity", "comfortable");
  }
});

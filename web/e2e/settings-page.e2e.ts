/**
 * The settings page in a real Chromium reads as plain words: its tab title and one page header;
 * no "Takes effect immediately" anywhere, a note only where a change waits; no setting key
 * printed on a row, each in its label's tooltip; "guarded" as a badge that says what it means;
 * and a desktop-only setting out of the lists until asked for, then in the no-effect group under
 * its reason, at 1440 and at 390 px wide.
 */
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser } from "./harness";

const e2e = serverAndBrowser();

test("rows show labels and plain words: no key printed, no 'immediately', a note only where a change waits", async () => {
  const { context, page } = await loggedInPage(e2e, "/settings");
  const errors = consoleErrors(page);
  const rows = page.locator("[data-setting]");
  await rows.first().waitFor();
  await expect.poll(() => page.title()).toBe("Settings · Switchboard");
  expect(await page.locator("h1").allInnerTexts()).toEqual(["Settings"]);

  const main = page.locator(".settings-page");
  const text = await main.innerText();
  expect(text).not.toMatch(/takes effect immediately|immediate effect/i);
  expect(text).not.toContain("POST /alert");
  expect(text).not.toContain("19519");
  expect(text).not.toContain(" · guarded");

  // No row prints its key; its label's tooltip names it.
  const keys = await rows.evaluateAll((els) => els.map((el) => el.getAttribute("data-setting") ?? ""));
  expect(keys.length).toBeGreaterThan(100);
  for (const key of keys) expect(text).not.toContain(key);
  const alerts = page.locator('[data-setting="agentAlertsEnabled"]');
  const label = alerts.locator(".setting-name label");
  expect(await label.innerText()).toBe("Agents may post inbox alerts");
  await label.hover();
  expect(await label.getAttribute("title")).toBe("Setting key: agentAlertsEnabled");
  expect(await alerts.innerText()).toContain(
    "Agents may add alerts to your inbox that stay there until you clear them.",
  );

  // "Guarded" is a badge in words, with what it means on hover.
  const badge = alerts.locator(".setting-badge");
  expect(await badge.innerText()).toBe("Agents can't change this");
  expect(await badge.getAttribute("title")).toMatch(/^Guarded setting: .*agent/);

  // A change that waits for a restart says so; one felt at once says nothing about timing.
  expect(await page.locator('[data-setting="cliServerEnabled"] .setting-effect').innerText()).toBe(
    "Takes effect after Switchboard restarts.",
  );
  expect(await alerts.locator(".setting-effect").count()).toBe(0);

  // A select shows its choices as words; the value saved stays the catalog's.
  const level = page.getByRole("combobox", { name: "How much agents do before asking" });
  expect(await level.inputValue()).toBe("guarded");
  expect(await level.locator("option:checked").innerText()).toBe("Guarded");
  expect(await level.locator("option").allInnerTexts()).toEqual(["Read only", "Guarded", "Autonomous", "Full"]);

  // Team chat says what turning it on does here.
  expect(await page.locator('[data-setting="chatAppEnabled"]').innerText()).toContain("no team chat panel");
  expect(errors).toEqual([]);
  await context.close();
});

test("a desktop-only setting waits behind the switch, then sits in the no-effect group under its reason", async () => {
  const { context, page } = await loggedInPage(e2e, "/settings");
  const tray = page.locator('[data-setting="traySystemNotificationsEnabled"]');
  await page.locator("[data-setting]").first().waitFor();
  expect(await tray.count()).toBe(0);

  await page.getByRole("checkbox", { name: /Show settings that have no effect/ }).check();
  const group = page.getByRole("region", { name: "Settings with no effect here" });
  const desktop = group.getByRole("region", { name: "Only for a desktop app" });
  await desktop.waitFor();
  expect(await desktop.getByRole("heading", { level: 3 }).innerText()).toBe("Only for a desktop app");
  expect(await desktop.locator(".setting-no-effect-reason").innerText()).toMatch(/^Switchboard runs in your browser/);
  expect(await desktop.locator('[data-setting="traySystemNotificationsEnabled"]').count()).toBe(1);
  expect(await group.getByRole("region", { name: "Only on Windows" }).locator("[data-setting]").count()).toBe(2);
  // It is nowhere else on the page.
  expect(await tray.count()).toBe(1);
  // The navigation leads to the group.
  const nav = page.getByRole("navigation", { name: "Settings sections" });
  expect(await nav.getByRole("link", { name: "Settings with no effect here" }).getAttribute("href")).toBe("#no-effect");

  // On a phone the group holds without sideways scroll, and the switch is a full touch target.
  await page.setViewportSize({ width: 390, height: 844 });
  await desktop.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const toggle = page.locator(".settings-stored-only");
  expect((await toggle.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
  const row = desktop.locator('[data-setting="traySystemNotificationsEnabled"]');
  const rowBox = await row.boundingBox();
  expect(rowBox && rowBox.x >= 0 && rowBox.x + rowBox.width <= 390).toBe(true);
  // Its switch is pressed through a 44 px target, and pressing there turns it.
  const target = row.locator(".setting-toggle");
  const box = await target.boundingBox();
  expect(box && box.width >= 44 && box.height >= 44).toBe(true);
  const stored = async () =>
    (await e2e.server.api<{ value: boolean }>("GET", "/settings/traySystemNotificationsEnabled")).body.value;
  expect(await stored()).toBe(true);
  if (box) await page.mouse.click(box.x + 2, box.y + 2);
  await expect.poll(stored).toBe(false);
  await context.close();
});

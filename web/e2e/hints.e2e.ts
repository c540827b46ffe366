/**
 * `helpfulHintsEnabled` (issue 71): the optional tips show while it is on and are gone when it is
 * off, while what is not a tip stays.
 */
import { expect, test } from "vitest";
import { loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

test("the tips go with the switch and come back with it", async () => {
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const keys = page.locator(".shortcut-hint", { hasText: "archives" });
  await keys.waitFor();
  await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();

  await setSetting(e2e.server, "helpfulHintsEnabled", false);
  await page.reload();
  await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();
  await expect.poll(() => keys.count()).toBe(0);
  expect(await page.locator(".palette-button .shortcut-hint").count()).toBe(0);

  await setSetting(e2e.server, "helpfulHintsEnabled", true);
  await page.reload();
  await keys.waitFor();
  await context.close();
});

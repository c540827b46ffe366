/**
 * The connection indicator follows the browser and the stream: "Live" while the event stream is
 * open, "Offline" while the browser has no network, and "Live" again once it is back. (The drop
 * and return of the stream itself, a server going down and coming back, is in `restart.e2e.ts`.)
 */
import { expect, test } from "vitest";
import { loggedInPage, serverAndBrowser } from "./harness";

const e2e = serverAndBrowser();

test("the indicator says Live, then Offline while the browser is offline, then Live again", async () => {
  const { context, page } = await loggedInPage(e2e, "/sessions");
  await page.getByRole("heading", { name: "Agents", exact: true }).waitFor();
  const indicator = page.getByRole("navigation", { name: "Sections", exact: true }).getByRole("status");
  await indicator.filter({ hasText: "Live" }).waitFor();
  expect(await indicator.getAttribute("title")).toBe("Changes show as they happen.");

  await context.setOffline(true);
  await indicator.filter({ hasText: "Offline" }).waitFor();
  expect(await indicator.getAttribute("data-connection")).toBe("offline");

  await context.setOffline(false);
  await indicator.filter({ hasText: "Live" }).waitFor({ timeout: 30_000 });
  await context.close();
});

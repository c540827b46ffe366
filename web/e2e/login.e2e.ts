/** The front door: a logged-out visitor is told how to log in; the login link opens the app. */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, loggedInPage, startServer, type RunningServer } from "./harness";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test("the login link sets the session and the API answers the browser", async () => {
  const { context, page } = await loggedInPage(browser, server);
  const me = await page.evaluate(async () => (await fetch("/api/me")).json());
  expect(me.isOwner).toBe(true);
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "switchboard_ui");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Strict");
  await context.close();
});

test("without the cookie the API refuses the browser", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.uiUrl);
  const status = await page.evaluate(async () => (await fetch("/api/me")).status);
  expect(status).toBe(401);
  await context.close();
});

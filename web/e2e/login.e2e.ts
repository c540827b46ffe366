/** The front door: a logged-out visitor is told how to log in; the login link opens the app. */
import { expect, test } from "vitest";
import { loggedInPage, serverAndBrowser } from "./harness";

const e2e = serverAndBrowser();

test("the login link sets the session and the API answers the browser", async () => {
  const { context, page } = await loggedInPage(e2e);
  const me = await page.evaluate(async () => (await fetch("/api/me")).json());
  expect(me.isOwner).toBe(true);
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === "switchboard_ui");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Strict");
  await context.close();
});

test("without the cookie the API refuses the browser", async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  await page.goto(e2e.server.uiUrl);
  const status = await page.evaluate(async () => (await fetch("/api/me")).status);
  expect(status).toBe(401);
  await context.close();
});

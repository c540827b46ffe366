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

test("a login link with a wrong token opens a page that says what to do, with a way back", async () => {
  const context = await e2e.browser.newContext();
  const page = await context.newPage();
  const reply = await page.goto(`${e2e.server.uiUrl}/login?token=not-the-token&next=/inbox`);
  expect(reply?.status()).toBe(401);
  await page.getByRole("heading", { name: "This login link is not valid" }).waitFor();
  expect(await page.locator("body").textContent()).toContain("switchboard serve");
  await page.getByRole("link", { name: "Go to the start page" }).click();
  await page.waitForURL(`${e2e.server.uiUrl}/`);
  expect((await context.cookies()).length).toBe(0);
  await context.close();
});

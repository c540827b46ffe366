/**
 * The first run's welcome (issue 71): with no workspace yet, the welcome page asks where the user
 * heard about Switchboard, once and skippable; an answer is stored in `heardAboutUs`, which the
 * settings show; the maker's announcement for this version shows above the page while
 * `developerMessagesEnabled` is on, and once dismissed does not come back.
 */
import { expect, test } from "vitest";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

test("asks where the user heard about us once, and shows the maker's announcement once", async () => {
  const { server } = e2e;
  const { context, page } = await loggedInPage(e2e, "/boards");
  const errors = consoleErrors(page);
  const question = page.getByRole("form", { name: "Where you heard about us" });
  await question.getByLabel(/Where did you first hear about Switchboard/).fill("a friend");
  await question.getByRole("button", { name: "Save" }).click();
  await expect.poll(() => question.count()).toBe(0);
  const stored = await server.api<{ value: string }>("GET", "/settings/heardAboutUs");
  expect(stored.body.value).toBe("a friend");
  await page.reload();
  await page.getByRole("heading", { name: "Welcome" }).waitFor();
  expect(await question.count(), "answered: not asked again").toBe(0);

  const news = page.getByRole("complementary", { name: "From the makers" });
  expect(await news.count(), "off by default").toBe(0);
  await setSetting(server, "developerMessagesEnabled", true);
  await news.waitFor();
  await news.getByRole("button", { name: "Dismiss" }).click();
  await expect.poll(() => news.count()).toBe(0);
  await page.reload();
  await page.getByRole("heading", { name: "Welcome" }).waitFor();
  await page.waitForTimeout(300);
  expect(await news.count(), "seen once, gone for this version").toBe(0);

  expect(errors).toEqual([]);
  await context.close();
});

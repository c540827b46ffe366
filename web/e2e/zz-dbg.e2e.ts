import { test } from "vitest";
import { launchBrowser, loggedInPage, startServer } from "/work/wt-ui-dashboard/web/e2e/harness";
test("dbg", async () => {
  const server = await startServer(["--demo"]);
  const browser = await launchBrowser();
  const { page } = await loggedInPage(browser, server, "/dashboards");
  page.on("console", (m) => console.log("console:", m.text()));
  page.on("pageerror", (e) => console.log("pageerror:", e.message));
  await page.waitForTimeout(2000);
  console.log(page.url(), (await page.content()).slice(0, 1500));
  await page.screenshot({ path: "/tmp/dbg1.png" });
  await browser.close(); await server.stop();
});

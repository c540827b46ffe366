/**
 * Agents' navigation requests in the open page, against a real server: the page reports its
 * tab in front, so a request through the control API becomes a click-to-go toast whose Go
 * switches the view (to a settings pane, scrolled into view); with allowAgentDirectNavigation
 * on, the next request switches the view at once. A closed tab says it is gone (a beacon), so
 * the next request goes to the inbox long before the server would forget a silent tab.
 */
import { expect, test } from "vitest";
import { consoleErrors, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser();

async function requestView(body: object): Promise<string> {
  const reply = await e2e.server.api<{ delivered: string }>("POST", "/ui/navigate", body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  return reply.body.delivered;
}

test("a navigation request shows a toast whose Go switches the view, then switches at once when allowed", async () => {
  const { server, browser } = e2e;
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors = consoleErrors(page);
  // Events published before the page listens are not replayed: wait for its stream and its
  // first presence report before asking.
  const listening = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/stream");
  const present = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/ui/presence" && r.status() === 204);
  await page.goto(`${server.uiUrl}/login?token=${encodeURIComponent(server.token)}&next=${encodeURIComponent("/")}`);
  await Promise.all([listening, present]);

  const pane = "sessions-agents-agent-control";
  expect(await requestView({ view: "settings", pane })).toBe("toast");
  const toast = page.getByRole("status").filter({ hasText: `A script asks to open /settings#${pane}` });
  await toast.getByRole("button", { name: "Go" }).click();
  await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
  expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe(`/settings#${pane}`);
  const section = page.locator(`[data-pane="${pane}"]`);
  await expect.poll(() => section.evaluate((el) => Math.abs(el.getBoundingClientRect().top))).toBeLessThan(100);
  await toast.waitFor({ state: "detached" });

  await setSetting(server, "allowAgentDirectNavigation", true);
  expect(await requestView({ view: "inbox" })).toBe("navigated");
  await page.waitForURL(`${server.uiUrl}/inbox`);
  await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor();

  expect(errors).toEqual([]);
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => requestView({ view: "inbox" }), { timeout: 10_000 }).toBe("inbox");
  await context.close();
});

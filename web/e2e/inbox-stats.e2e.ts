/**
 * The inbox's Stats tab (issue 71) against a real server: a row read counts its wait, the rows the
 * page showed are reported as looks when the Stats tab opens, the tab draws the week per category
 * at 1440 and 390 px (axe in both themes), and turning `inboxAnalyticsEnabled` off takes the tab
 * away and clears what was recorded, so turning it back on starts from nothing.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { InboxRow, InboxStatsPage } from "../src/shared/api/types.generated";
import { everyLook } from "./axe";
import { consoleErrors, loggedInPage, serverAndBrowser, setSetting, until } from "./harness";

const e2e = serverAndBrowser();

const stats = async () => (await e2e.server.api<InboxStatsPage>("GET", "/inbox/stats")).body;
const alertRow = (page: InboxStatsPage) => page.week.rows.find((r) => r.category === "alert");

test("the Stats tab shows the week, on a desk and on a phone, and goes with its switch", async () => {
  const { server } = e2e;
  const rows: InboxRow[] = [];
  for (const title of ["Build failed", "Disk almost full", "Deploy waiting"]) {
    const reply = await server.api<InboxRow>("POST", "/alert", { title });
    expect(reply.status).toBe(201);
    rows.push(reply.body);
  }
  const first = rows[0];
  if (!first) throw new Error("no alert");
  expect((await server.api("PATCH", `/inbox/${first.id}`, { read: true })).status).toBe(200);
  await until(stats, (p) => alertRow(p)?.actions === 1);

  const { context, page } = await loggedInPage(e2e, "/inbox");
  const errors = consoleErrors(page);
  await page.getByRole("list", { name: "Inbox rows" }).getByText("Deploy waiting").waitFor();
  // Long enough on screen to count as looked at.
  await page.waitForTimeout(1500);
  const tabs = page.getByRole("tablist", { name: "Categories" });
  await tabs.getByRole("tab", { name: "Stats" }).click();
  const looked = await until(stats, (p) => (alertRow(p)?.looks ?? 0) >= 2);
  expect(alertRow(looked)?.idleLooks).toBeGreaterThanOrEqual(2);

  // Open the tab again to read the figures the page just reported.
  await tabs.getByRole("tab", { name: "All" }).click();
  await tabs.getByRole("tab", { name: "Stats" }).click();
  const table = page.getByRole("table", { name: "Inbox stats per category" });
  await table.getByRole("rowheader", { name: "Alert" }).waitFor();
  await expect
    .poll(async () => (await table.getByRole("row", { name: /Alert/ }).textContent()) ?? "")
    .toMatch(/\d+ of [2-9]/);

  const shots = mkdtempSync(join(tmpdir(), "inbox-stats-"));
  expect(await everyLook(server, page, "inbox-stats", shots)).toEqual({});
  await page.setViewportSize({ width: 390, height: 844 });
  await table.waitFor();
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits, "the phone layout scrolls the table, not the page").toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });

  await setSetting(server, "inboxAnalyticsEnabled", false);
  await expect.poll(() => tabs.getByRole("tab", { name: "Stats" }).count()).toBe(0);
  await page.getByRole("list", { name: "Inbox rows" }).waitFor();
  const off = await stats();
  expect(off.enabled).toBe(false);
  expect(off.week.rows).toEqual([]);

  await setSetting(server, "inboxAnalyticsEnabled", true);
  expect((await stats()).week.rows, "turned back on, it starts from nothing").toEqual([]);
  await tabs.getByRole("tab", { name: "Stats" }).waitFor();

  expect(errors).toEqual([]);
  await context.close();
});

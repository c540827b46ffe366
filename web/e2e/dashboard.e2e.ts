/**
 * The dashboard page end to end, in headless Chromium against a real `switchboard serve --demo`:
 * create a dashboard through the UI, connect boards, add each menu widget, drag and resize
 * (checked through the API), filter, export PNG and PDF, publish and open the link without a
 * cookie, reload after autosave, a second writer tripping If-Match, a missing board.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { FullBoardBody, FullItem } from "../src/shared/api/types.generated";
import { loggedInPage, serverAndBrowser, widgetsDrawn } from "./harness";

const e2e = serverAndBrowser({ args: ["--demo"] });

interface WidgetLayout {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Dashboard {
  id: string;
  name: string;
  config: {
    boardIds: string[];
    widgets: { id: string; type: string; layout: WidgetLayout; settings?: Record<string, unknown> }[];
    filters: unknown;
  };
}

async function saved(page: Page): Promise<void> {
  await page.waitForSelector('[data-save-status="saved"]', { timeout: 15_000 });
}

async function readDashboard(id: string): Promise<Dashboard> {
  const reply = await e2e.server.api<Dashboard>("GET", `/dashboards/${id}`);
  expect(reply.status).toBe(200);
  return reply.body;
}

async function fullBoard(id: string): Promise<FullBoardBody> {
  const reply = await e2e.server.api<FullBoardBody>("GET", `/boards/${id}/full`);
  expect(reply.status).toBe(200);
  return reply.body;
}

async function dragBy(page: Page, selector: string, dx: number, dy: number): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  const x = box.x + Math.min(20, box.width / 2);
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  const steps = 12;
  for (let i = 1; i <= steps; i++) await page.mouse.move(x + (dx * i) / steps, y + (dy * i) / steps);
  await page.mouse.up();
}

test("a dashboard made through the UI: connect, add, move, resize, filter, export, publish, reload", async () => {
  const { context, page } = await loggedInPage(e2e, "/dashboards");

  await page.getByRole("button", { name: "New dashboard" }).click();
  await page.getByLabel("New dashboard name").fill("E2E dashboard");
  await page.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/dashboards\/[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() as string);
  await page.waitForSelector("text=0 connected boards");

  // Connect two boards through the modal's search.
  await page.getByRole("button", { name: "0 connected boards" }).click();
  const search = page.getByLabel("Search boards");
  await search.fill("platform");
  await page.getByLabel("Platform sprint board").check();
  await search.fill("launch");
  await page.getByLabel("Product launches").check();
  await search.fill("");
  await page.getByLabel("Mobile app").check();
  await page.getByLabel("Mobile app").uncheck();
  await page.keyboard.press("Escape");
  await page.waitForSelector("text=2 connected boards");
  await saved(page);
  expect((await readDashboard(id)).config.boardIds).toHaveLength(2);

  // Every menu entry, and nothing else on the menu.
  await page.getByRole("button", { name: "+ Add widget" }).click();
  const entries = await page.getByRole("menuitem").allTextContents();
  expect(entries).toEqual(["Numbers", "Chart", "Velocity", "Planned vs unplanned", "Burndown"]);
  await page.keyboard.press("Escape");
  for (const entry of entries) {
    await page.getByRole("button", { name: "+ Add widget" }).click();
    await page.getByRole("menuitem", { name: entry }).click();
  }
  await widgetsDrawn(page, 5);
  await saved(page);
  const withWidgets = await readDashboard(id);
  expect(withWidgets.config.widgets.map((w) => w.type)).toEqual([
    "numbers",
    "chart",
    "velocity",
    "plannedVsUnplanned",
    "burndown",
  ]);
  // The sprint widgets found the demo's sprint columns and drew charts, with their notes.
  expect(await page.locator('[data-widget-id="v1"] canvas').count()).toBe(1);
  expect(await page.locator('[data-widget-id="b1"] canvas').count()).toBe(1);
  await expect.poll(() => page.locator('[data-widget-id="p1"]').textContent()).toContain("Approximation");

  // Numbers: sum of the budget, in the contract's compact form with the full value as tooltip.
  await page.getByRole("button", { name: "Settings of Numbers" }).click();
  const panel = page.getByRole("complementary", { name: "Widget settings" });
  await panel.getByLabel("Function").selectOption("sum");
  await panel.getByLabel("Number column").selectOption("budget");
  await panel.getByLabel("Title").fill("Budget");
  await panel.getByRole("button", { name: "Close settings" }).click();
  const figure = page.locator('[data-widget-id="n1"] [data-figure]');
  await expect.poll(() => figure.textContent()).toMatch(/^\$\d+(\.\d)?[KM]?$/);
  expect(await figure.getAttribute("title")).toMatch(/^\$[\d,]+(\.\d+)?$/);
  await saved(page);

  // Drag the Numbers widget to the right, then resize it from its corner: both saved.
  const before = (await readDashboard(id)).config.widgets.find((w) => w.id === "n1")?.layout as WidgetLayout;
  await dragBy(page, '[data-widget-id="n1"] .dash-widget-head', 700, 0);
  await saved(page);
  const moved = (await readDashboard(id)).config.widgets.find((w) => w.id === "n1")?.layout as WidgetLayout;
  expect(moved.x).toBeGreaterThan(before.x);
  await dragBy(page, '[data-widget-id="n1"] .react-resizable-handle-se', 120, 110);
  await saved(page);
  const resized = (await readDashboard(id)).config.widgets.find((w) => w.id === "n1")?.layout as WidgetLayout;
  expect(resized.w).toBeGreaterThan(moved.w);
  expect(resized.h).toBeGreaterThan(moved.h);

  // A filter scopes every widget: the budget and the item count both change. "On track" is a
  // label of the launches board only; a rule on the budget skips the sprint board, and says so.
  const figureBefore = await figure.textContent();
  const keptBefore = Number(await page.locator("[data-kept-items]").getAttribute("data-kept-items"));
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByRole("button", { name: "+ Add rule" }).click();
  await page.getByLabel("Rule column").selectOption("status");
  await page.getByLabel("Rule operator").selectOption("is");
  await page.getByLabel("Rule value").fill("On track");
  await page.getByRole("button", { name: "+ Add rule" }).click();
  await page.getByLabel("Rule column").nth(1).selectOption("budget");
  await page.getByLabel("Rule operator").nth(1).selectOption("gt");
  await page.getByLabel("Rule value").nth(1).fill("0");
  await page.keyboard.press("Escape");
  await widgetsDrawn(page, 5);
  const keptAfter = Number(await page.locator("[data-kept-items]").getAttribute("data-kept-items"));
  // Each rule applies to the boards that have its column; an item stays when it passes them all.
  const connected = await Promise.all((await readDashboard(id)).config.boardIds.map(fullBoard));
  expect(keptBefore).toBe(connected.reduce((n, b) => n + b.items.length, 0));
  const passes = (board: FullBoardBody, item: FullItem) => {
    const has = (column: string) => board.board.columns.some((c) => c.id === column);
    const budget = item.values.budget;
    return (
      (!has("status") || item.values.status === "On track") &&
      (!has("budget") || (typeof budget === "number" && budget > 0))
    );
  };
  expect(keptAfter).toBe(connected.reduce((n, b) => n + b.items.filter((item) => passes(b, item)).length, 0));
  expect(keptAfter).toBeLessThan(keptBefore);
  await expect.poll(() => figure.textContent()).not.toBe(figureBefore);
  expect(await figure.textContent()).toMatch(/^\$/);
  expect(await page.getByTestId("filter-notes").textContent()).toContain(
    "Rule on “budget” not applied to Platform sprint board",
  );
  await saved(page);
  expect((await readDashboard(id)).config.filters).toEqual({
    rules: [
      { column: "status", op: "is", value: "On track" },
      { column: "budget", op: "gt", value: "0" },
    ],
  });

  // Export as PNG: a real PNG file.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    (async () => {
      await page.getByRole("button", { name: "Export" }).click();
      await page.getByRole("menuitem", { name: "PNG image" }).click();
    })(),
  ]);
  expect(download.suggestedFilename()).toBe("E2E-dashboard.png");
  const png = readFileSync(await download.path());
  expect(png.length).toBeGreaterThan(5_000);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

  // Print to PDF: the print stylesheet leaves the toolbar out.
  await page.emulateMedia({ media: "print" });
  expect(await page.locator(".dash-toolbar").isVisible()).toBe(false);
  const pdf = await page.pdf({ landscape: true, printBackground: true });
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  await page.emulateMedia({ media: "screen" });

  // Publish, open the link in a fresh context without a cookie, withdraw.
  await page.getByRole("button", { name: "Publish to web" }).click();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  const url = await page.getByLabel("Public link").inputValue();
  expect(url).toMatch(/\/p\/[^/]+$/);
  const anonymous = await e2e.browser.newContext();
  const publicPage = await anonymous.newPage();
  await publicPage.goto(url);
  await widgetsDrawn(publicPage, 5);
  expect(await anonymous.cookies()).toEqual([]);
  expect(await publicPage.locator("h1").textContent()).toBe("E2E dashboard");
  expect(await publicPage.getByRole("button", { name: "+ Add widget" }).count()).toBe(0);
  expect(await publicPage.locator(".react-resizable-handle:visible").count()).toBe(0);
  expect(await publicPage.locator('[data-widget-id="n1"] [data-figure]').textContent()).toBe(
    await figure.textContent(),
  );
  await page.getByRole("button", { name: "Withdraw" }).click();
  await page.waitForSelector("text=Link withdrawn");
  await publicPage.reload();
  await publicPage.waitForSelector("text=Dashboard unavailable");
  await anonymous.close();

  // Rename, let the autosave run, reload: what was saved is back.
  await page.getByLabel("Dashboard name").fill("Renamed dashboard");
  await saved(page);
  await page.reload();
  await widgetsDrawn(page, 5);
  expect(await page.getByLabel("Dashboard name").inputValue()).toBe("Renamed dashboard");
  expect(await figure.textContent()).toMatch(/^\$/);
  const reloaded = (await readDashboard(id)).config.widgets.find((w) => w.id === "n1")?.layout;
  expect(reloaded).toEqual(resized);

  // Someone else saves (a script, without If-Match); this tab's next save trips the ETag.
  expect((await e2e.server.api("PATCH", `/dashboards/${id}`, { name: "Changed by a script" })).status).toBe(200);
  await page.getByLabel("Dashboard name").fill("Mine");
  await page.waitForSelector("text=This dashboard was changed elsewhere");
  expect((await readDashboard(id)).name).toBe("Changed by a script");
  await page.getByRole("button", { name: "Reload the saved version" }).click();
  await saved(page);
  expect(await page.getByLabel("Dashboard name").inputValue()).toBe("Changed by a script");

  await context.close();
});

test("a deleted board is disconnected (one autosave), the page says so, the others draw, and saves succeed", async () => {
  const workspaces = await e2e.server.api<{ id: string }[]>("GET", "/workspaces");
  const workspaceId = workspaces.body[0]?.id as string;
  const boards = await e2e.server.api<{ id: string; name: string }[]>("GET", `/boards?workspaceId=${workspaceId}`);
  const kept = boards.body[0] as { id: string };
  const doomed = await e2e.server.api<{ id: string }>("POST", "/boards", {
    workspaceId,
    name: "Doomed board",
    columns: [{ id: "status", title: "Status", type: "text" }],
    groups: [{ id: "g", title: "G" }],
  });
  expect(doomed.status).toBe(201);
  const created = await e2e.server.api<Dashboard>("POST", "/dashboards", {
    workspaceId,
    name: "With a missing board",
    config: {
      boardIds: [kept.id, doomed.body.id],
      filters: {},
      widgets: [{ id: "n1", type: "numbers", layout: { x: 0, y: 0, w: 4, h: 3 }, settings: { function: "count" } }],
    },
  });
  expect(created.status).toBe(201);
  expect((await e2e.server.api("DELETE", `/boards/${doomed.body.id}`)).status).toBe(204);
  // The server refuses a config naming the deleted board, which is why the page drops it.
  const refused = await e2e.server.api("PATCH", `/dashboards/${created.body.id}`, {
    config: { ...created.body.config, widgets: [] },
  });
  expect(refused.status).toBe(404);

  const { context, page } = await loggedInPage(e2e, `/dashboards/${created.body.id}`);
  await widgetsDrawn(page, 1);
  const notice = page.locator(`[data-testid="disconnected-boards"] [data-board-id="${doomed.body.id}"]`);
  expect(await notice.textContent()).toBe(`Board ${doomed.body.id} no longer exists and was disconnected.`);
  const count = Number(await page.locator('[data-widget-id="n1"] [data-figure]').textContent());
  expect(count).toBe((await fullBoard(kept.id)).items.length);
  await expect
    .poll(async () => (await readDashboard(created.body.id)).config.boardIds, { timeout: 15_000 })
    .toEqual([kept.id]);
  await saved(page);
  expect(await page.getByRole("button", { name: "1 connected board" }).count()).toBe(1);

  // The next edit saves, and the page still says the board was disconnected.
  await page.getByLabel("Dashboard name").fill("Without the deleted board");
  await expect
    .poll(async () => (await readDashboard(created.body.id)).name, { timeout: 15_000 })
    .toBe("Without the deleted board");
  await saved(page);
  expect(await notice.count()).toBe(1);
  await context.close();
});

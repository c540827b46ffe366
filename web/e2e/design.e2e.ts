/**
 * The design system holds on the pages it was applied to (boards, a board, dashboards, a
 * dashboard, inbox, tasks, bug intake, runners, work, automations, scheduled messages, drips):
 * each browser tab is titled by the page's thing (a board's name, a dashboard's name, the
 * section's label); at 390 px no control of these pages or of the shell is under 44 px, no
 * keyboard hint shows, and a dashboard's widgets take the grid's full width with their titles
 * and "Publish to web" on one line; the bookmarks panel opens inside the window and the menu;
 * status pills' text meets AA on their colour; the board's delete icon is drawn; and the theme
 * button names the theme it switches to.
 */
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import { loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser({ args: ["--demo"] });

interface Target {
  path: string;
  /** The heading that says the page is drawn, or a selector where the name is a field. */
  ready: { heading: string } | { selector: string };
  /** The tab title, without the inbox's "(3) " badge. */
  title: string;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const reply = await e2e.server.api<T>(method, path, body);
  if (reply.status >= 300) throw new Error(`${method} ${path} → ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

let made: { targets: Target[]; dashboardPath: string; boardPath: string } | undefined;

/** The pages checked: the sections, the demo's first board, and a dashboard made here with three widgets. */
async function targets() {
  if (made) return made;
  await setSetting(e2e.server, "bugIntakeEnabled", true);
  const [workspace] = await api<{ id: string }[]>("GET", "/workspaces");
  if (!workspace) throw new Error("the demo has no workspace");
  const boards = await api<{ id: string; name: string }[]>("GET", `/boards?workspaceId=${workspace.id}`);
  const [board] = boards;
  if (!board) throw new Error("the demo has no board");
  const dashboard = await api<{ id: string; name: string }>("POST", "/dashboards", {
    workspaceId: workspace.id,
    name: "Release readiness",
    config: {
      boardIds: boards.map((b) => b.id),
      filters: {},
      widgets: [
        {
          id: "n1",
          type: "numbers",
          title: "Open items across every board",
          layout: { x: 0, y: 0, w: 3, h: 3 },
          settings: { function: "count" },
        },
        { id: "c1", type: "chart", layout: { x: 3, y: 0, w: 6, h: 4 }, settings: { groupBy: "board" } },
        { id: "b1", type: "battery", layout: { x: 9, y: 0, w: 3, h: 3 }, settings: {} },
      ],
    },
  });
  const section = (path: string, heading: string, title = heading): Target => ({
    path,
    ready: { heading },
    title: `${title} · Switchboard`,
  });
  made = {
    boardPath: `/boards/${board.id}`,
    dashboardPath: `/dashboards/${dashboard.id}`,
    targets: [
      section("/boards", "Boards"),
      { path: `/boards/${board.id}`, ready: { heading: board.name }, title: `${board.name} · Switchboard` },
      section("/dashboards", "Dashboards"),
      {
        path: `/dashboards/${dashboard.id}`,
        ready: { selector: "[data-widget-id]" },
        title: `${dashboard.name} · Switchboard`,
      },
      section("/inbox", "Inbox"),
      section("/tasks", "Tasks"),
      section("/tasks/caught", "Tasks"),
      section("/bugs", "Bug Intake"),
      section("/runners", "Runners"),
      section("/work", "Where's my work", "Work"),
      section("/automations", "Automations"),
      section("/scheduled-messages", "Scheduled messages"),
      section("/drips", "Drips"),
    ],
  };
  return made;
}

async function open(page: Page, target: Target): Promise<void> {
  await page.goto(`${e2e.server.uiUrl}${target.path}`);
  const ready =
    "heading" in target.ready
      ? page.getByRole("heading", { name: target.ready.heading, exact: true }).first()
      : page.locator(target.ready.selector).first();
  await ready.waitFor();
  await page.waitForLoadState("networkidle");
}

const tabTitle = (page: Page) => page.evaluate(() => document.title.replace(/^\(\d+\+?\) /, ""));

test("each page's tab is titled by its thing: a board's name, a dashboard's name, the section's label", async () => {
  const { context, page } = await loggedInPage(e2e, "/");
  const wrong: Record<string, string> = {};
  for (const target of (await targets()).targets) {
    await open(page, target);
    await page
      .waitForFunction((want) => document.title.endsWith(want), target.title, { timeout: 5000 })
      .catch(() => {});
    const title = await tabTitle(page);
    if (title !== target.title) wrong[target.path] = title;
  }
  expect(wrong).toEqual({});
  await context.close();
});

/**
 * Controls smaller than 44 px on either side, and keyboard hints that are drawn. A checkbox or
 * radio is measured by its label, which is what a finger hits; a link inside a sentence is
 * exempt, as WCAG's target-size rule exempts it.
 */
async function phoneFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const visible = (element: Element) => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 1 && box.height > 1 && style.visibility !== "hidden" && style.display !== "none";
    };
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 30)}"`;
    const scope = [...document.querySelectorAll("main, .topbar, .sidebar")];
    const controls = scope.flatMap((root) => [
      ...root.querySelectorAll("a[href], button, input, select, textarea, [role=tab], summary"),
    ]);
    for (const element of new Set(controls)) {
      if (!visible(element)) continue;
      if (element.tagName === "A" && element.closest("p, li > span, dd, td") && !element.classList.contains("card")) {
        continue;
      }
      const type = element.getAttribute("type");
      const target = type === "checkbox" || type === "radio" ? (element.closest("label") ?? element) : element;
      const box = target.getBoundingClientRect();
      if (box.width < 43.5 || box.height < 43.5) {
        faults.push(`${name(element)} is ${Math.round(box.width)}×${Math.round(box.height)} px`);
      }
    }
    for (const hint of document.querySelectorAll("kbd, .shortcut-hint")) {
      if (visible(hint)) faults.push(`keyboard hint "${(hint.textContent ?? "").trim()}" is shown`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth + 1) {
      faults.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    }
    return faults;
  });
}

test("at 390 px no control of these pages or of the shell is under 44 px, and no keyboard hint shows", async () => {
  const { context, page } = await loggedInPage(e2e, "/");
  await page.setViewportSize({ width: 390, height: 844 });
  const found: Record<string, string[]> = {};
  for (const target of (await targets()).targets) {
    await open(page, target);
    const faults = await phoneFaults(page);
    if (faults.length > 0) found[target.path] = faults;
  }
  // The sections menu, open, with the shell's own controls (the palette's "Ctrl K" among them).
  await open(page, { path: "/inbox", ready: { heading: "Inbox" }, title: "" });
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("navigation", { name: "Sections" }).waitFor({ state: "visible" });
  const menu = await phoneFaults(page);
  if (menu.length > 0) found["the menu"] = menu;
  expect(found).toEqual({});
  await context.close();
});

test("the same checks find a small control and a hint where the design system is not applied", async () => {
  const { context, page } = await loggedInPage(e2e, "/inbox");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  await page.evaluate(() => {
    const main = document.querySelector("main")!;
    main.insertAdjacentHTML(
      "beforeend",
      '<div><button style="min-height:0;min-width:0;height:20px">x</button><kbd>q</kbd></div>',
    );
  });
  const faults = await phoneFaults(page);
  expect(faults.some((f) => f.startsWith('button "x" is'))).toBe(true);
  expect(faults).toContain('keyboard hint "q" is shown');
  await context.close();
});

test("at 390 px a dashboard's widgets take the full width, their titles and Publish to web on one line", async () => {
  const { dashboardPath } = await targets();
  const { context, page } = await loggedInPage(e2e, "/");
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, { path: dashboardPath, ready: { selector: "[data-widget-id]" }, title: "" });
  await page.locator("[data-stacked]").waitFor();
  const measured = await page.evaluate(() => {
    const grid = document.querySelector(".dash-grid-container")!.getBoundingClientRect();
    const widgets = [...document.querySelectorAll("[data-widget-id]")].map((w) => {
      const box = w.getBoundingClientRect();
      const title = w.querySelector(".dash-drag")!;
      return {
        id: w.getAttribute("data-widget-id"),
        share: box.width / grid.width,
        titleCut: title.scrollWidth > title.clientWidth + 1,
        left: Math.round(box.left),
      };
    });
    const publish = [...document.querySelectorAll("button")].find((b) => b.textContent?.startsWith("Publish to web"));
    const lineHeight = publish ? parseFloat(getComputedStyle(publish).lineHeight) || 20 : 0;
    const textLines = publish
      ? (() => {
          const range = document.createRange();
          range.selectNodeContents(publish);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        })()
      : -1;
    return { widgets, publishLines: textLines, lineHeight, pageWidth: document.documentElement.scrollWidth };
  });
  expect(measured.widgets).toHaveLength(3);
  for (const widget of measured.widgets) {
    // The grid keeps its 12 px margin either side of a widget: 327 of 351 px at 390.
    expect(widget.share, widget.id ?? "").toBeGreaterThan(0.9);
    expect(widget.titleCut, widget.id ?? "").toBe(false);
  }
  expect(new Set(measured.widgets.map((w) => w.left)).size).toBe(1);
  expect(measured.publishLines).toBe(1);
  expect(measured.pageWidth).toBeLessThanOrEqual(390);
  await context.close();
});

test("at 390 px the bookmarks panel opens inside the window and inside the menu it is in", async () => {
  await setSetting(e2e.server, "showBookmarksInToolbar", true);
  const { context, page } = await loggedInPage(e2e, "/inbox");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  await page.getByRole("button", { name: "Menu" }).click();
  const menu = page.getByRole("navigation", { name: "Sections" });
  await menu.getByRole("button", { name: "Bookmarks" }).click();
  const panel = page.getByRole("dialog", { name: "Bookmarks" });
  await panel.waitFor();
  await page.waitForTimeout(100);
  const [box, drawer] = [await panel.boundingBox(), await menu.boundingBox()];
  expect(box && drawer).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(Math.min(390, drawer!.x + drawer!.width) + 1);
  expect(box!.y + box!.height).toBeLessThanOrEqual(844 + 1);
  await context.close();
});

test("a board's status pills have text that meets AA on their colour, and its delete icon is drawn", async () => {
  const { boardPath } = await targets();
  const { context, page } = await loggedInPage(e2e, boardPath);
  await page.locator("[data-board-ready]").waitFor();
  const pills = await page.evaluate(() => {
    const rgb = (value: string) => (value.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const luminance = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    return [...document.querySelectorAll(".status-label")]
      .filter((label) => (label.textContent ?? "").trim() !== "")
      .map((label) => {
        const style = getComputedStyle(label);
        const [a, b] = [luminance(rgb(style.color)), luminance(rgb(style.backgroundColor))];
        return { text: label.textContent, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
      });
  });
  expect(pills.length).toBeGreaterThan(0);
  expect(pills.filter((p) => p.ratio < 4.5)).toEqual([]);
  const icon = page.locator('[aria-label^="Delete "] svg[data-icon="trash"]').first();
  const box = await icon.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(10);
  await context.close();
});

test("the theme button names the theme it switches to, and switches", async () => {
  await setSetting(e2e.server, "pmColorMode", "light");
  const { context, page } = await loggedInPage(e2e, "/inbox");
  const toDark = page.getByRole("button", { name: "Switch to dark theme" });
  await toDark.click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
  await page.getByRole("button", { name: "Switch to light theme" }).waitFor();
  await setSetting(e2e.server, "pmColorMode", "system");
  await context.close();
});

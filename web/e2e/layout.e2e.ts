/**
 * On every page of the app (each section, one of the demo's sessions, boards and dashboards, a
 * drip, a published dashboard, the login page and an unknown address: see ./appPages.ts): the
 * layout holds at 1440, 900 and 390 px, nothing making the page scroll sideways and no two
 * controls overlapping, measured from the DOM's bounding boxes; axe-core finds no serious or
 * critical accessibility violation, contrast included, in the light theme and the dark; the tab
 * title is the thing's name on a session, board, dashboard or drip page and the section's label on
 * a section's page, then " · Switchboard". Below 900 px the sections are behind a menu button that
 * opens them, closes with Escape, and closes when a page is chosen.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { loggedInPage, serverAndBrowser, setSetting } from "./harness";
import { appPages, openPage, pageTitle, withoutBadge, type AppPage } from "./appPages";

const e2e = serverAndBrowser({ args: ["--demo"] });

const WIDTHS = [1440, 900, 390] as const;

// Every page, in both themes or at three widths, takes minutes rather than the default minute.
const WALK_TIMEOUT = 600_000;

let listed: AppPage[] | undefined;

/**
 * The pages measured: every page of the demo, and a session of an engine of the test's own
 * beside the demo's, with a nested task so the Tasks page draws its rows.
 */
async function pages(): Promise<AppPage[]> {
  if (!listed) {
    writeFileSync(
      join(e2e.server.dataDir, "engines.toml"),
      `[engines.echo]\nkind = "command"\ncommand = ["/usr/bin/cat"]\n`,
    );
    await setSetting(e2e.server, "agentDrivenSessionsEnabled", true);
    await setSetting(e2e.server, "requireSpawnSourceSession", false);
    const title = "Tidy the release notes";
    const reply = await e2e.server.api<{ id: string }>("POST", "/sessions", {
      engine: "echo",
      prompt: "Which of the release notes should go first?",
      title,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const parent = await e2e.server.api<{ id: string }>("POST", "/tasks", {
      text: "Ship the release",
      due: "2026-12-01",
    });
    await e2e.server.api("POST", "/tasks", { text: "Write the notes", parentId: parent.body.id });
    listed = [
      ...(await appPages(e2e.server)),
      {
        slug: "echo-session",
        name: `Session: ${title}`,
        path: `/sessions/${reply.body.id}`,
        ready: { heading: title },
        title: pageTitle(title),
        shows: "A session on an echo engine, for the layout checks.",
      },
    ];
  }
  return listed;
}

/** The owner's tab and a visitor's (no cookie): each page is opened in the one it is for. */
async function tabs(): Promise<{ contexts: BrowserContext[]; tab: (target: AppPage) => Page }> {
  const owner = await loggedInPage(e2e, "/");
  const visitor = await e2e.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const visitorPage = await visitor.newPage();
  return {
    contexts: [owner.context, visitor],
    tab: (target) => (target.anonymous ? visitorPage : owner.page),
  };
}

/** What breaks the layout on the page as drawn: sideways scrolling, and controls drawn over each other. */
async function layoutFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1) {
      faults.push(`the page is ${root.scrollWidth} px wide in a ${window.innerWidth} px window`);
    }
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 30)}"`;
    const controls = [...document.querySelectorAll("a, button, input, select, textarea, [role=button]")].filter(
      (element) => {
        const box = element.getBoundingClientRect();
        // checkVisibility also leaves out what a closed <details> keeps laid out but undrawn.
        return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
      },
    );
    // Past the window but inside a box that scrolls sideways and ends within it (a board's
    // columns, a strip of tabs): reachable by scrolling that box, so not a fault.
    const inSidewaysScroller = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        const overflow = getComputedStyle(box).overflowX;
        const scrolls = (overflow === "auto" || overflow === "scroll") && box.scrollWidth > box.clientWidth;
        if (scrolls && box.getBoundingClientRect().right <= window.innerWidth + 1) return true;
      }
      return false;
    };
    for (const element of controls) {
      const box = element.getBoundingClientRect();
      if (box.right > window.innerWidth + 1 && !element.closest("table") && !inSidewaysScroller(element)) {
        faults.push(`${name(element)} ends at ${Math.round(box.right)} px, past the window`);
      }
    }
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const [a, b] = [controls[i]!, controls[j]!];
        if (a.contains(b) || b.contains(a)) continue;
        const [p, q] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
        const overlapX = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const overlapY = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (overlapX > 1 && overlapY > 1) faults.push(`${name(a)} overlaps ${name(b)}`);
      }
    }
    return faults;
  });
}

test(
  "no page scrolls sideways or draws a control over another, at any of three widths",
  async () => {
    const { contexts, tab } = await tabs();
    const found: Record<string, string[]> = {};
    for (const width of WIDTHS) {
      for (const target of await pages()) {
        const page = tab(target);
        await page.setViewportSize({ width, height: 900 });
        const missing = await openPage(page, e2e.server.uiUrl, target);
        const faults = missing ? [missing] : await layoutFaults(page);
        if (faults.length > 0) found[`${width} px ${target.slug} ${target.path}`] = faults;
      }
    }
    expect(found).toEqual({});
    for (const context of contexts) await context.close();
  },
  WALK_TIMEOUT,
);

test("below 900 px the sections are behind a menu button", async () => {
  const { context, page } = await loggedInPage(e2e, "/");
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${e2e.server.uiUrl}/settings`);
  await page.getByRole("heading", { name: "Settings", exact: true }).first().waitFor();
  const sections = page.getByRole("navigation", { name: "Sections", exact: true });
  const menu = page.getByRole("button", { name: "Menu" });
  expect(await sections.isVisible()).toBe(false);
  expect(await menu.getAttribute("aria-expanded")).toBe("false");

  await menu.click();
  await sections.waitFor({ state: "visible" });
  expect(await menu.getAttribute("aria-expanded")).toBe("true");
  await page.keyboard.press("Escape");
  await sections.waitFor({ state: "hidden" });

  await menu.click();
  await sections.getByRole("link", { name: "Inbox" }).click();
  await page.getByRole("heading", { name: "Inbox", exact: true }).first().waitFor();
  expect(new URL(page.url()).pathname).toBe("/inbox");
  await sections.waitFor({ state: "hidden" });

  // At 900 px and wider the sections are always there and the button is not.
  await page.setViewportSize({ width: 900, height: 800 });
  await sections.waitFor({ state: "visible" });
  expect(await menu.isVisible()).toBe(false);
  await context.close();
});

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

test(
  "axe-core finds no serious or critical violation on any page, in the light theme and the dark",
  async () => {
    const { contexts, tab } = await tabs();
    const found: Record<string, string[]> = {};
    for (const theme of ["light", "dark"] as const) {
      await setSetting(e2e.server, "pmColorMode", theme);
      for (const target of await pages()) {
        const page = tab(target);
        // A visitor's pages follow the system's theme; the owner's, the setting.
        await page.emulateMedia({ colorScheme: theme });
        const key = `${theme} ${target.slug} ${target.path}`;
        const missing = await openPage(page, e2e.server.uiUrl, target);
        if (missing) {
          found[key] = [missing];
          continue;
        }
        await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
        await page.addScriptTag({ content: axeSource });
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } })
            .axe;
          return (await axe.run(document)).violations;
        });
        const bad = (violations as AxeViolation[])
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map(
            (v) =>
              `${v.id} (${v.impact}): ${v.help} at ${v.nodes
                .slice(0, 5)
                .map((n) => n.target.join(" "))
                .join(", ")}${v.nodes.length > 5 ? ` and ${v.nodes.length - 5} more` : ""}`,
          );
        if (bad.length > 0) found[key] = bad;
      }
    }
    await setSetting(e2e.server, "pmColorMode", "system");
    expect(found).toEqual({});
    for (const context of contexts) await context.close();
  },
  WALK_TIMEOUT,
);

test(
  "each page's tab title is its thing's name or its section's label, then · Switchboard",
  async () => {
    const { contexts, tab } = await tabs();
    const wrong: Record<string, string> = {};
    for (const target of await pages()) {
      const wanted = target.title;
      if (wanted === null) continue;
      const page = tab(target);
      const missing = await openPage(page, e2e.server.uiUrl, target);
      if (missing) {
        wrong[`${target.slug} ${target.path}`] = missing;
        continue;
      }
      // The title follows the page's data by an effect; a loaded CI machine can take seconds.
      const arrived = await page
        .waitForFunction((t) => document.title.replace(/^\(\d+\+?\) /, "") === t, wanted, { timeout: 10_000 })
        .then(
          () => true,
          () => false,
        );
      const title = withoutBadge(await page.title());
      if (!arrived) wrong[`${target.slug} ${target.path}`] = `"${title}", not "${wanted}"`;
    }
    expect(wrong).toEqual({});
    for (const context of contexts) await context.close();
  },
  WALK_TIMEOUT,
);

test("a popover opened at the foot of the sidebar stays inside the window", async () => {
  await setSetting(e2e.server, "showBookmarksInToolbar", true);
  const { context, page } = await loggedInPage(e2e, "/");
  for (const [width, height] of [
    [1440, 600],
    [900, 520],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(`${e2e.server.uiUrl}/inbox`);
    await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
    await page.getByRole("button", { name: "Bookmarks" }).click();
    const panel = page.getByRole("dialog", { name: "Bookmarks" });
    await panel.waitFor();
    await page.waitForTimeout(100);
    const box = await panel.boundingBox();
    expect(box).not.toBeNull();
    if (box) {
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    await page.keyboard.press("Escape");
  }
  await context.close();
});

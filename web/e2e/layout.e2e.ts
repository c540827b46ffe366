/**
 * The layout holds at 1440, 900 and 390 px: on the agent board, a session, the boards, the inbox,
 * settings, tasks, bug intake, runners and work, nothing makes the page scroll sideways and no two
 * controls overlap, measured from the DOM's bounding boxes; axe-core finds no serious or critical
 * accessibility violation on them; below 900 px the sections are behind a menu button that opens
 * them, closes with Escape, and closes when a page is chosen.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import { loggedInPage, serverAndBrowser, setSetting } from "./harness";

const e2e = serverAndBrowser({ args: ["--demo"] });

const WIDTHS = [1440, 900, 390] as const;

let sessionPage: [string, string] | undefined;

/** The pages measured, with the heading that says each is drawn: one session's page among them. */
async function pages(): Promise<(readonly [string, string])[]> {
  if (!sessionPage) {
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
    sessionPage = [`/sessions/${reply.body.id}`, title];
    // The Tasks page with a nested task, so its rows are drawn and checked too.
    const parent = await e2e.server.api<{ id: string }>("POST", "/tasks", {
      text: "Ship the release",
      due: "2026-12-01",
    });
    await e2e.server.api("POST", "/tasks", { text: "Write the notes", parentId: parent.body.id });
  }
  return [
    ["/", "Agents"],
    sessionPage,
    ["/boards", "Boards"],
    ["/inbox", "Inbox"],
    ["/settings", "Settings"],
    ["/tasks", "Tasks"],
    ["/bugs", "Bug Intake"],
    ["/runners", "Runners"],
    ["/work", "Where's my work"],
    ["/automations", "Automations"],
    ["/scheduled-messages", "Scheduled messages"],
    ["/drips", "Drips"],
  ];
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
        const style = getComputedStyle(element);
        return box.width > 0 && box.height > 0 && style.visibility !== "hidden";
      },
    );
    for (const element of controls) {
      const box = element.getBoundingClientRect();
      if (box.right > window.innerWidth + 1 && !element.closest("table, .table-scroll")) {
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

test("no page scrolls sideways or draws a control over another, at any of three widths", async () => {
  const { context, page } = await loggedInPage(e2e, "/");
  const found: Record<string, string[]> = {};
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, title] of await pages()) {
      await page.goto(`${e2e.server.uiUrl}${path}`);
      await page.getByRole("heading", { name: title, exact: true }).first().waitFor();
      await page.waitForLoadState("networkidle");
      const faults = await layoutFaults(page);
      if (faults.length > 0) found[`${width} px ${path}`] = faults;
    }
  }
  expect(found).toEqual({});
  await context.close();
});

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

test("axe-core finds no serious or critical violation on the board, a session, the inbox, settings and tasks", async () => {
  const { context, page } = await loggedInPage(e2e, "/");
  const found: Record<string, string[]> = {};
  for (const theme of ["light", "dark"] as const) {
    await setSetting(e2e.server, "pmColorMode", theme);
    for (const [path, title] of await pages()) {
      await page.goto(`${e2e.server.uiUrl}${path}`);
      await page.getByRole("heading", { name: title, exact: true }).first().waitFor();
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
              .slice(0, 3)
              .map((n) => n.target.join(" "))
              .join(", ")}`,
        );
      if (bad.length > 0) found[`${theme} ${path}`] = bad;
    }
  }
  await setSetting(e2e.server, "pmColorMode", "system");
  expect(found).toEqual({});
  await context.close();
});

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

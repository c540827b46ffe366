/**
 * One voice across the app, read from every page's rendered DOM (see ./appPages.ts), not by eye:
 * every status or state tag is the shared pill (`shared/ui/Pill`), capitalised and coloured by
 * one of its five tones; no date is written as ISO or US numbers outside a `<time>`, `<code>` or a
 * field, and every `<time>` carries the exact time in its tooltip (`shared/ui/When`); every "No …
 * yet" or "Nothing …" is the shared empty state; every row of a form's actions ends with its
 * primary action, Cancel before it, inline and in a dialog. At 390 px no page says its name twice,
 * and on a touch screen no keyboard hint is shown.
 */
import { expect, test } from "vitest";
import type { Page } from "playwright-core";
import { loggedInPage, serverAndBrowser } from "./harness";
import { appPages, openPage, type AppPage } from "./appPages";

const e2e = serverAndBrowser({ args: ["--demo"] });

// Every page, twice over, takes minutes rather than the default minute.
const WALK_TIMEOUT = 600_000;

let listed: AppPage[] | undefined;
async function pages(): Promise<AppPage[]> {
  listed ??= await appPages(e2e.server);
  return listed;
}

/** What on the page as drawn speaks in another voice than the shared pieces'. */
async function voiceFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && element.checkVisibility({ visibilityProperty: true });
    };
    const text = (element: Element) => (element.textContent ?? "").replace(/\s+/g, " ").trim();

    // Pills: the old tag is gone, and a status says its words capitalised in one of five tones.
    for (const tag of document.querySelectorAll(".tag")) {
      if (shown(tag)) faults.push(`a tag that is not the shared pill: "${text(tag)}"`);
    }
    for (const pill of document.querySelectorAll<HTMLElement>(".pill[data-tone]")) {
      const tone = pill.dataset.tone ?? "";
      if (!["attention", "running", "done", "failed", "neutral"].includes(tone)) {
        faults.push(`a pill of no known tone: "${text(pill)}" (${tone})`);
      }
      const first = text(pill).charAt(0);
      if (first !== first.toLocaleUpperCase()) faults.push(`a status pill not capitalised: "${text(pill)}"`);
    }

    // Dates: in words, in a <time> with the exact time on hover; never ISO or US numbers.
    const numericDate = /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b/;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("code, pre, script, style, textarea, [contenteditable]")) continue;
      const words = node.textContent ?? "";
      if (numericDate.test(words) && shown(parent)) faults.push(`a date in numbers: "${words.trim().slice(0, 60)}"`);
    }
    for (const time of document.querySelectorAll<HTMLTimeElement>("time[datetime]")) {
      // The calendar's day numbers are the grid itself, not a time said in words.
      if (!shown(time) || time.closest(".cal-month, .cal-week, .cal-compact, .cal-agenda")) continue;
      if (!time.title) faults.push(`a time without its exact time on hover: "${text(time)}"`);
    }

    // Empty lists: the shared empty state.
    const emptyWords = /^(No \S.* (yet|matches)|Nothing (here|matches|on|in)\b)/;
    for (const element of document.querySelectorAll("p, li, div, span")) {
      const own = [...element.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? "")
        .join("")
        .trim();
      // A card's line about itself ("No commit yet.") is not an empty list.
      if (emptyWords.test(own) && shown(element) && !element.closest(".empty-state, .work-card")) {
        faults.push(`an empty list not in the shared empty state: "${own.slice(0, 60)}"`);
      }
    }

    // Forms: the primary action last, Cancel (if any) right before it.
    for (const row of document.querySelectorAll(".form-actions, .dialog-actions, form")) {
      if (!shown(row)) continue;
      const buttons = [...row.querySelectorAll("button")].filter(
        (b) => shown(b) && b.closest(".form-actions, .dialog-actions, form") === row,
      );
      const names = buttons.map(text);
      const cancel = names.findIndex((n) => n === "Cancel");
      if (cancel !== -1 && cancel !== names.length - 2) {
        faults.push(`a form's actions not ending Cancel, then the primary one: ${JSON.stringify(names)}`);
      }
    }
    return faults;
  });
}

test(
  "every page speaks in the shared pill, time, empty state and form actions",
  async () => {
    const owner = await loggedInPage(e2e, "/");
    const visitor = await e2e.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const visitorPage = await visitor.newPage();
    const found: Record<string, string[]> = {};
    for (const target of await pages()) {
      const page = target.anonymous ? visitorPage : owner.page;
      await page.setViewportSize({ width: 1440, height: 900 });
      const missing = await openPage(page, e2e.server.uiUrl, target);
      const faults = missing ? [missing] : await voiceFaults(page);
      if (faults.length > 0) found[`${target.slug} ${target.path}`] = faults;
    }
    // A dialog's form too: New session's actions, Cancel then Start session.
    await owner.page.goto(`${e2e.server.uiUrl}/`);
    await owner.page.getByRole("button", { name: "New session", exact: true }).first().click();
    await owner.page.locator("dialog[open] .form-actions").waitFor();
    expect(await owner.page.locator("dialog[open] .form-actions button").allTextContents()).toEqual([
      "Cancel",
      "Start session",
    ]);
    expect(found).toEqual({});
    await owner.context.close();
    await visitor.close();
  },
  WALK_TIMEOUT,
);

/** The page's name said twice on a phone, or a keyboard's words on a touch screen. */
async function phoneFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const faults: string[] = [];
    const shown = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && element.checkVisibility({ visibilityProperty: true });
    };
    const text = (element: Element) => (element.textContent ?? "").replace(/\s+/g, " ").trim();
    const titles = [...document.querySelectorAll(".topbar .brand, main h1")].filter(shown).map(text);
    if (new Set(titles).size < titles.length) faults.push(`the page's name said twice: ${JSON.stringify(titles)}`);
    if (document.querySelectorAll("main h1").length === 0 && document.querySelector(".shell")) {
      faults.push("no h1 left for a screen reader");
    }
    if (window.matchMedia("(pointer: coarse)").matches) {
      for (const kbd of document.querySelectorAll("kbd")) {
        if (shown(kbd)) faults.push(`a key shown on a touch screen: "${text(kbd)}"`);
      }
      for (const field of document.querySelectorAll<HTMLTextAreaElement | HTMLInputElement>("textarea, input")) {
        if (shown(field) && /Enter/.test(field.placeholder)) faults.push(`a keyboard hint: "${field.placeholder}"`);
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent && /Shift\+Enter|Enter (sends|opens|adds)/.test(node.textContent ?? "") && shown(parent)) {
          faults.push(`a keyboard hint: "${(node.textContent ?? "").trim().slice(0, 60)}"`);
        }
      }
    }
    return faults;
  });
}

test(
  "at 390 px on a touch screen, each page says its name once and no keyboard hint",
  async () => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    await page.goto(
      `${e2e.server.uiUrl}/login?token=${encodeURIComponent(e2e.server.token)}&next=${encodeURIComponent("/")}`,
    );
    expect(await page.evaluate(() => window.matchMedia("(pointer: coarse)").matches)).toBe(true);
    const found: Record<string, string[]> = {};
    for (const target of await pages()) {
      if (target.anonymous) continue;
      const missing = await openPage(page, e2e.server.uiUrl, target);
      const faults = missing ? [missing] : await phoneFaults(page);
      if (faults.length > 0) found[`${target.slug} ${target.path}`] = faults;
    }
    expect(found).toEqual({});
    await context.close();
  },
  WALK_TIMEOUT,
);

/**
 * The screenshots of docs/screens/: every page of the app (./appPages.ts) at 1440×900 and, as a
 * phone, at 390×844, in the light theme and the dark, against a fresh `switchboard serve --demo`
 * with a data directory of its own; then docs/screens/README.md, which lists them. A script, not
 * a test: `make screens` builds it with `vite build --ssr` and runs it with node, the folder to
 * write as its argument and the binary in SWITCHBOARD_BIN.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { appPages, openPage, type AppPage } from "./appPages";
import { launchBrowser, setSetting, startServer, type RunningServer } from "./harness";

const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];

const SIZES = [
  { width: 1440, height: 900, phone: false },
  { width: 390, height: 844, phone: true },
] as const;
type Size = (typeof SIZES)[number];

/** A long page is photographed down to this many window heights, so no file grows without bound. */
const MAX_SCREENS = 3;

const fileName = (target: AppPage, size: Size, theme: Theme) => `${target.slug}-${size.width}-${theme}.png`;

/** The owner's tab and a visitor's, both drawn at `size` in `theme`. */
async function tabsAt(browser: Browser, server: RunningServer, size: Size, theme: Theme) {
  const options = {
    viewport: { width: size.width, height: size.height },
    deviceScaleFactor: 1,
    isMobile: size.phone,
    hasTouch: size.phone,
    colorScheme: theme,
    reducedMotion: "reduce",
  } as const;
  const owner = await browser.newContext(options);
  const ownerPage = await owner.newPage();
  await ownerPage.goto(`${server.uiUrl}/login?token=${encodeURIComponent(server.token)}&next=%2F`);
  await ownerPage.waitForURL((url) => !url.pathname.startsWith("/login"));
  const visitor = await browser.newContext(options);
  const visitorPage = await visitor.newPage();
  return {
    contexts: [owner, visitor] as BrowserContext[],
    tab: (target: AppPage): Page => (target.anonymous ? visitorPage : ownerPage),
  };
}

/** Waits for a dashboard's widgets to be drawn for its filter, where the page has one. */
async function widgetsSettled(page: Page): Promise<void> {
  if ((await page.locator("[data-filter-key]").count()) === 0) return;
  await page
    .waitForFunction(
      () => {
        const root = document.querySelector("[data-filter-key]");
        const key = root?.getAttribute("data-filter-key");
        return [...document.querySelectorAll("[data-widget-id] .dash-widget-body")].every(
          (body) => body.getAttribute("data-drawn") === key,
        );
      },
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
}

/** One PNG of the page as drawn: the whole page, down to MAX_SCREENS window heights. */
async function shoot(page: Page, size: Size, path: string): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.screenshot({
    path,
    fullPage: true,
    animations: "disabled",
    clip: { x: 0, y: 0, width: size.width, height: Math.min(height, size.height * MAX_SCREENS) },
  });
}

function readme(targets: readonly AppPage[], notes: readonly string[]): string {
  const cell = (target: AppPage, size: Size, theme: Theme) => {
    const file = fileName(target, size, theme);
    return `[<img src="${file}" width="${size.phone ? 90 : 240}" alt="${target.name}, ${size.width} px, ${theme}">](${file})`;
  };
  const columns = SIZES.flatMap((size) => THEMES.map((theme) => [size, theme] as const));
  const lines = [
    "# Screens",
    "",
    "Every page of Switchboard at 1440×900 and, as a phone, at 390×844, in the light theme and the",
    "dark, against a fresh `switchboard serve --demo`. Written by `make screens`",
    "(web/e2e/screens.ts), which also writes this file: do not edit it by hand.",
    "",
    `| Page | Path | What it shows | ${columns.map(([size, theme]) => `${size.width} ${theme}`).join(" | ")} |`,
    `| --- | --- | --- | ${columns.map(() => "---").join(" | ")} |`,
    ...targets.map(
      (target) =>
        `| ${target.name.replaceAll("|", "\\|")} | \`${target.pattern ?? target.path}\` | ${target.shows} | ${columns
          .map(([size, theme]) => cell(target, size, theme))
          .join(" | ")} |`,
    ),
    "",
  ];
  if (notes.length > 0) {
    lines.push("Pages that did not say they were drawn when photographed:", "", ...notes.map((n) => `- ${n}`), "");
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error("usage: screens.js <folder to write the PNGs and README.md to>");
  const folder = resolve(out);
  mkdirSync(folder, { recursive: true });
  // A page renamed or gone leaves no stale picture behind.
  for (const file of readdirSync(folder)) {
    if (file.endsWith(".png") || file === "README.md") rmSync(join(folder, file));
  }
  const server = await startServer({ args: ["--demo"] });
  const browser = await launchBrowser();
  const notes: string[] = [];
  try {
    const targets = (await appPages(server)).filter((target) => target.slug !== "not-found");
    for (const theme of THEMES) {
      await setSetting(server, "pmColorMode", theme);
      for (const size of SIZES) {
        const { contexts, tab } = await tabsAt(browser, server, size, theme);
        for (const target of targets) {
          const page = tab(target);
          const file = fileName(target, size, theme);
          const missing = await openPage(page, server.uiUrl, target);
          if (missing) {
            notes.push(`${file}: ${missing}`);
            console.warn(`${file}: ${missing}`);
          } else {
            await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
          }
          await widgetsSettled(page);
          await shoot(page, size, join(folder, file));
          console.log(`wrote ${file}`);
        }
        for (const context of contexts) await context.close();
      }
    }
    writeFileSync(join(folder, "README.md"), readme(targets, notes));
    console.log(`wrote ${targets.length * THEMES.length * SIZES.length} screens and README.md to ${folder}`);
    // The pictures are written all the same, but a page photographed before it was drawn is
    // not one to commit.
    if (notes.length > 0) throw new Error(`${notes.length} pages were not drawn:\n${notes.join("\n")}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * How a page is looked at in the end-to-end tests: axe-core's serious and critical findings on the
 * page as drawn, and the page in both themes at a desktop's and a phone's width, photographed, with
 * axe run on each look.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { setSetting, type RunningServer } from "./harness";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe's serious and critical findings on the page as drawn, each as "rule: where". */
export async function seriousFindings(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    type Found = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (c: Document) => Promise<{ violations: Found[] }> } }).axe;
    return (await axe.run(document)).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

export const WIDTHS = [1440, 390] as const;
export const THEMES = ["light", "dark"] as const;

/**
 * The page in the light and dark themes at 1440 and 390 px: each look photographed into `dir` as
 * `<name>-<width>-<theme>.png` and run through axe. The serious findings by look (none: `{}`); the
 * theme goes back to the system's and the width to 1440 after.
 */
export async function everyLook(server: RunningServer, page: Page, name: string, dir: string) {
  const found: Record<string, string[]> = {};
  for (const theme of THEMES) {
    await setSetting(server, "pmColorMode", theme);
    await page.waitForFunction((wanted) => document.documentElement.dataset.theme === wanted, theme);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(150);
      await page.screenshot({ path: join(dir, `${name}-${width}-${theme}.png`) });
      const faults = await seriousFindings(page);
      if (faults.length > 0) found[`${theme} ${width}`] = faults;
    }
  }
  await setSetting(server, "pmColorMode", "system");
  await page.setViewportSize({ width: 1440, height: 900 });
  return found;
}

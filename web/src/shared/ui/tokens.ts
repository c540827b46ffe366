/**
 * The colour tokens of `app/styles.css`, per theme, and the pairs the app draws one on the other.
 * The stylesheet is the one source the browser reads; this table is its mirror for tests: a test
 * checks the stylesheet says the same, and that every pair meets WCAG AA in both themes.
 */
import { AA_LARGE, AA_TEXT } from "./contrast";

export type Theme = "light" | "dark";

export const COLOR_TOKENS = {
  light: {
    "--bg": "#f6f7fb",
    "--surface": "#ffffff",
    "--surface-2": "#eef0f5",
    "--button-hover": "#e1e4ec",
    "--text": "#1f2430",
    "--muted": "#5c6477",
    "--border": "#d8dce6",
    "--control-border": "#868fa2",
    "--accent": "#0067d1",
    "--accent-text": "#ffffff",
    "--danger": "#c42b43",
    "--danger-text": "#ffffff",
    "--success": "#177233",
    "--warning-bg": "#fff3bf",
    "--warning-text": "#5c3c00",
  },
  dark: {
    "--bg": "#181b23",
    "--surface": "#21252f",
    "--surface-2": "#2b303c",
    "--button-hover": "#363c4a",
    "--text": "#e6e8ee",
    "--muted": "#9aa2b4",
    "--border": "#3a404e",
    "--control-border": "#767e91",
    "--accent": "#4b9dff",
    "--accent-text": "#0b1220",
    "--danger": "#ff6b81",
    "--danger-text": "#0b1220",
    "--success": "#4ac26b",
    "--warning-bg": "#3d3210",
    "--warning-text": "#ffe08a",
  },
} as const satisfies Record<Theme, Record<string, string>>;

export type ColorToken = keyof (typeof COLOR_TOKENS)["light"];

/** One colour drawn on another, and the ratio AA asks of it. */
export interface TokenPair {
  fg: ColorToken;
  bg: ColorToken;
  min: number;
  /** Where the app draws it, so a failure names what to look at. */
  use: string;
}

const TEXT_ON_ALL_SURFACES = (["--bg", "--surface", "--surface-2", "--button-hover"] as const).map((bg): TokenPair => ({
  fg: "--text",
  bg,
  min: AA_TEXT,
  use: "body text, and button labels at rest and hovered",
}));

export const TOKEN_PAIRS: readonly TokenPair[] = [
  ...TEXT_ON_ALL_SURFACES,
  { fg: "--muted", bg: "--bg", min: AA_TEXT, use: "secondary text on the page" },
  { fg: "--muted", bg: "--surface", min: AA_TEXT, use: "secondary text in cards and the sidebar" },
  { fg: "--muted", bg: "--surface-2", min: AA_TEXT, use: "secondary text in table heads and pills" },
  { fg: "--accent", bg: "--bg", min: AA_TEXT, use: "links on the page" },
  { fg: "--accent", bg: "--surface", min: AA_TEXT, use: "links and link buttons in cards" },
  { fg: "--accent", bg: "--surface-2", min: AA_LARGE, use: "the selected tab's underline and focus rings" },
  { fg: "--accent-text", bg: "--accent", min: AA_TEXT, use: "primary buttons and counts" },
  { fg: "--danger", bg: "--bg", min: AA_TEXT, use: "error text on the page" },
  { fg: "--danger", bg: "--surface", min: AA_TEXT, use: "error notes and inline errors" },
  { fg: "--danger-text", bg: "--danger", min: AA_TEXT, use: "destructive buttons" },
  { fg: "--success", bg: "--surface", min: AA_TEXT, use: "success text" },
  { fg: "--warning-text", bg: "--warning-bg", min: AA_TEXT, use: "warnings (a dashboard's conflict)" },
  { fg: "--control-border", bg: "--surface", min: AA_LARGE, use: "the edge of a field in a card" },
  { fg: "--control-border", bg: "--bg", min: AA_LARGE, use: "the edge of a field on the page" },
];

/** `--name: value;` declarations of one rule block of a stylesheet, the block chosen by its selector. */
export function declarationsOf(css: string, selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  const found = new Map<string, string>();
  if (start < 0) return found;
  const end = css.indexOf("}", start);
  const block = css.slice(start + selector.length + 2, end);
  for (const match of block.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) found.set(match[1]!, match[2]!.trim());
  return found;
}

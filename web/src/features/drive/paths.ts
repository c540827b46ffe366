/**
 * The Drive page's pure pieces: paths on a drive (`/Reports/q1.xlsx`) joined, split into
 * breadcrumbs and checked as the server checks them (no `..`, `.`, `/`, `\` or control
 * characters in a name), sizes in words, and when the page shows at all.
 */
import type { DriveAccount } from "../../shared/api/types.generated";

type Values = Readonly<Record<string, unknown>> | undefined;

/** The page is there while any of the three drives' switches is on (all are off by default). */
export function driveShown(values: Values): boolean {
  return values?.driveEnabled === true || values?.filesyncAEnabled === true || values?.filesyncBEnabled === true;
}

/** The drive ids whose switch is on, in the server's order. */
export function slotsOn(values: Values): DriveAccount["slot"][] {
  const on: DriveAccount["slot"][] = [];
  if (values?.driveEnabled === true) on.push("main");
  if (values?.filesyncAEnabled === true) on.push("filesync-a");
  if (values?.filesyncBEnabled === true) on.push("filesync-b");
  return on;
}

/** `path`'s segments, empty ones dropped: `/a//b/` → `["a", "b"]`. */
export function segments(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

/** A path in its one spelling: `/` or `/a/b`. */
export function normalize(path: string): string {
  return `/${segments(path).join("/")}`;
}

export function join(folder: string, name: string): string {
  return normalize(`${folder}/${name}`);
}

export function parent(path: string): string {
  return normalize(segments(path).slice(0, -1).join("/"));
}

const SHEET_EXTENSIONS = ["xlsx", "xlsm", "ods", "csv"];

/**
 * Where a spreadsheet file opens in the Sheets page (`/sheets?driveId=&path=`), or null for
 * any other file and while `sheetsEnabled` is off. A path, not an import: features stay apart.
 */
export function sheetLink(values: Values, driveId: string, path: string): string | null {
  if (values?.sheetsEnabled !== true) return null;
  const ext = baseName(path).split(".").slice(1).at(-1)?.toLowerCase() ?? "";
  if (!SHEET_EXTENSIONS.includes(ext)) return null;
  return `/sheets?${new URLSearchParams({ driveId, path }).toString()}`;
}

export function baseName(path: string): string {
  return segments(path).at(-1) ?? "";
}

export interface Crumb {
  label: string;
  path: string;
}

/** The breadcrumbs to `path`: the drive's root (named `rootLabel`), then each folder down to it. */
export function breadcrumbs(path: string, rootLabel: string): Crumb[] {
  const parts = segments(path);
  return [
    { label: rootLabel, path: "/" },
    ...parts.map((label, i) => ({ label, path: `/${parts.slice(0, i + 1).join("/")}` })),
  ];
}

// Control characters, as the server refuses them (C0, DEL and C1).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name` cannot be one file or folder name, or null when it can. */
export function nameProblem(name: string): string | null {
  if (name.trim() === "") return "A name is needed.";
  if (name === "." || name === "..") return "`.` and `..` name folders, not files.";
  if (name.includes("/") || name.includes("\\")) return "A name cannot hold `/` or `\\`.";
  if (CONTROL.test(name)) return "A name cannot hold control characters.";
  if (new TextEncoder().encode(name).length > 255) return "A name can be at most 255 bytes long.";
  return null;
}

/** Why `path` cannot be a destination, or null: each of its names checked. */
export function pathProblem(path: string): string | null {
  const parts = segments(path);
  if (parts.length === 0) return "Name a folder and a name, such as /Archive/report.txt.";
  for (const part of parts) {
    const problem = nameProblem(part);
    if (problem) return problem;
  }
  return null;
}

const UNITS = ["bytes", "KB", "MB", "GB", "TB"];

/** A size in words: `0 bytes`, `1 byte`, `980 bytes`, `1.2 MB` (powers of 1000, as file managers show). */
export function sizeWords(bytes: number): string {
  if (bytes === 1) return "1 byte";
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const shown = unit === 0 ? String(value) : value >= 100 ? value.toFixed(0) : value.toFixed(1).replace(/\.0$/, "");
  return `${shown} ${UNITS[unit]}`;
}

/** How far an upload is, in words: `12% of 1.2 GB`. */
export function progressWords(sent: number, total: number): string {
  if (total <= 0) return sizeWords(sent);
  return `${Math.min(100, Math.floor((sent / total) * 100))}% of ${sizeWords(total)}`;
}

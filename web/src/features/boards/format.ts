/** How cell values read on screen: units, label colours, initials, dates. */
import type { ColumnSettings, StatusLabel } from "./types";

/** Distinct, readable on light and dark, and stable for a given name. */
const PALETTE = [
  "#579bfc",
  "#a25ddc",
  "#00c875",
  "#fdab3d",
  "#e2445c",
  "#0086c0",
  "#ff642e",
  "#9cd326",
  "#ff158a",
  "#784bd1",
];

function hashString(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}

export function paletteColor(key: string): string {
  return PALETTE[hashString(key) % PALETTE.length] ?? "#579bfc";
}

export function labelColor(label: StatusLabel): string {
  return label.color ?? paletteColor(label.name);
}

/** Made once: `toLocaleString` builds a formatter on every call, and a board draws thousands. */
const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

export function formatNumber(value: unknown, settings: ColumnSettings): string {
  if (typeof value !== "number" || !Number.isFinite(value)) return "";
  const figure = NUMBER.format(value);
  const unit = settings.unit;
  if (!unit) return figure;
  return settings.unitPosition === "left" ? `${unit}${figure}` : `${figure} ${unit}`;
}

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? "?";
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? "") : "";
  return (first + last).toUpperCase();
}

export function isTimeline(value: unknown): value is { from: string; to: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { from?: unknown }).from === "string" &&
    typeof (value as { to?: unknown }).to === "string"
  );
}

export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * A cell button's accessible name: what it edits, then what it shows ("Status of Alpha: Done"),
 * so the words a person sees are in the name a voice-control user says. A glyph (✎) is no word.
 */
export function cellName(label: string, shown: string | undefined): string {
  const text = shown?.trim();
  return text && /[\p{L}\p{N}]/u.test(text) ? `${label}: ${text}` : label;
}

/**
 * How the settings page edits a value it only knows from JSON: the control
 * follows the value's type, except for the selects the shell itself reads.
 */
import { COLOR_MODES, DENSITIES } from "./appearance";

export type Field =
  | { kind: "toggle" }
  | { kind: "number" }
  | { kind: "text" }
  | { kind: "select"; options: readonly string[] }
  | { kind: "json" };

const KNOWN_SELECTS: Record<string, readonly string[]> = {
  pmColorMode: COLOR_MODES,
  pmBoardDensity: DENSITIES,
};

export function fieldFor(key: string, value: unknown): Field {
  const options = KNOWN_SELECTS[key];
  if (options) return { kind: "select", options };
  if (typeof value === "boolean") return { kind: "toggle" };
  if (typeof value === "number") return { kind: "number" };
  if (typeof value === "string") return { kind: "text" };
  return { kind: "json" };
}

/** Parses an edited text back into the value to send; throws with a reason a person can act on. */
export function parseField(field: Field, text: string): unknown {
  switch (field.kind) {
    case "number": {
      const figure = Number(text);
      if (text.trim() === "" || !Number.isFinite(figure)) throw new Error("Enter a number.");
      return figure;
    }
    case "json":
      try {
        return JSON.parse(text);
      } catch {
        throw new Error("This is not valid JSON.");
      }
    default:
      return text;
  }
}

export function textOf(field: Field, value: unknown): string {
  if (field.kind === "json") return JSON.stringify(value, null, 1);
  return value === null || value === undefined ? "" : String(value);
}

/** "pmBoardDensity" → "Pm board density": readable without a label table. */
export function humanize(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

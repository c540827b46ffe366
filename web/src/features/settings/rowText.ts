/**
 * The words of one settings row: its label, the plain summary, a "takes effect" note only where a
 * change is felt later, a badge for a guarded key, and the raw key for the row's tooltip (scripts
 * and the docs name keys; a person reading the page need not see them on every row).
 */
import type { SettingDefinition } from "../../shared/api/settings.generated";
import { effectNote } from "./effectNote";

/** A guarded key's badge, in words a person reads without knowing the term. */
export const GUARDED_BADGE = "Agents can't change this";

/** The badge's tooltip: what "guarded" means. */
export const GUARDED_TOOLTIP =
  "Guarded setting: it governs what agents may do, so an agent's own key cannot change it. Only you can.";

export interface RowText {
  label: string;
  /** What the key does; none for a key this build does not describe. */
  summary?: string;
  /** When a change is felt, where that is not at once. */
  effect?: string;
  guarded: boolean;
  /** The tooltip of the label, which names the raw key. */
  keyTitle: string;
}

export function rowText(key: string, definition: SettingDefinition | undefined): RowText {
  const keyTitle = `Setting key: ${key}`;
  if (!definition) return { label: key, guarded: false, keyTitle };
  return {
    label: definition.label,
    summary: definition.summary,
    effect: effectNote(definition),
    guarded: definition.guarded,
    keyTitle,
  };
}

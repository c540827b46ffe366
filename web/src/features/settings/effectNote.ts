/**
 * What the settings page says about when a change to a key acts, and why a key has no effect.
 * A change acts at once unless the catalog says otherwise, so only the other cases get a note:
 * "Takes effect immediately" on every row would be noise that hides the rows where it matters.
 */
import type { SettingDefinition } from "../../shared/api/settings.generated";

/** The note for a key whose change is felt later; nothing for an immediate one or one with no effect. */
export function effectNote(definition: Pick<SettingDefinition, "inEffect" | "takesEffect">): string | undefined {
  if (!definition.inEffect) return undefined;
  switch (definition.takesEffect) {
    case "next start":
      return "Takes effect after Switchboard restarts.";
    case "next session":
      return "Takes effect for sessions started after the change.";
    default:
      return undefined;
  }
}

/** Why this version does nothing with the key, or nothing when it acts on it. */
export function noEffectReason(definition: Pick<SettingDefinition, "inEffect" | "noEffect">): string | undefined {
  if (definition.inEffect) return undefined;
  return definition.noEffect ?? "Switchboard keeps the value, but nothing in this version uses it.";
}

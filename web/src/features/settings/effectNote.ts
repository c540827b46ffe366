/**
 * What the settings page says about when a change to a key acts. The catalog knows which keys
 * this version only stores: saying "immediately" for those would promise an effect nothing has.
 */
import type { SettingDefinition } from "../../shared/api/settings.generated";

export function effectNote(definition: Pick<SettingDefinition, "inEffect" | "takesEffect">): string {
  if (!definition.inEffect) return "Stored; no effect in this version yet.";
  if (definition.takesEffect === "next start") return "Takes effect at the next start.";
  return `Takes effect ${definition.takesEffect}.`;
}

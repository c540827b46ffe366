/**
 * Proves what a settings row shows in words: the label and plain summary, no raw key outside the
 * tooltip, "takes effect" only where the change waits, and a guarded key's badge explained.
 */
import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import { GUARDED_BADGE, GUARDED_TOOLTIP, rowText } from "./rowText";

const definition = (key: string) => SETTING_DEFINITIONS.find((d) => d.key === key);

describe("rowText", () => {
  it("shows the plain summary, not the spec's route, and keeps the key for the tooltip", () => {
    const text = rowText("agentAlertsEnabled", definition("agentAlertsEnabled"));
    expect(text.label).toBe("Agents may post inbox alerts");
    expect(text.summary).toBe("Agents may add alerts to your inbox that stay there until you clear them.");
    expect(text.effect).toBeUndefined();
    expect(text.guarded).toBe(true);
    expect(text.keyTitle).toBe("Setting key: agentAlertsEnabled");
  });

  it("never prints a catalog key or 'immediately' in what a row shows", () => {
    for (const d of SETTING_DEFINITIONS) {
      const { label, summary, effect } = rowText(d.key, d);
      for (const shown of [label, summary ?? "", effect ?? ""]) {
        expect(shown).not.toContain(d.key);
        expect(shown).not.toMatch(/takes effect immediately|immediate effect/i);
      }
    }
  });

  it("says when a change that waits is felt", () => {
    expect(rowText("cliServerEnabled", definition("cliServerEnabled")).effect).toBe(
      "Takes effect after Switchboard restarts.",
    );
    expect(rowText("cliServerEnabled", definition("cliServerEnabled")).summary).not.toMatch(/19519/);
  });

  it("names a key this build does not describe by the key itself, the only name it has", () => {
    expect(rowText("aKeyFromANewerServer", undefined)).toEqual({
      label: "aKeyFromANewerServer",
      guarded: false,
      keyTitle: "Setting key: aKeyFromANewerServer",
    });
  });

  it("explains the guarded badge in words", () => {
    expect(GUARDED_BADGE).not.toMatch(/guarded/i);
    expect(GUARDED_TOOLTIP).toMatch(/^Guarded setting: .*agent/);
  });
});

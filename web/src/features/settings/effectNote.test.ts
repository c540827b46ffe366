/**
 * Proves the settings page says "takes effect" only where a change is not felt at once, never
 * promises an effect for a key nothing reads, and gives every such key a reason.
 */
import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import { effectNote, noEffectReason } from "./effectNote";

describe("effectNote", () => {
  it("says nothing for a change felt at once", () => {
    expect(effectNote({ inEffect: true, takesEffect: "immediately" })).toBeUndefined();
  });

  it("says when a later change is felt", () => {
    expect(effectNote({ inEffect: true, takesEffect: "next start" })).toBe("Takes effect after Switchboard restarts.");
    expect(effectNote({ inEffect: true, takesEffect: "next session" })).toBe(
      "Takes effect for sessions started after the change.",
    );
  });

  it("promises nothing for a key this version only stores, whatever its catalog timing", () => {
    expect(effectNote({ inEffect: false, takesEffect: "next start" })).toBeUndefined();
    for (const definition of SETTING_DEFINITIONS.filter((d) => !d.inEffect)) {
      expect(effectNote(definition)).toBeUndefined();
    }
  });

  it("never says immediately for any catalog key, and speaks for the keys that restart or wait", () => {
    const notes = SETTING_DEFINITIONS.map(effectNote);
    expect(notes.filter((n) => n && /immediate/i.test(n))).toEqual([]);
    const cliServer = SETTING_DEFINITIONS.find((d) => d.key === "cliServerEnabled");
    expect(cliServer && effectNote(cliServer)).toBe("Takes effect after Switchboard restarts.");
  });
});

describe("noEffectReason", () => {
  it("gives every key this version does not act on a reason, and none to a key it acts on", () => {
    for (const definition of SETTING_DEFINITIONS) {
      const reason = noEffectReason(definition);
      if (definition.inEffect) expect(reason).toBeUndefined();
      else expect(reason).toMatch(/\w.*\.$/);
    }
  });

  it("says a desktop-only key needs a desktop app, and a Windows-only one needs Windows", () => {
    const reason = (key: string) => {
      const definition = SETTING_DEFINITIONS.find((d) => d.key === key);
      return definition && noEffectReason(definition);
    };
    expect(reason("traySystemNotificationsEnabled")).toMatch(/^Only for a desktop app: .*browser/);
    expect(reason("keepAppResidentInMemory")).toMatch(/^Only on Windows: .*Linux/);
    expect(reason("bugReportEmailEnabled")).toBeUndefined();
  });

  it("falls back to a plain reason when the catalog gives none", () => {
    expect(noEffectReason({ inEffect: false, noEffect: null })).toBe(
      "Switchboard keeps the value, but nothing in this version uses it.",
    );
  });
});

import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import { effectNote } from "./effectNote";

describe("effectNote", () => {
  it("says a key this version only stores has no effect, whatever its catalog timing", () => {
    expect(effectNote({ inEffect: false, takesEffect: "immediately" })).toBe("Stored; no effect in this version yet.");
    expect(effectNote({ inEffect: false, takesEffect: "next start" })).toBe("Stored; no effect in this version yet.");
  });

  it("says when a key this version acts on takes effect", () => {
    expect(effectNote({ inEffect: true, takesEffect: "immediately" })).toBe("Takes effect immediately.");
    expect(effectNote({ inEffect: true, takesEffect: "next start" })).toBe("Takes effect at the next start.");
  });

  it("never promises an effect for a catalog key nothing reads", () => {
    for (const definition of SETTING_DEFINITIONS.filter((d) => !d.inEffect)) {
      expect(effectNote(definition)).not.toMatch(/takes effect/i);
    }
  });
});

import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import { CONFIRMATIONS, confirmationFor, type ConfirmationRule } from "./confirmations";

describe("confirmationFor", () => {
  it("asks before the control server is turned off, not before it is turned on", () => {
    const asked = confirmationFor("cliServerEnabled", false);
    expect(asked?.title).toBe("Turn the control server off?");
    expect(asked?.message).toContain("control server");
    // The control server may listen elsewhere than the default port: the message names none.
    expect(asked?.message).not.toMatch(/19519|127\.0\.0\.1/);
    expect(confirmationFor("cliServerEnabled", true)).toBeUndefined();
  });

  it("lets every other change through at once", () => {
    expect(confirmationFor("pmColorMode", "dark")).toBeUndefined();
    expect(confirmationFor("aKeyFromANewerServer", false)).toBeUndefined();
  });

  it("matches the value exactly, not loosely", () => {
    const rules: ConfirmationRule[] = [{ key: "k", value: 0, title: "t", message: "m", confirmLabel: "c" }];
    expect(confirmationFor("k", 0, rules)?.title).toBe("t");
    expect(confirmationFor("k", false, rules)).toBeUndefined();
    expect(confirmationFor("k", "0", rules)).toBeUndefined();
  });

  it("names only keys of the catalog, with a value of the key's type", () => {
    for (const rule of CONFIRMATIONS) {
      const definition = SETTING_DEFINITIONS.find((d) => d.key === rule.key);
      expect(definition, rule.key).toBeDefined();
      expect(typeof rule.value).toBe(typeof definition?.default);
    }
  });
});

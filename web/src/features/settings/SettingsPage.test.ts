import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import { isListed } from "./SettingsPage";

const storedOnly = SETTING_DEFINITIONS.filter((d) => !d.inEffect);
const working = SETTING_DEFINITIONS.filter((d) => d.inEffect);

describe("isListed", () => {
  it("hides the settings with no effect yet unless asked, and keeps those that work", () => {
    expect(storedOnly.length).toBeGreaterThan(0);
    expect(working.length).toBeGreaterThan(0);
    for (const d of storedOnly) {
      expect(isListed(d.key, "", false)).toBe(false);
      expect(isListed(d.key, "", true)).toBe(true);
    }
    for (const d of working) expect(isListed(d.key, "", false)).toBe(true);
  });

  it("filters by key, label and description, and lists keys this build does not describe", () => {
    expect(isListed("pmColorMode", "pmcolor", false)).toBe(true);
    expect(isListed("pmColorMode", "board theme", false)).toBe(true);
    expect(isListed("pmColorMode", "appearance", false)).toBe(true);
    expect(isListed("pmColorMode", "no such words", false)).toBe(false);
    expect(isListed("cliServerEnabled", "control server", false)).toBe(true);
    expect(isListed("aKeyFromANewerServer", "", false)).toBe(true);
    expect(isListed("aKeyFromANewerServer", "newer", false)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "./api/settings.generated";
import { RUNNERS_SETTING } from "./runnersSetting";

describe("RUNNERS_SETTING", () => {
  const definition = SETTING_DEFINITIONS.find((d) => d.key === RUNNERS_SETTING.key);

  it("names the setting with the catalog's label", () => {
    expect(definition?.label).toBe(RUNNERS_SETTING.label);
  });

  it("opens the settings page at the section that lists it", () => {
    // The settings page's pane is the area's slug and the section's (features/settings/panes.ts).
    expect([definition?.area, definition?.section]).toEqual(["Sessions & Agents", "cloud"]);
    expect(RUNNERS_SETTING.path).toBe("/settings#sessions-agents-cloud");
  });
});

import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import { paneFor, paneOf, settingKeyOf, slug } from "./panes";

describe("settings panes", () => {
  it("name each section by its area and section", () => {
    expect(slug("Sessions & Agents")).toBe("sessions-agents");
    expect(paneOf("Sessions & Agents", "general")).toBe("sessions-agents");
    expect(paneOf("Sessions & Agents", "project-board module display and inbox")).toBe(
      "sessions-agents-project-board-module-display-and-inbox",
    );
  });

  it("only carry what a navigation request's pane accepts", () => {
    for (const d of SETTING_DEFINITIONS) expect(paneOf(d.area, d.section)).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("find the named section, else the first of the named area", () => {
    const sections = [
      { pane: "sessions-agents-cloud", area: "sessions-agents" },
      { pane: "sessions-agents-agent-control", area: "sessions-agents" },
    ];
    expect(paneFor("sessions-agents-agent-control", sections)).toBe("sessions-agents-agent-control");
    expect(paneFor("sessions-agents", sections)).toBe("sessions-agents-cloud");
    expect(paneFor("nowhere", sections)).toBeUndefined();
    expect(paneFor("", sections)).toBeUndefined();
  });
});

describe("a setting named in the address", () => {
  const known = new Set(SETTING_DEFINITIONS.map((d) => d.key));
  it("is a key the catalog knows, and nothing else", () => {
    expect(settingKeyOf("agentDrivenMaxConcurrent", known)).toBe("agentDrivenMaxConcurrent");
    expect(settingKeyOf("sessions-agents", known)).toBeNull();
    expect(settingKeyOf("", known)).toBeNull();
    expect(settingKeyOf("%E0%A4%A", known)).toBeNull();
  });
});

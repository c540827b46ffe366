import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import { isListed, navOf, sectionsOf } from "./sections";

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

describe("sectionsOf", () => {
  it("groups keys by area and section in catalog order, undescribed keys last", () => {
    const sections = sectionsOf(["heardAboutUs", "cliServerEnabled", "alarmsEnabled", "aKeyFromANewerServer"]);
    expect(sections.map(({ title, pane, area, areaTitle, name }) => ({ title, pane, area, areaTitle, name }))).toEqual([
      {
        title: "Getting Started",
        pane: "getting-started",
        area: "getting-started",
        areaTitle: "Getting Started",
        name: "",
      },
      {
        title: "Sessions & Agents: agent control",
        pane: "sessions-agents-agent-control",
        area: "sessions-agents",
        areaTitle: "Sessions & Agents",
        name: "Agent control",
      },
      {
        title: "Inbox & Notifications: alarms",
        pane: "inbox-notifications-alarms",
        area: "inbox-notifications",
        areaTitle: "Inbox & Notifications",
        name: "Alarms",
      },
      { title: "Other", pane: "other", area: "other", areaTitle: "Other", name: "" },
    ]);
  });
});

describe("navOf", () => {
  it("lists each area once, with only the sections that have listed keys", () => {
    const nav = navOf(sectionsOf(["heardAboutUs", "cliServerEnabled", "pmColorMode", "agentAlertsEnabled"]));
    expect(nav).toEqual([
      { title: "Getting Started", pane: "getting-started", sections: [] },
      {
        title: "Sessions & Agents",
        pane: "sessions-agents",
        sections: [
          { title: "Agent control", pane: "sessions-agents-agent-control" },
          {
            title: "Project-board module display and inbox",
            pane: "sessions-agents-project-board-module-display-and-inbox",
          },
        ],
      },
    ]);
  });

  it("covers the whole catalog: four areas, every section once", () => {
    const nav = navOf(sectionsOf(SETTING_DEFINITIONS.map((d) => d.key)));
    expect(nav.map((area) => area.title)).toEqual([
      "Getting Started",
      "Sessions & Agents",
      "Inbox & Notifications",
      "Projects & Tasks",
    ]);
    const panes = nav.flatMap((area) => [area.pane, ...area.sections.map((s) => s.pane)]);
    expect(new Set(panes).size).toBe(panes.length);
    const named = new Set(SETTING_DEFINITIONS.filter((d) => d.section !== "general").map((d) => d.section));
    expect(nav.flatMap((area) => area.sections)).toHaveLength(named.size);
  });

  it("has nothing when nothing is listed", () => {
    expect(navOf(sectionsOf([]))).toEqual([]);
  });
});

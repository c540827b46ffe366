import { describe, expect, it } from "vitest";
import { SETTING_DEFINITIONS } from "../../shared/api/settings.generated";
import {
  hasEffect,
  matchesFilter,
  navOf,
  NO_EFFECT_PANE,
  NO_EFFECT_TITLE,
  noEffectCount,
  noEffectGroups,
  sectionsOf,
  splitReason,
  settingsView,
} from "./sections";

const storedOnly = SETTING_DEFINITIONS.filter((d) => !d.inEffect);
const working = SETTING_DEFINITIONS.filter((d) => d.inEffect);
const allKeys = SETTING_DEFINITIONS.map((d) => d.key);

describe("matchesFilter and hasEffect", () => {
  it("tells the keys this version acts on from those it only stores; an unknown key counts as acting", () => {
    expect(storedOnly.length).toBeGreaterThan(0);
    expect(working.length).toBeGreaterThan(0);
    for (const d of storedOnly) expect(hasEffect(d.key)).toBe(false);
    for (const d of working) expect(hasEffect(d.key)).toBe(true);
    expect(hasEffect("aKeyFromANewerServer")).toBe(true);
    expect(noEffectCount(allKeys)).toBe(storedOnly.length);
  });

  it("filters by key, label, the plain summary and the spec's description", () => {
    expect(matchesFilter("pmColorMode", "pmcolor")).toBe(true);
    expect(matchesFilter("pmColorMode", "board theme")).toBe(true);
    expect(matchesFilter("pmColorMode", "appearance")).toBe(true);
    expect(matchesFilter("pmColorMode", "no such words")).toBe(false);
    expect(matchesFilter("cliServerEnabled", "control server")).toBe(true);
    expect(matchesFilter("agentAlertsEnabled", "until you clear them")).toBe(true);
    expect(matchesFilter("agentAlertsEnabled", "post /alert")).toBe(true);
    expect(matchesFilter("aKeyFromANewerServer", "")).toBe(true);
    expect(matchesFilter("aKeyFromANewerServer", "newer")).toBe(true);
  });
});

describe("noEffectGroups", () => {
  it("gathers every stored-only key once under its reason, the small groups first", () => {
    const groups = noEffectGroups(allKeys);
    expect(groups.flatMap((g) => g.keys).sort()).toEqual(storedOnly.map((d) => d.key).sort());
    expect(groups.map((g) => g.keys.length)).toEqual([...groups.map((g) => g.keys.length)].sort((a, b) => a - b));
    // Every key of the spec acts or says why it cannot here: none is left "not built yet".
    expect(groups.some((g) => g.reason.startsWith("Not built yet"))).toBe(false);
    const desktop = groups.find((g) => g.reason.startsWith("Only for a desktop app"));
    expect(desktop?.keys).toContain("traySystemNotificationsEnabled");
    expect(desktop?.keys).toContain("watchingRunningAgentNudgeEnabled");
    expect(desktop?.title).toBe("Only for a desktop app");
    expect(desktop?.detail).toMatch(/^Switchboard runs in your browser/);
    const windows = groups.find((g) => g.reason.startsWith("Only on Windows"));
    expect(windows?.keys).toEqual(["keepAppResidentInMemory", "sessionAdaptiveEcoreAffinity"]);
  });

  it("splits a reason into its head and the rest", () => {
    expect(splitReason("Only on Windows: the server runs on Linux.")).toEqual({
      title: "Only on Windows",
      detail: "The server runs on Linux.",
    });
    expect(splitReason("No reason given.")).toEqual({ title: "No reason given.", detail: "" });
  });

  it("leaves out keys that act and keys this build does not describe", () => {
    expect(noEffectGroups(["agentAlertsEnabled", "aKeyFromANewerServer"])).toEqual([]);
  });
});

describe("settingsView", () => {
  it("lists only the keys that act until asked, then adds the no-effect group and its link", () => {
    const plain = settingsView(allKeys, "", false);
    expect(plain.sections.flatMap((s) => s.keys)).toHaveLength(working.length);
    expect(plain.noEffect).toEqual([]);
    expect(plain.nav.some((a) => a.pane === NO_EFFECT_PANE)).toBe(false);

    const asked = settingsView(allKeys, "", true);
    expect(asked.sections).toEqual(plain.sections);
    expect(asked.noEffect.flatMap((g) => g.keys)).toHaveLength(storedOnly.length);
    expect(asked.nav.at(-1)).toEqual({ title: NO_EFFECT_TITLE, pane: NO_EFFECT_PANE, sections: [] });
    expect(asked.panes.at(-1)).toEqual({ pane: NO_EFFECT_PANE, area: NO_EFFECT_PANE });
  });

  it("applies the filter to both lists, and drops the group's link when the filter empties it", () => {
    const tray = settingsView(allKeys, "tray icon", true);
    expect(tray.sections).toEqual([]);
    expect(tray.noEffect.flatMap((g) => g.keys)).toEqual(["traySystemNotificationsEnabled"]);
    const server = settingsView(allKeys, "control server", true);
    expect(server.noEffect).toEqual([]);
    expect(server.nav.some((a) => a.pane === NO_EFFECT_PANE)).toBe(false);
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

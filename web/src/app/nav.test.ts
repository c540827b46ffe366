import { describe, expect, it } from "vitest";
import { NAV_GROUPS, sectionOf, shownGroups } from "./nav";

const shape = (groups: ReturnType<typeof shownGroups>) =>
  groups.map((g) => [g.heading, g.sections.map((s) => s.label)] as const);

describe("the sidebar's groups", () => {
  it("put the defaults under five headings, agents first and settings last", () => {
    expect(shape(shownGroups({}))).toEqual([
      ["Agents and work", ["Agents", "Inbox", "Work", "Running apps", "Runners"]],
      ["Mail and reading", ["Feeds"]],
      ["Planning", ["Boards", "Dashboards", "Calendar", "Team time", "Meeting rooms", "Tasks"]],
      ["Automation", ["Automations", "Scheduled messages", "Drips"]],
      ["System", ["Ask", "Settings"]],
    ]);
  });

  it("drop the board module, Team time and Meeting rooms with their switches, and bring them back", () => {
    const planning = (values: Record<string, unknown>) =>
      shape(shownGroups(values)).find(([heading]) => heading === "Planning")?.[1];
    const off = { projectBoardsEnabled: false, teamTimeEnabled: false, meetingRoomsEnabled: false };
    // The calendar showed only the boards' overlay, so it goes with them.
    expect(planning(off)).toEqual(["Tasks"]);
    expect(planning({ ...off, calendarEnabled: true })).toEqual(["Calendar", "Tasks"]);
    expect(planning({ projectBoardsEnabled: true, teamTimeEnabled: true, meetingRoomsEnabled: true })).toEqual([
      "Boards",
      "Dashboards",
      "Calendar",
      "Team time",
      "Meeting rooms",
      "Tasks",
    ]);
  });

  it("leave out what the settings hide, and add Bug Intake while it is on", () => {
    const groups = shownGroups({
      wheresMyWorkEnabled: false,
      tasksEnabled: false,
      bugIntakeEnabled: true,
      pmCalendarOverlayEnabled: false,
      scheduledMessagesEnabled: false,
      dripEnabled: false,
      runningAppsEnabled: false,
      askAppEnabled: false,
      rssEnabled: false,
      dailyDigestEnabled: true,
      teamTimeEnabled: false,
      meetingRoomsEnabled: false,
    });
    expect(shape(groups)).toEqual([
      ["Agents and work", ["Agents", "Inbox", "Runners"]],
      ["Mail and reading", ["Briefing"]],
      ["Planning", ["Boards", "Dashboards", "Bug Intake"]],
      ["Automation", ["Automations"]],
      ["System", ["Settings"]],
    ]);
  });

  it("drop a heading whose every section is hidden", () => {
    const groups = [
      { heading: "Shown", sections: [{ to: "/a", label: "A", routes: ["a"] }] },
      { heading: "Hidden", sections: [{ to: "/b", label: "B", routes: ["b"], shown: () => false }] },
    ];
    expect(shownGroups(undefined, groups).map((g) => g.heading)).toEqual(["Shown"]);
  });

  it("list each address and each route once", () => {
    const sections = NAV_GROUPS.flatMap((g) => g.sections);
    const addresses = sections.map((s) => s.to);
    const routes = sections.flatMap((s) => s.routes);
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(new Set(routes).size).toBe(routes.length);
  });
});

describe("a route's section", () => {
  it("is the one that lists it, hidden or not", () => {
    expect(sectionOf("session")?.label).toBe("Agents");
    expect(sectionOf("caught")?.label).toBe("Tasks");
    expect(sectionOf("bugs")?.label).toBe("Bug Intake");
    expect(sectionOf("drip")?.label).toBe("Drips");
    expect(sectionOf("notFound")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { NAV_GROUPS } from "./nav";
import { actionCommands, pageCommands, rankCommands, type ActionRuns, type ActionState, type Command } from "./palette";

const command = (id: string, label: string, hint?: string, keywords?: string): Command => ({
  id,
  kind: "session",
  label,
  hint,
  keywords,
  run: () => undefined,
});

const commands = [
  command("inbox", "Inbox"),
  command("new", "New session"),
  command("parser", "Fix the parser", "api-server"),
  command("sess", "Sessions overview"),
  command("bench", "Write the benchmark", "parser-tools"),
  command("agents", "Agents", undefined, "sessions agent board"),
];

const ids = (found: Command[]) => found.map((c) => c.id);

describe("the palette's ranking", () => {
  it("lists everything, in order, before anything is typed", () => {
    expect(ids(rankCommands(commands, "  "))).toEqual(["inbox", "new", "parser", "sess", "bench", "agents"]);
  });

  it("puts a label starting with the text first, then a word of the label, then of the hint or keywords", () => {
    expect(ids(rankCommands(commands, "sess"))).toEqual(["sess", "new", "agents"]);
    expect(ids(rankCommands(commands, "pars"))).toEqual(["parser", "bench"]);
  });

  it("needs every word, in the label, the hint or the keywords, in any order and case", () => {
    expect(ids(rankCommands(commands, "API fix"))).toEqual(["parser"]);
    expect(ids(rankCommands(commands, "fix nothing"))).toEqual([]);
    expect(ids(rankCommands(commands, "Agent BOARD"))).toEqual(["agents"]);
  });

  it("puts the text as whole words before the start of a longer word", () => {
    const found = [command("themed", "Themed"), command("theme", "Switch to dark theme"), command("new", "New recipe")];
    expect(ids(rankCommands(found, "theme"))).toEqual(["theme", "themed"]);
    expect(ids(rankCommands(found, "them"))).toEqual(["themed", "theme"]);
    expect(ids(rankCommands(found, "new recipe"))).toEqual(["new"]);
  });

  it("stops at the limit", () => {
    expect(rankCommands(commands, "", 2)).toHaveLength(2);
  });
});

describe("the pages' commands", () => {
  const pages = [
    { to: "/runners", label: "Runners" },
    { to: "/work", label: "Work", paletteLabel: "Where's my work" },
  ];

  it("names a page as the sidebar does, or by its palette name with the sidebar's word as the hint", () => {
    const found = pageCommands(pages, () => undefined);
    expect(found.map((c) => [c.id, c.kind, c.label, c.hint])).toEqual([
      ["page:/runners", "page", "Runners", undefined],
      ["page:/work", "page", "Where's my work", "Work"],
    ]);
  });

  it("finds a page by either name", () => {
    const found = pageCommands(pages, () => undefined);
    expect(ids(rankCommands(found, "where's"))).toEqual(["page:/work"]);
    expect(ids(rankCommands(found, "work"))).toEqual(["page:/work"]);
  });

  it("opens the page's address", () => {
    const opened: string[] = [];
    pageCommands(pages, (to) => opened.push(to)).forEach((c) => c.run());
    expect(opened).toEqual(["/runners", "/work"]);
  });
});

/** The palette as the shell fills it: the actions, then every page of the sidebar. */
function palette(state: Partial<ActionState> = {}, calls: string[] = []): Command[] {
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      calls.push([name, ...args].join(" "));
  const runs: ActionRuns = {
    newSession: record("newSession"),
    nextNeedingYou: record("next"),
    readAll: record("readAll"),
    openSettings: record("settings"),
    setFocus: record("focus"),
    pomodoro: record("pomodoro"),
    switchTheme: record("theme"),
    newRecipe: record("newRecipe"),
  };
  const actions = actionCommands({ focus: "off", pomodoroRunning: false, nextTheme: "dark", ...state }, runs);
  const pages = pageCommands(
    NAV_GROUPS.flatMap((g) => g.sections),
    (to) => calls.push(`open ${to}`),
  );
  return [...actions, ...pages];
}

/** What Enter does after typing `typed`: runs the first match. */
function enter(typed: string, state: Partial<ActionState> = {}): string[] {
  const calls: string[] = [];
  const first = rankCommands(palette(state, calls), typed)[0];
  first?.run();
  return calls;
}

describe("the everyday actions", () => {
  it("start focus on 'focus' while it is off, and stop it while it is on", () => {
    expect(enter("focus")).toEqual(["focus true"]);
    expect(enter("focus", { focus: "on" })).toEqual(["focus false"]);
    expect(ids(rankCommands(palette({ focus: "on" }), "focus"))).not.toContain("focus-on");
  });

  it("offer no focus action while focus mode is turned off, but keep the pomodoro", () => {
    expect(enter("focus", { focus: "hidden" })).toEqual(["pomodoro start"]);
  });

  it("start a pomodoro, and while one runs, skip or stop it", () => {
    expect(enter("pomodoro")).toEqual(["pomodoro start"]);
    expect(enter("stop pomodoro", { pomodoroRunning: true })).toEqual(["pomodoro stop"]);
    expect(enter("skip", { pomodoroRunning: true })).toEqual(["pomodoro skip"]);
    expect(ids(rankCommands(palette({ pomodoroRunning: true }), "pomodoro"))).not.toContain("pomodoro-start");
  });

  it("switch the theme, named by the theme it switches to, once the settings are read", () => {
    const theme = rankCommands(palette({ nextTheme: "light" }), "theme")[0];
    expect(theme?.label).toBe("Switch to light theme");
    expect(enter("theme")).toEqual(["theme"]);
    expect(enter("dark")).toEqual(["theme"]);
    expect(ids(rankCommands(palette({ nextTheme: null }), "theme"))).toEqual([]);
  });

  it("open a new recipe and a new session", () => {
    expect(enter("new recipe")).toEqual(["newRecipe"]);
    expect(enter("new sess")).toEqual(["newSession"]);
  });
});

describe("every page of the sidebar", () => {
  it("is found first by its title", () => {
    for (const section of NAV_GROUPS.flatMap((g) => g.sections)) {
      expect(enter(section.label), section.label).toEqual([`open ${section.to}`]);
    }
  });

  it("is found first by the words people use for it", () => {
    expect(enter("agents")).toEqual(["open /"]);
    expect(enter("sessions")).toEqual(["open /"]);
    expect(enter("agent board")).toEqual(["open /"]);
    expect(enter("notifications")).toEqual(["open /inbox"]);
    expect(enter("where's my work")).toEqual(["open /work"]);
    expect(enter("schedules")).toEqual(["open /automations"]);
    expect(enter("todo")).toEqual(["open /tasks"]);
    expect(enter("preferences")).toEqual(["open /settings"]);
    expect(enter("dev servers")).toEqual(["open /apps"]);
    expect(enter("tutor")).toEqual(["open /ask"]);
  });
});

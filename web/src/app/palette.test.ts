import { describe, expect, it } from "vitest";
import { pageCommands, rankCommands, type Command } from "./palette";

const command = (id: string, label: string, hint?: string): Command => ({
  id,
  kind: "session",
  label,
  hint,
  run: () => undefined,
});

const commands = [
  command("inbox", "Inbox"),
  command("new", "New session"),
  command("parser", "Fix the parser", "api-server"),
  command("sess", "Sessions overview"),
  command("bench", "Write the benchmark", "parser-tools"),
];

const ids = (found: Command[]) => found.map((c) => c.id);

describe("the palette's ranking", () => {
  it("lists everything, in order, before anything is typed", () => {
    expect(ids(rankCommands(commands, "  "))).toEqual(["inbox", "new", "parser", "sess", "bench"]);
  });

  it("puts a label that starts with the text first, then a word that starts with it, then the rest", () => {
    expect(ids(rankCommands(commands, "sess"))).toEqual(["sess", "new"]);
    expect(ids(rankCommands(commands, "pars"))).toEqual(["parser", "bench"]);
  });

  it("needs every word, in the label or the hint, in any order and case", () => {
    expect(ids(rankCommands(commands, "API fix"))).toEqual(["parser"]);
    expect(ids(rankCommands(commands, "fix nothing"))).toEqual([]);
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

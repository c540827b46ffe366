import { describe, expect, it } from "vitest";
import { matchSkills, moveActive, pickSkill, skillList, slashQuery, type Skill } from "./skills";

const skill = (name: string, description = "", overrides: Partial<Skill> = {}): Skill => ({
  name,
  description,
  argumentHint: "",
  scope: "project",
  insert: `/${name}`,
  ...overrides,
});

const SKILLS = [
  skill("review", "Review the open pull request"),
  skill("release-notes", "Write the release notes from the changelog"),
  skill("pdf:extract", "Pull the text out of a PDF", { scope: "plugin" }),
  skill("compact", "Clear the conversation history but keep a summary", { scope: "builtin" }),
  skill("re", "Rerun the last check"),
];

const names = (skills: readonly Skill[]) => skills.map((s) => s.name);

describe("the / query", () => {
  it("is what follows a leading / while the caret is in that word", () => {
    expect(slashQuery("/", 1)).toBe("");
    expect(slashQuery("/rev", 4)).toBe("rev");
    expect(slashQuery("/rev", 2)).toBe("rev");
    expect(slashQuery("/review the tests", 7)).toBe("review");
  });

  it("is nothing once the caret leaves the first word, or without a leading /", () => {
    expect(slashQuery("/review the tests", 8)).toBeNull();
    expect(slashQuery("please /review", 14)).toBeNull();
    expect(slashQuery("", 0)).toBeNull();
    expect(slashQuery("/rev", 0)).toBeNull();
  });

  it("is nothing for a path, so typing /path/to/file is never in the menu's way", () => {
    expect(slashQuery("/usr/", 5)).toBeNull();
    expect(slashQuery("/home/me/notes.md", 17)).toBeNull();
  });
});

describe("matching skills", () => {
  it("lists every skill for a bare /, in the server's order", () => {
    expect(names(matchSkills(SKILLS, ""))).toEqual(names(SKILLS));
  });

  it("keeps the server's order within one rank", () => {
    expect(names(matchSkills([skill("review-long"), skill("rev")], "rev"))).toEqual(["rev", "review-long"]);
    expect(names(matchSkills([skill("review-long"), skill("review")], "rev"))).toEqual(["review-long", "review"]);
  });

  it("puts the whole name first, then names starting with it, then a part, then the name, then the description", () => {
    const all = [
      skill("fix-re"),
      skill("tree"),
      skill("review"),
      skill("re"),
      skill("other", "Reads the README"),
      skill("nothing"),
    ];
    expect(names(matchSkills(all, "re"))).toEqual(["re", "review", "fix-re", "tree", "other"]);
  });

  it("ignores case and finds a plugin skill by its part after the colon", () => {
    expect(names(matchSkills(SKILLS, "EXT"))).toEqual(["pdf:extract"]);
  });

  it("matches nothing for a word no skill has, so Enter sends the text", () => {
    expect(matchSkills(SKILLS, "zzz")).toEqual([]);
  });

  it("draws at most the limit", () => {
    const many = Array.from({ length: 80 }, (_, i) => skill(`skill-${String(i).padStart(2, "0")}`));
    expect(matchSkills(many, "skill", 50)).toHaveLength(50);
  });
});

describe("picking a skill", () => {
  it("replaces the typed word with the skill's insert and a space, keeping the rest", () => {
    expect(pickSkill("/rev", skill("review"))).toEqual({ text: "/review ", caret: 8 });
    expect(pickSkill("/rev  the login page", skill("review"))).toEqual({ text: "/review the login page", caret: 8 });
  });

  it("inserts Codex's $name form as the server gives it", () => {
    expect(pickSkill("/dep", skill("deploy", "", { insert: "$deploy" }))).toEqual({ text: "$deploy ", caret: 8 });
  });
});

describe("moving through the options", () => {
  it("wraps at both ends", () => {
    expect(moveActive(0, -1, 3)).toBe(2);
    expect(moveActive(2, 1, 3)).toBe(0);
    expect(moveActive(1, 1, 3)).toBe(2);
    expect(moveActive(0, 1, 0)).toBe(0);
  });
});

describe("the server's list", () => {
  it("keeps a skill whose file is broken, with its error", () => {
    const broken = skill("broken", "", { error: "front matter: expected a mapping" });
    expect(skillList([broken])).toEqual({ skills: [broken], reason: null });
  });

  it("reads a nameless entry as the engine's reason for listing nothing", () => {
    const reason = skill("", "", { error: "Codex 0.40 cannot list skills." });
    expect(skillList([reason])).toEqual({ skills: [], reason: "Codex 0.40 cannot list skills." });
  });

  it("says why an empty list is empty", () => {
    expect(skillList([]).reason).toMatch(/no skills/);
  });
});

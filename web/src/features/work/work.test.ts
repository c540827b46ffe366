import { describe, expect, it } from "vitest";
import type { WorkEntry } from "../../shared/api/types.generated";
import {
  aheadBehindText,
  comparedWith,
  countByState,
  discardConfirmed,
  filterWork,
  groupWork,
  landingText,
  matchingWork,
  newestFirst,
  NO_FILTER,
  pullRequestHint,
  pullRequestLabel,
  readyToMerge,
  reasonText,
  repositoryOptions,
  runnerText,
  shortRepository,
  sinceText,
  STATE_LABEL,
  STATE_ORDER,
  uncommittedText,
  workSummary,
  workTitle,
} from "./work";

const NOW = Date.parse("2026-03-10T12:00:00Z");

const entry = (id: string, overrides: Partial<WorkEntry> = {}): WorkEntry => ({
  id,
  sessionId: `s-${id}`,
  sessions: [`s-${id}`],
  title: `Work ${id}`,
  repository: "/home/ana/src/switchboard",
  branch: `switchboard/${id}`,
  state: "stranded",
  reason: null,
  checkout: `/data/worktrees/s-${id}`,
  defaultBranch: "main",
  ahead: 0,
  behind: 0,
  commits: 0,
  unpushed: 0,
  landedBy: null,
  lastCommit: { sha: "0123456789abcdef", subject: "Fix the parser", at: "2026-03-10T09:00:00Z" },
  uncommitted: null,
  upstream: null,
  since: "2026-03-10T10:00:00Z",
  actions: ["open"],
  reviews: [],
  pullRequest: null,
  codeHost: null,
  pullRequestHost: null,
  runner: null,
  lastRead: null,
  ...overrides,
});

const ids = (entries: readonly WorkEntry[]) => entries.map((e) => e.id);

describe("the order of work", () => {
  it("lists work a session is on first, then ended work by when it ended, newest first", () => {
    const older = entry("older", { since: "2026-03-09T10:00:00Z" });
    const newer = entry("newer", { since: "2026-03-10T11:00:00Z" });
    const running = entry("running", { since: null, lastCommit: null });
    expect(ids([older, newer, running].sort(newestFirst))).toEqual(["running", "newer", "older"]);
  });

  it("orders running work, and work that ended together, by its last commit, without one last", () => {
    const at = (iso: string) => ({ sha: "abc", subject: "x", at: iso });
    const quiet = entry("quiet", { since: null, lastCommit: null });
    const early = entry("early", { since: null, lastCommit: at("2026-03-10T08:00:00Z") });
    const late = entry("late", { since: null, lastCommit: at("2026-03-10T11:00:00Z") });
    expect(ids([quiet, early, late].sort(newestFirst))).toEqual(["late", "early", "quiet"]);

    const since = "2026-03-10T10:00:00Z";
    const a = entry("a", { since, lastCommit: at("2026-03-10T07:00:00Z") });
    const b = entry("b", { since, lastCommit: at("2026-03-10T09:30:00Z") });
    expect(ids([a, b].sort(newestFirst))).toEqual(["b", "a"]);
  });

  it("keeps the server's order for a tie, and puts an unreadable time last", () => {
    const first = entry("first");
    const second = entry("second");
    const garbled = entry("garbled", { since: "yesterday" });
    expect(ids([garbled, first, second].sort(newestFirst))).toEqual(["first", "second", "garbled"]);
  });
});

describe("groupWork", () => {
  it("groups by state in the order of what needs the user, each group newest first, empty groups left out", () => {
    const groups = groupWork([
      entry("landed", { state: "landed" }),
      entry("old-stranded", { since: "2026-03-01T00:00:00Z" }),
      entry("mystery", { state: "unknown", reason: "the repository is gone", lastCommit: null }),
      entry("running", { state: "in_progress", since: null }),
      entry("new-stranded", { since: "2026-03-10T11:59:00Z" }),
      entry("refused", { state: "turned_down" }),
    ]);
    expect(groups.map((g) => [g.state, ids(g.entries)])).toEqual([
      ["stranded", ["new-stranded", "old-stranded"]],
      ["turned_down", ["refused"]],
      ["in_progress", ["running"]],
      ["landed", ["landed"]],
      ["unknown", ["mystery"]],
    ]);
  });

  it("has no group for no work", () => {
    expect(groupWork([])).toEqual([]);
  });

  it("names every state, in the order stranded, turned down, waiting on review, in progress, landed, unknown", () => {
    expect(STATE_ORDER).toEqual(["stranded", "turned_down", "waiting_on_review", "in_progress", "landed", "unknown"]);
    expect(STATE_ORDER.map((s) => STATE_LABEL[s])).toEqual([
      "Stranded",
      "Turned down",
      "Waiting on review",
      "In progress",
      "Landed",
      "Unknown",
    ]);
  });
});

describe("countByState", () => {
  it("counts every state, 0 for the ones with no work", () => {
    expect(
      countByState([entry("a"), entry("b"), entry("c", { state: "landed" }), entry("d", { state: "unknown" })]),
    ).toEqual({ stranded: 2, turned_down: 0, waiting_on_review: 0, in_progress: 0, landed: 1, unknown: 1 });
    expect(Object.values(countByState([]))).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe("the filters", () => {
  const parser = entry("parser", { branch: "switchboard/ab12cd34" });
  const notes = entry("notes", {
    repository: "/home/ana/src/docs",
    branch: "release-notes",
    state: "landed",
    lastCommit: { sha: "fff", subject: "Tidy the Release notes", at: "2026-03-10T09:00:00Z" },
  });
  const bare = entry("bare", { repository: "/srv/tools", branch: "main", state: "unknown", lastCommit: null });
  const all = [parser, notes, bare];

  it("keeps everything with no filter", () => {
    expect(ids(filterWork(all, NO_FILTER))).toEqual(["parser", "notes", "bare"]);
  });

  it("keeps one repository, by its full path", () => {
    expect(ids(filterWork(all, { ...NO_FILTER, repository: "/home/ana/src/docs" }))).toEqual(["notes"]);
  });

  it("keeps one state", () => {
    expect(ids(filterWork(all, { ...NO_FILTER, state: "unknown" }))).toEqual(["bare"]);
  });

  it("finds every typed word in the title, the branch, the repository or the last commit's subject, in any case", () => {
    expect(ids(filterWork(all, { ...NO_FILTER, text: "AB12" }))).toEqual(["parser"]);
    expect(ids(filterWork(all, { ...NO_FILTER, text: "tools" }))).toEqual(["bare"]);
    expect(ids(filterWork(all, { ...NO_FILTER, text: "  release   TIDY " }))).toEqual(["notes"]);
    expect(ids(filterWork(all, { ...NO_FILTER, text: "parser" }))).toEqual(["parser"]);
    // Work without a last commit is searched by its branch and repository alone.
    expect(ids(filterWork(all, { ...NO_FILTER, text: "main tools" }))).toEqual(["bare"]);
    expect(ids(filterWork(all, { ...NO_FILTER, text: "parser nowhere" }))).toEqual([]);
    expect(ids(filterWork(all, { ...NO_FILTER, text: "work NOTES" }))).toEqual(["notes"]);
    expect(ids(filterWork([entry("untitled", { title: null })], { ...NO_FILTER, text: "untitled" }))).toEqual([
      "untitled",
    ]);
  });

  it("combines the filters", () => {
    const filter = { state: "landed" as const, repository: "/home/ana/src/docs", text: "notes" };
    expect(ids(filterWork(all, filter))).toEqual(["notes"]);
    expect(ids(filterWork(all, { ...filter, state: "stranded" }))).toEqual([]);
  });

  it("counts what matches the repository and the text, whatever state is chosen", () => {
    const matching = matchingWork(all, { repository: null, text: "switchboard" });
    expect(ids(matching)).toEqual(["parser"]);
    expect(countByState(matching).stranded).toBe(1);
  });
});

describe("repositories", () => {
  it("shortens a path to its last two segments", () => {
    expect(shortRepository("/home/ana/src/switchboard")).toBe("src/switchboard");
    expect(shortRepository("/home/ana/src/switchboard/")).toBe("src/switchboard");
    expect(shortRepository("C:\\Users\\ana\\code\\app")).toBe("code/app");
  });

  it("leaves a path of two segments or fewer as it is", () => {
    expect(shortRepository("/srv/tools")).toBe("/srv/tools");
    expect(shortRepository("/repo")).toBe("/repo");
    expect(shortRepository("")).toBe("");
  });

  it("offers each repository once, by short name, with the full path where two short names are the same", () => {
    const options = repositoryOptions([
      entry("a", { repository: "/home/ana/src/switchboard" }),
      entry("b", { repository: "/home/ana/src/switchboard" }),
      entry("c", { repository: "/home/ana/work/api" }),
      entry("d", { repository: "/home/bo/work/api" }),
    ]);
    expect(options).toEqual([
      { value: "/home/ana/work/api", label: "/home/ana/work/api" },
      { value: "/home/bo/work/api", label: "/home/bo/work/api" },
      { value: "/home/ana/src/switchboard", label: "src/switchboard" },
    ]);
    expect(repositoryOptions([])).toEqual([]);
  });
});

describe("sinceText", () => {
  it("says how long ago the last session ended, from the time given", () => {
    expect(sinceText("2026-03-10T11:59:58Z", NOW)).toBe("ended just now");
    expect(sinceText("2026-03-10T11:55:00Z", NOW)).toBe("ended 5 min ago");
    expect(sinceText("2026-03-10T09:00:00Z", NOW)).toBe("ended 3 h ago");
    expect(sinceText("2026-03-09T12:00:00Z", NOW)).toMatch(/^ended yesterday \d/);
  });

  it("says a session is running when there is no end yet", () => {
    expect(sinceText(null, NOW)).toBe("session running");
  });

  it("does not take a time from a later clock, or an unreadable one, for a real age", () => {
    expect(sinceText("2026-03-10T12:00:30Z", NOW)).toBe("ended just now");
    expect(sinceText("last week", NOW)).toBe("ended at an unreadable time");
  });
});

describe("the summary of changes", () => {
  it("writes ahead/behind, what is uncommitted and what no remote has, in one line", () => {
    const stranded = entry("s", { ahead: 3, behind: 1, unpushed: 1, uncommitted: { files: 2, lines: 40 } });
    expect(workSummary(stranded)).toBe(
      "3 commits ahead, 1 behind · 2 files, 40 lines uncommitted · 1 commit on no remote",
    );
  });

  it("uses the singular and the plural", () => {
    expect(workSummary(entry("s", { ahead: 1, uncommitted: { files: 1, lines: 1 }, unpushed: 4 }))).toBe(
      "1 commit ahead · 1 file, 1 line uncommitted · 4 commits on no remote",
    );
  });

  it("says up to date for nothing ahead or behind, and leaves out what is not there", () => {
    expect(workSummary(entry("s"))).toBe("up to date");
    expect(workSummary(entry("s", { ahead: 2 }))).toBe("2 commits ahead");
    expect(workSummary(entry("s", { behind: 5 }))).toBe("5 commits behind");
    expect(workSummary(entry("s", { behind: 1 }))).toBe("1 commit behind");
    expect(workSummary(entry("s", { uncommitted: { files: 0, lines: 0 } }))).toBe("up to date");
  });

  it("has no ahead/behind without a default branch to count against (unknown work), and says nothing for nothing", () => {
    const unknown = entry("u", { state: "unknown", defaultBranch: null, ahead: 0, behind: 0, uncommitted: null });
    expect(workSummary(unknown)).toBeNull();
    expect(aheadBehindText(unknown)).toBeNull();
    expect(comparedWith(unknown)).toBeUndefined();
  });

  it("has no ahead/behind for landed work, whose squashed commits still count as ahead", () => {
    const landed = entry("l", { state: "landed", ahead: 2, landedBy: "squash" });
    expect(aheadBehindText(landed)).toBeNull();
    expect(workSummary(landed)).toBeNull();
  });

  it("names the branch the counts are against in a hint", () => {
    expect(aheadBehindText({ ahead: 2, behind: 1, defaultBranch: "origin/main", state: "stranded" })).toBe(
      "2 commits ahead, 1 behind",
    );
    expect(comparedWith({ defaultBranch: "origin/main" })).toBe("Compared with origin/main");
  });

  it("counts files without lines (a binary or a mode change)", () => {
    expect(uncommittedText({ files: 3, lines: 0 })).toBe("3 files uncommitted");
    expect(uncommittedText(null)).toBeNull();
  });

  it("says each fact once: a stranded piece's reason is what the summary counts", () => {
    const unpushed = entry("s", { ahead: 1, unpushed: 1, reason: "1 commit on no remote" });
    expect(reasonText(unpushed)).toBeNull();
    expect(workSummary(unpushed)).toBe("1 commit ahead · 1 commit on no remote");
    const dirty = entry("d", { reason: "uncommitted changes", uncommitted: { files: 2, lines: 3 } });
    expect(reasonText(dirty)).toBeNull();
    expect(workSummary(dirty)).toBe("up to date · 2 files, 3 lines uncommitted");
    expect(reasonText(entry("t", { state: "turned_down", reason: "pull request #7 was closed unmerged" }))).toBe(
      "pull request #7 was closed unmerged",
    );
    expect(reasonText(entry("u", { state: "unknown", reason: "the repository is gone" }))).toBe(
      "the repository is gone",
    );
  });
});

describe("workTitle", () => {
  it("names the work by its session's title, and by its branch only when there is none", () => {
    expect(workTitle({ title: "Triage issues — repo=web, 27 Nov 10:00", branch: "switchboard/5f49b0ab" })).toBe(
      "Triage issues — repo=web, 27 Nov 10:00",
    );
    expect(workTitle({ title: null, branch: "switchboard/5f49b0ab" })).toBe("switchboard/5f49b0ab");
    expect(workTitle({ title: "  ", branch: "switchboard/5f49b0ab" })).toBe("switchboard/5f49b0ab");
  });
});

describe("landingText", () => {
  it("says how landed work reached the default branch", () => {
    expect(landingText({ landedBy: "squash", defaultBranch: "main" })).toBe("squashed into main");
    expect(landingText({ landedBy: "merge", defaultBranch: "master" })).toBe("merged into master");
    expect(landingText({ landedBy: "rebase", defaultBranch: null })).toBe("rebased");
  });

  it("says nothing for work that has not landed, or landed with nothing to land", () => {
    expect(landingText({ landedBy: null, defaultBranch: "main" })).toBeNull();
  });
});

describe("the actions", () => {
  it("confirms a discard only with the branch typed exactly", () => {
    expect(discardConfirmed("switchboard/ab12cd34", "switchboard/ab12cd34")).toBe(true);
    expect(discardConfirmed("switchboard/AB12CD34", "switchboard/ab12cd34")).toBe(false);
    expect(discardConfirmed(" switchboard/ab12cd34", "switchboard/ab12cd34")).toBe(false);
    expect(discardConfirmed("", "switchboard/ab12cd34")).toBe(false);
  });
});

describe("readyToMerge", () => {
  it("is the chosen repository's work waiting on review, and nothing without a repository", () => {
    const other = "/home/ana/src/other";
    const all = [
      entry("a", { state: "waiting_on_review" }),
      entry("b", { state: "stranded" }),
      entry("c", { state: "waiting_on_review", repository: other }),
      entry("d", { state: "landed" }),
      entry("e", { state: "waiting_on_review", runner: "devbox" }),
    ];
    expect(readyToMerge(all, "/home/ana/src/switchboard").map((e) => e.id)).toEqual(["a"]);
    expect(readyToMerge(all, other).map((e) => e.id)).toEqual(["c"]);
    expect(readyToMerge(all, null)).toEqual([]);
  });
});

describe("runnerText", () => {
  it("says which runner the work is on, and how old the card is while the runner is away", () => {
    expect(runnerText({ runner: null, lastRead: null }, NOW)).toBeNull();
    expect(runnerText({ runner: "devbox", lastRead: null }, NOW)).toBe("on devbox");
    expect(runnerText({ runner: "devbox", lastRead: "2026-03-10T11:55:00Z" }, NOW)).toBe(
      "on devbox, away: as it was 5 min ago",
    );
  });
});

describe("pullRequestHint", () => {
  it("says where the pull request is opened, and nothing where no host takes one", () => {
    expect(pullRequestHint({ pullRequestHost: "github.com" })).toBe("Open a pull request on github.com");
    expect(pullRequestHint({ pullRequestHost: null })).toBeUndefined();
  });
});

describe("pullRequestLabel", () => {
  it("names the pull request by its number, its host when one is named, and its title", () => {
    const pullRequest = { number: 7, title: "Fix the parser" };
    expect(pullRequestLabel(pullRequest, "work")).toBe("Pull request #7 on work: Fix the parser");
    expect(pullRequestLabel(pullRequest, null)).toBe("Pull request #7: Fix the parser");
  });
});

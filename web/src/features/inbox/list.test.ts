import { describe, expect, it } from "vitest";
import type { InboxEvent, InboxRow } from "../../shared/api/types.generated";
import { inboxRow as row } from "../../shared/inbox/fixtures";
import {
  alertFolder,
  appendPage,
  applyEvent,
  bodyView,
  CATEGORY_LABEL,
  openTarget,
  rowWanted,
  settingFix,
} from "./list";
import { moveSelection } from "../../shared/keys";

const NOW = "2026-01-01T00:00:00Z";

const ids = (rows: readonly InboxRow[]) => rows.map((r) => r.id);

describe("applyEvent", () => {
  const rows = [row("b"), row("a", { category: "webhook" })];

  it("puts a created row on top of its tab and of All, not of another tab", () => {
    const event: InboxEvent = { change: "created", ...row("c") };
    expect(ids(applyEvent(rows, event, "all", NOW))).toEqual(["c", "b", "a"]);
    expect(ids(applyEvent(rows, event, "alert", NOW))).toEqual(["c", "b", "a"]);
    expect(applyEvent(rows, event, "webhook", NOW)).toBe(rows);
  });

  it("moves a repeated row to the top with its new count", () => {
    const next = applyEvent(rows, { change: "repeated", ...row("a", { category: "webhook", count: 2 }) }, "all", NOW);
    expect(ids(next)).toEqual(["a", "b"]);
    expect(next[0]?.count).toBe(2);
  });

  it("replaces an updated row in place and drops it once archived", () => {
    const read = applyEvent(rows, { change: "updated", ...row("b", { readAt: NOW }) }, "all", NOW);
    expect(ids(read)).toEqual(["b", "a"]);
    expect(read[0]?.readAt).toBe(NOW);
    expect(ids(applyEvent(rows, { change: "updated", ...row("b", { archivedAt: NOW }) }, "all", NOW))).toEqual(["a"]);
    // An update to a row not shown (another page, restored from the archive) does not add it.
    expect(applyEvent(rows, { change: "updated", ...row("z") }, "all", NOW)).toBe(rows);
  });

  it("marks the unread rows of the category read on read_all", () => {
    const next = applyEvent(rows, { change: "read_all", category: "webhook", count: 1 }, "all", NOW);
    expect(next.map((r) => r.readAt)).toEqual([null, NOW]);
    const all = applyEvent(rows, { change: "read_all", category: null, count: 2 }, "all", NOW);
    expect(all.every((r) => r.readAt === NOW)).toBe(true);
  });
});

describe("paging and selection", () => {
  it("appends a page without repeating rows already shown", () => {
    expect(ids(appendPage([row("c"), row("b")], [row("b"), row("a")]))).toEqual(["c", "b", "a"]);
  });

  it("moves with j and k inside the list", () => {
    const rows = [row("a"), row("b"), row("c")];
    expect(moveSelection(rows, null, 1)).toBe("a");
    expect(moveSelection(rows, "a", 1)).toBe("b");
    expect(moveSelection(rows, "c", 1)).toBe("c");
    expect(moveSelection(rows, "a", -1)).toBe("a");
    expect(moveSelection([], "a", 1)).toBeNull();
  });
});

describe("openTarget and alertFolder", () => {
  it("follows the row's first action", () => {
    expect(openTarget(row("a", { actions: [{ kind: "open_session", sessionId: "s 1" }] }))).toBe("/sessions/s%201");
    expect(openTarget(row("a", { actions: [{ kind: "open_item", boardId: "b", itemId: "i 1" }] }))).toBe(
      "/boards/b?item=i%201",
    );
    expect(openTarget(row("a", { actions: [{ kind: "open_board", boardId: "b c" }] }))).toBe("/boards/b%20c");
    expect(openTarget(row("a", { actions: [{ kind: "open_path", path: "/settings#sessions" }] }))).toBe(
      "/settings#sessions",
    );
    expect(openTarget(row("a"))).toBeNull();
  });

  it("opens a schedule or rule waiting for approval on the automations page", () => {
    expect(openTarget(row("a", { actions: [{ kind: "approve_schedule", scheduleId: "s1" }] }))).toBe(
      "/automations#schedules",
    );
    expect(openTarget(row("a", { actions: [{ kind: "approve_rule", ruleId: "r1" }] }))).toBe("/automations#rules");
  });

  it("prefers the alert's session folder, then the setting as a path", () => {
    expect(alertFolder("/src/app", "/elsewhere")).toBe("/src/app");
    expect(alertFolder(undefined, "  /srv/hub ")).toBe("/srv/hub");
    expect(alertFolder(undefined, "")).toBeUndefined();
    expect(alertFolder(undefined, 3)).toBeUndefined();
  });
});

describe("how a row reads", () => {
  it("names each category for a person", () => {
    expect(CATEGORY_LABEL.pm_event).toBe("Project");
    expect(CATEGORY_LABEL.cli_pending).toBe("Waiting on you");
  });

  it("shows a JSON body indented behind a summary, and anything else as text", () => {
    expect(bodyView('{"ref":"main","commits":[1,2]}')).toEqual({
      kind: "json",
      summary: "JSON with 2 fields",
      pretty: '{\n  "ref": "main",\n  "commits": [\n    1,\n    2\n  ]\n}',
    });
    expect(bodyView("[1]")).toMatchObject({ kind: "json", summary: "JSON list of 1 item" });
    expect(bodyView("{not json")).toEqual({ kind: "text", text: "{not json" });
    expect(bodyView("42")).toEqual({ kind: "text", text: "42" });
    expect(bodyView("backup done")).toEqual({ kind: "text", text: "backup done" });
  });
});

describe("a row whose fix is a setting", () => {
  it("offers the setting by its label and opens the settings page at its row; the run stays what Open opens", () => {
    const refused = row("a", {
      actions: [
        { kind: "open_path", path: "/automations#runs=r1" },
        { kind: "open_setting", key: "agentDrivenMaxConcurrent", label: "Max concurrent agent sessions" },
      ],
    });
    expect(openTarget(refused)).toBe("/automations#runs=r1");
    expect(settingFix(refused)).toEqual({
      key: "agentDrivenMaxConcurrent",
      label: "Max concurrent agent sessions",
      path: "/settings#agentDrivenMaxConcurrent",
    });
    expect(settingFix(row("b", { actions: [{ kind: "open_path", path: "/x" }] }))).toBeNull();
  });
});

describe("rowWanted", () => {
  const rows = [row("r1"), row("r2")];
  it("selects the row a push names when the list shows it", () => {
    expect(rowWanted(rows, "r2", "all")).toEqual({ select: "r2" });
    expect(rowWanted(rows, "r2", "alert")).toEqual({ select: "r2" });
  });
  it("goes to All from a tab without it, and gives up where All lacks it too", () => {
    expect(rowWanted(rows, "r9", "alert")).toEqual({ tab: "all" });
    expect(rowWanted(rows, "r9", "all")).toBeNull();
  });
});

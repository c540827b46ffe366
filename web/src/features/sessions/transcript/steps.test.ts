import { describe, expect, test } from "vitest";
import type { Entry, JsonValue } from "../../../shared/api/types.generated";
import { groupEntries } from "./rows";
import {
  exitCodeOf,
  failureTail,
  FOLD_FAILURES_SHOWN,
  foldFailures,
  foldLabel,
  foldLines,
  inputSummary,
  keyValues,
  moreLines,
  oneLine,
  OPEN_LINES,
  openedOutput,
  outputLines,
  stepOf,
  TAIL_LINES,
  unwrapShell,
} from "./steps";

type ToolCall = Extract<Entry, { kind: "tool_call" }>;
type ToolResult = Extract<Entry, { kind: "tool_result" }>;

const call = (seq: number, name: string, input: JsonValue, at: string | null = null): ToolCall => ({
  seq,
  turn: 1,
  at,
  kind: "tool_call",
  toolId: `t${seq}`,
  name,
  input,
});
const result = (
  seq: number,
  toolSeq: number,
  output: string,
  isError = false,
  at: string | null = null,
): ToolResult => ({
  seq,
  turn: 1,
  at,
  kind: "tool_result",
  toolId: `t${toolSeq}`,
  output,
  isError,
});
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

describe("a step's state and exit code", () => {
  test("Claude's failed Bash: ✗, the exit code from the output's first line, the output without it", () => {
    const step = stepOf(
      call(1, "Bash", { command: "go build ./...", description: "Build" }),
      result(2, 1, "Exit code 1\n./main.go:3:2: undefined: x", true),
    );
    expect(step).toMatchObject({ status: "failed", exitCode: 1, output: "./main.go:3:2: undefined: x" });
  });

  test("a success is ✓ without an exit code; a result not yet come is running", () => {
    expect(stepOf(call(1, "Bash", { command: "go build ./..." }), result(2, 1, ""))).toMatchObject({
      status: "ok",
      exitCode: null,
    });
    expect(stepOf(call(1, "Bash", { command: "sleep 9" }), null)).toMatchObject({ status: "running", output: "" });
  });

  test("Codex's failed command: ✗ from its error flag (the server keeps no exit code for it)", () => {
    const step = stepOf(
      call(1, "command", { command: "bash -lc 'cargo test'" }),
      result(2, 1, "test add ... FAILED\n", true),
    );
    expect(step).toMatchObject({ status: "failed", exitCode: null, output: "test add ... FAILED\n" });
  });

  test("a stated non-zero exit code fails the step even without the error flag", () => {
    expect(stepOf(call(1, "Bash", { command: "false" }), result(2, 1, "Exit code 2")).status).toBe("failed");
  });

  test("only a shell tool's first line is read as an exit code", () => {
    const read = stepOf(call(1, "Read", { file_path: "/notes.md" }), result(2, 1, "Exit code 3\nis a heading"));
    expect(read).toMatchObject({ status: "ok", exitCode: null, output: "Exit code 3\nis a heading" });
  });

  test("the exit-code line as Claude writes it, with or without its 'Error: '", () => {
    expect(exitCodeOf("Exit code 137")).toEqual({ exitCode: 137, output: "" });
    expect(exitCodeOf("Error: Exit code 2\nboom")).toEqual({ exitCode: 2, output: "boom" });
    expect(exitCodeOf("Exit code is 2")).toEqual({ exitCode: null, output: "Exit code is 2" });
  });

  test("a result whose call is on an earlier page is a step of its own", () => {
    expect(stepOf(null, result(2, 1, "oops", true))).toMatchObject({
      name: "Tool result",
      status: "failed",
      summary: "",
      duration: null,
    });
  });
});

describe("each step's own duration", () => {
  test("from the call's time to its result's, not the turn's", () => {
    const first = stepOf(
      call(1, "Bash", { command: "ls" }, "2026-01-01T10:00:00.000Z"),
      result(2, 1, "", false, "2026-01-01T10:00:00.300Z"),
    );
    const second = stepOf(
      call(3, "Bash", { command: "go build" }, "2026-01-01T10:00:05.000Z"),
      result(4, 3, "", true, "2026-01-01T10:00:47.000Z"),
    );
    expect([first.duration, second.duration]).toEqual(["0.3 s", "42 s"]);
  });

  test("none while running or without times", () => {
    expect(stepOf(call(1, "Bash", { command: "ls" }, "2026-01-01T10:00:00.000Z"), null).duration).toBeNull();
    expect(stepOf(call(1, "Bash", { command: "ls" }), result(2, 1, "")).duration).toBeNull();
  });
});

describe("the input in one line", () => {
  test("a shell command as itself, not JSON; Codex's bash -lc wrapper taken off", () => {
    expect(stepOf(call(1, "Bash", { command: "go build ./..." }), null)).toMatchObject({
      command: "go build ./...",
      summary: "go build ./...",
      fields: [],
    });
    expect(inputSummary("command", { command: "/bin/bash -lc 'echo probe > p.txt && cat p.txt'" })).toBe(
      "echo probe > p.txt && cat p.txt",
    );
    expect(inputSummary("command", { command: ["bash", "-lc", "make test"] })).toBe("make test");
    expect(inputSummary("command", { command: ["rg", "-n", "todo"] })).toBe("rg -n todo");
  });

  test("a shell wrapper's quoting undone, or the command kept whole when it is not one script", () => {
    expect(unwrapShell(`bash -lc 'echo '\\''hi'\\'''`)).toBe("echo 'hi'");
    expect(unwrapShell(`bash -lc 'echo '"'"'hi'"'"''`)).toBe("echo 'hi'");
    expect(unwrapShell(`bash -lc "echo \\"\\$HOME\\""`)).toBe(`echo "$HOME"`);
    expect(unwrapShell("bash -lc ls")).toBe("ls");
    expect(unwrapShell("bash -lc 'a' 'b'")).toBe("bash -lc 'a' 'b'");
    expect(unwrapShell("git status")).toBe("git status");
  });

  test("a multi-line command shows its first line; the opened step has it whole", () => {
    const step = stepOf(call(1, "Bash", { command: "cd web\nnpm test", timeout: 60000 }), null);
    expect(step.summary).toBe("cd web …");
    expect(step.command).toBe("cd web\nnpm test");
    expect(step.fields).toEqual(["timeout: 60000"]);
  });

  test("known tools by what they work on", () => {
    expect(inputSummary("Edit", { file_path: "src/a.ts", old_string: "a", new_string: "b" })).toBe("src/a.ts");
    expect(inputSummary("Read", { file_path: "/w/src/lib.rs", offset: 10 })).toBe("/w/src/lib.rs");
    expect(inputSummary("Grep", { pattern: "TODO", path: "src" })).toBe("TODO in src");
    expect(inputSummary("Grep", { pattern: "fn main" })).toBe("fn main");
    expect(inputSummary("Glob", { pattern: "**/*.rs" })).toBe("**/*.rs");
    expect(inputSummary("WebFetch", { url: "https://example.com", prompt: "sum up" })).toBe("https://example.com");
    expect(inputSummary("web_search", { query: "vitest" })).toBe("vitest");
    expect(inputSummary("Task", { description: "Find the bug", prompt: "long…" })).toBe("Find the bug");
    const changes = {
      changes: [
        { path: "a.rs", kind: "update" },
        { path: "b.rs", kind: "add" },
      ],
    };
    expect(inputSummary("file_change", changes)).toBe("update a.rs, add b.rs");
  });

  test("unknown tools, and known ones missing their field, as compact key: value", () => {
    expect(inputSummary("mcp__probe__echo", { text: "hi", times: 2, loud: true })).toBe(
      "text: hi, times: 2, loud: true",
    );
    // A nested record's own fields in its place, lists joined or counted: never JSON.
    expect(inputSummary("echo", { server: "probe", arguments: { text: "hi", to: null } })).toBe(
      "server: probe, text: hi, to: none",
    );
    expect(inputSummary("tag", { labels: ["bug", "ui"], edits: [{ a: 1 }, { a: 2 }] })).toBe(
      "labels: bug, ui, edits: 2 items",
    );
    expect(inputSummary("Read", { path: "x" })).toBe("path: x");
    expect(keyValues(null)).toBe("");
    expect(keyValues("just text")).toBe("just text");
  });

  test("the opened step lists the input's fields, not JSON", () => {
    expect(stepOf(call(1, "Read", { file_path: "/a", limit: 20 }), null).fields).toEqual([
      "file_path: /a",
      "limit: 20",
    ]);
  });

  test("nested input reads as indented key: value lines, lists as items, long text under its key", () => {
    const input = {
      server: "github",
      arguments: { repo: "acme/web", labels: ["bug", "ui"], draft: false },
      body: "first line\nsecond line",
      todos: [
        { content: "Fix the build", status: "done" },
        { content: "Ship", status: "pending" },
      ],
      nothing: [],
    };
    const fields = stepOf(call(1, "mcp__github__create_issue", input), null).fields;
    expect(fields).toEqual([
      "server: github",
      "arguments:",
      "  repo: acme/web",
      "  labels: bug, ui",
      "  draft: false",
      "body:",
      "  first line",
      "  second line",
      "todos:",
      "  - content: Fix the build",
      "    status: done",
      "  - content: Ship",
      "    status: pending",
      "nothing: none",
    ]);
    expect(fields.join("\n")).not.toMatch(/[{}"]/);
  });

  test("Claude's question tool by the question it asks", () => {
    const ask = { questions: [{ question: "Which database?", options: [{ label: "SQLite" }] }] };
    expect(inputSummary("AskUserQuestion", ask)).toBe("Which database?");
  });

  test("a summary stays one line of bounded length", () => {
    expect(oneLine("  first\nsecond  ")).toBe("first …");
    expect(oneLine("x".repeat(500))).toBe(`${"x".repeat(200)}…`);
  });
});

describe("output lines", () => {
  test("a final newline starts no empty line", () => {
    expect(outputLines("")).toEqual([]);
    expect(outputLines("a\nb\n")).toEqual(["a", "b"]);
    expect(outputLines("a\n\nb")).toEqual(["a", "", "b"]);
  });

  test("a fold keeps its start or its end and counts the rest", () => {
    const lines = ["1", "2", "3", "4"];
    expect(foldLines(lines, 2, "start")).toEqual({ shown: ["1", "2"], more: 2 });
    expect(foldLines(lines, 3, "end")).toEqual({ shown: ["2", "3", "4"], more: 1 });
    expect(foldLines(lines, 4, "end")).toEqual({ shown: lines, more: 0 });
    expect(moreLines(120)).toBe("+ 120 more lines");
    expect(moreLines(1)).toBe("+ 1 more line");
  });

  test("a failure's last lines show unopened; a success shows none", () => {
    const failed = stepOf(
      call(1, "Bash", { command: "go build" }),
      result(2, 1, `Exit code 1\n${numbered(125)}`, true),
    );
    const tail = failureTail(failed);
    expect(tail?.shown).toHaveLength(TAIL_LINES);
    expect(tail).toMatchObject({ more: 120, shown: expect.arrayContaining(["line 125"]) as unknown });
    expect(failureTail(stepOf(call(1, "Bash", { command: "ls" }), result(2, 1, numbered(9))))).toBeNull();
    expect(failureTail(stepOf(call(1, "Bash", { command: "false" }), result(2, 1, "Exit code 1", true)))).toBeNull();
  });

  test("opened, long output folds: a failure to its end, a success to its start, all on request", () => {
    const long = numbered(OPEN_LINES + 120);
    const failed = stepOf(call(1, "Bash", { command: "go build" }), result(2, 1, long, true));
    const done = stepOf(call(1, "Read", { file_path: "/a" }), result(2, 1, long));
    expect(openedOutput(failed, false)).toMatchObject({ more: 120 });
    expect(openedOutput(failed, false).shown.at(-1)).toBe(`line ${OPEN_LINES + 120}`);
    expect(openedOutput(done, false).shown[0]).toBe("line 1");
    expect(openedOutput(done, true)).toMatchObject({ more: 0 });
    expect(openedOutput(done, true).shown).toHaveLength(OPEN_LINES + 120);
  });
});

describe("a fold of earlier steps", () => {
  test("counts the rows it opens to, a call with its result as one, and says how many failed", () => {
    const entries: Entry[] = [
      { seq: 1, turn: 1, at: null, kind: "thinking", text: "hm" },
      call(2, "Bash", { command: "go build" }),
      result(3, 2, "Exit code 1\nboom", true),
      call(4, "Read", { file_path: "/a" }),
      result(5, 4, "text"),
      call(6, "Edit", { file_path: "/a", old_string: "x", new_string: "y" }),
      result(7, 6, "ok"),
    ];
    const steps = groupEntries(entries);
    expect(steps).toHaveLength(4);
    expect(foldLabel(steps)).toEqual({ label: "4 earlier steps", failed: "1 failed" });
    expect(foldLabel(steps.slice(2))).toEqual({ label: "2 earlier steps", failed: null });
    expect(foldLabel(steps.slice(3)).label).toBe("1 earlier step");
  });

  test("closed, it keeps its last failed steps in view, in order", () => {
    const failing = (seq: number) => [
      call(seq, "Bash", { command: `run ${seq}` }),
      result(seq + 1, seq, "Exit code 1", true),
    ];
    const entries: Entry[] = [
      ...failing(1),
      call(3, "Read", { file_path: "/a" }),
      result(4, 3, "text"),
      ...failing(5),
      ...failing(7),
      ...failing(9),
      { seq: 11, turn: 1, at: null, kind: "tool_result", toolId: null, output: "lost", isError: true },
    ];
    const steps = groupEntries(entries);
    const shown = foldFailures(steps).map((row) => (row.kind === "tool" ? row.call.seq : "alone"));
    expect(shown).toEqual([7, 9, "alone"]);
    expect(FOLD_FAILURES_SHOWN).toBe(3);
    expect(foldFailures(groupEntries([call(1, "Read", { file_path: "/a" }), result(2, 1, "ok")]))).toEqual([]);
  });
});

/**
 * A tool step (a call with its result) as the transcript shows it folded: whether it worked, its
 * exit code, its input in one readable line (a shell command as `$ cmd`), how long it ran, and its
 * output cut to a few lines. Pure, so what a step says is tested without rendering.
 *
 * What the server stores (crates/sessions/src/entries.rs): a result's `output` and `isError`.
 * Claude's `Bash` puts a failed command's exit code on the output's first line ("Exit code 1");
 * Codex's `exit_code` decides `isError` but is not stored, so a Codex step shows ✗ without a code.
 */
import type { Entry, JsonValue } from "../../../shared/api/types.generated";
import type { EntryRow } from "./rows";
import { durationBetween } from "./times";

type ToolCall = Extract<Entry, { kind: "tool_call" }>;
type ToolResult = Extract<Entry, { kind: "tool_result" }>;
type JsonObject = { [key in string]?: JsonValue };

export type StepStatus = "running" | "ok" | "failed";

export interface Step {
  /** The tool's name; "Tool result" for a result whose call is not held (an earlier page). */
  name: string;
  /** The whole shell command, for a shell tool (drawn after "$ "); null for other tools. */
  command: string | null;
  /** The input in one line: the command's first line for a shell tool, else the field that says most. */
  summary: string;
  /** The input's fields as `key: value` lines for the opened step (a shell tool's command apart). */
  fields: string[];
  status: StepStatus;
  exitCode: number | null;
  /** The result's output, without the exit-code line (the code is shown on its own). */
  output: string;
  /** From the call's time to its result's: this step's own, not the turn's. */
  duration: string | null;
}

/** Claude's shell tool and Codex's `command_execution` (stored as a call named `command`). */
const SHELL_TOOLS = new Set(["Bash", "command"]);

/** The input field that names what each known tool works on. */
const SUBJECT: Record<string, string> = {
  Read: "file_path",
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
  LS: "path",
  WebFetch: "url",
  WebSearch: "query",
  web_search: "query",
  Task: "description",
  Agent: "description",
};

/** Searches name a pattern and, when given, where they look. */
const SEARCH_TOOLS = new Set(["Grep", "Glob"]);

/** A summary line longer than this is cut: the summary is one line, and the opened step has it all. */
const SUMMARY_MAX = 200;

const asObject = (value: JsonValue | undefined): JsonObject | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
const asString = (value: JsonValue | undefined): string | null => (typeof value === "string" ? value : null);

/** The first non-empty line of `text`, with "…" when more follows. */
export function oneLine(text: string): string {
  const lines = text.trim().split("\n");
  const first = (lines[0] ?? "").trim();
  const cut = first.length > SUMMARY_MAX ? `${first.slice(0, SUMMARY_MAX)}…` : first;
  return lines.length > 1 && cut === first ? `${cut} …` : cut;
}

/** The script of `bash -lc '…'`, the form Codex runs every command in; else `command` as it is. */
export function unwrapShell(command: string): string {
  const wrapped = /^(?:\S*\/)?(?:ba|z)?sh -l?c (.+)$/s.exec(command.trim());
  const script = wrapped?.[1];
  if (script === undefined) return command;
  // A single-quoted script writes its own quote as '\'' (POSIX) or '"'"' (shlex).
  const single = /^'((?:[^']|'\\''|'"'"')*)'$/s.exec(script)?.[1];
  if (single !== undefined) return single.replaceAll(`'\\''`, "'").replaceAll(`'"'"'`, "'");
  const double = /^"((?:[^"\\]|\\.)*)"$/s.exec(script)?.[1];
  if (double !== undefined) return double.replace(/\\([\\"$`])/g, "$1");
  return /^[^\s'"\\]+$/.test(script) ? script : command;
}

/** A shell tool's command: a string, or an argument list (`["bash", "-lc", "…"]` or the program's own). */
function shellCommand(input: JsonValue): string | null {
  const command = asObject(input)?.command;
  if (typeof command === "string") return unwrapShell(command);
  if (!Array.isArray(command) || !command.every((a) => typeof a === "string")) return null;
  const args = command as string[];
  const script = args[2];
  return args.length === 3 && /^-l?c$/.test(args[1] ?? "") && script !== undefined ? script : args.join(" ");
}

const isScalar = (value: JsonValue | undefined): boolean => value === null || typeof value !== "object";

/** A scalar as a person reads it: text as it is, nothing as "none". */
const scalarText = (value: JsonValue | undefined): string =>
  value === null || value === undefined ? "none" : typeof value === "string" ? value : String(value);

/**
 * The `key: value` pairs of an input for its one line: a nested object's own pairs in its place
 * (an MCP call's `arguments`), a list of plain values joined, a list of records counted.
 */
function leafPairs(fields: JsonObject): string[] {
  return Object.entries(fields).flatMap(([key, value]) => {
    if (isScalar(value)) return [`${key}: ${oneLine(scalarText(value))}`];
    if (Array.isArray(value)) {
      if (value.every(isScalar)) return [`${key}: ${value.map(scalarText).join(", ")}`];
      return [`${key}: ${value.length} ${value.length === 1 ? "item" : "items"}`];
    }
    const nested = asObject(value);
    return nested ? leafPairs(nested) : [];
  });
}

/** Compact `key: value, key: value`: how a tool the page does not know is summed up. */
export function keyValues(input: JsonValue): string {
  const fields = asObject(input);
  if (!fields) return input === null ? "" : oneLine(isScalar(input) ? scalarText(input) : JSON.stringify(input));
  return oneLine(leafPairs(fields).join(", "));
}

/** Codex's `file_change`: each change's kind and path. */
function fileChanges(input: JsonValue): string | null {
  const changes = asObject(input)?.changes;
  if (!Array.isArray(changes)) return null;
  const named = changes.flatMap((change) => {
    const fields = asObject(change);
    const path = asString(fields?.path);
    const kind = asString(fields?.kind);
    return path === null ? [] : [kind === null ? path : `${kind} ${path}`];
  });
  return named.length > 0 ? named.join(", ") : null;
}

/** Claude Code's tool for asking the user questions. */
const ASK_TOOL = "AskUserQuestion";

/** `AskUserQuestion`: the question it asks (the first, when it asks several). */
function firstQuestion(input: JsonValue): string | null {
  const questions = asObject(input)?.questions;
  const first = Array.isArray(questions) ? asObject(questions[0]) : null;
  const text = asString(first?.question);
  return text === null ? null : oneLine(text);
}

/** The call's input in one line (a shell command without its "$ ", which the drawing adds). */
export function inputSummary(name: string, input: JsonValue): string {
  const fields = asObject(input);
  const command = SHELL_TOOLS.has(name) ? shellCommand(input) : null;
  if (command !== null) return oneLine(command);
  const subjectKey = SUBJECT[name];
  const subject = subjectKey === undefined ? null : asString(fields?.[subjectKey]);
  if (subject !== null) return oneLine(subject);
  const pattern = SEARCH_TOOLS.has(name) ? asString(fields?.pattern) : null;
  if (pattern !== null) {
    const where = asString(fields?.path) ?? asString(fields?.glob);
    return oneLine(where === null ? pattern : `${pattern} in ${where}`);
  }
  return (
    (name === "file_change" ? fileChanges(input) : null) ??
    (name === ASK_TOOL ? firstQuestion(input) : null) ??
    keyValues(input)
  );
}

/**
 * One field as lines, the way a person writes a note rather than JSON: `key: value`; a text of
 * several lines, a record or a list of records under its key, indented; a list's items each
 * after "- "; a list of plain values joined on one line.
 */
export function fieldLines(key: string, value: JsonValue | undefined, indent = ""): string[] {
  const head = `${indent}${key}:`;
  if (typeof value === "string" && value.includes("\n")) {
    return [head, ...value.split("\n").map((line) => `${indent}  ${line}`)];
  }
  if (isScalar(value)) return [`${head} ${scalarText(value)}`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${head} none`];
    if (value.every(isScalar)) return [`${head} ${value.map(scalarText).join(", ")}`];
    return [head, ...value.flatMap((item) => itemLines(item, `${indent}  `))];
  }
  const fields = Object.entries(asObject(value) ?? {});
  if (fields.length === 0) return [`${head} none`];
  return [head, ...fields.flatMap(([k, v]) => fieldLines(k, v, `${indent}  `))];
}

/** A list's item: its first line after "- ", the rest lined up under it. */
function itemLines(item: JsonValue, indent: string): string[] {
  const fields = asObject(item);
  const lines = fields
    ? Object.entries(fields).flatMap(([k, v]) => fieldLines(k, v, `${indent}  `))
    : Array.isArray(item)
      ? item.flatMap((inner) => itemLines(inner, `${indent}  `))
      : scalarText(item)
          .split("\n")
          .map((line) => `${indent}  ${line}`);
  const [first = `${indent}  none`, ...rest] = lines;
  return [`${indent}- ${first.slice(indent.length + 2)}`, ...rest];
}

/** The input's fields as lines for the opened step, less those drawn apart (a shell command). */
function inputFields(input: JsonValue, shown: string | null): string[] {
  const fields = asObject(input);
  if (!fields) return input === null ? [] : [isScalar(input) ? scalarText(input) : JSON.stringify(input)];
  return Object.entries(fields)
    .filter(([key]) => key !== shown)
    .flatMap(([key, value]) => fieldLines(key, value));
}

/** Claude's `Bash` says how a failed command ended on the output's first line. */
const EXIT_LINE = /^(?:Error: )?Exit code (-?\d+)$/;

/** The exit code a shell result states, and the output after that line. */
export function exitCodeOf(output: string): { exitCode: number | null; output: string } {
  const newline = output.indexOf("\n");
  const first = newline < 0 ? output : output.slice(0, newline);
  const code = EXIT_LINE.exec(first.trim())?.[1];
  if (code === undefined) return { exitCode: null, output };
  return { exitCode: Number(code), output: newline < 0 ? "" : output.slice(newline + 1) };
}

/** A call and its result (either may be missing: a running tool, a result from an earlier page). */
export function stepOf(call: ToolCall | null, result: ToolResult | null): Step {
  const shell = call !== null && SHELL_TOOLS.has(call.name);
  const command = shell ? shellCommand(call.input) : null;
  // Only a shell result's first line is its exit code: another tool's output may start with anything.
  const ended = result === null ? null : shell ? exitCodeOf(result.output) : { exitCode: null, output: result.output };
  const failed = result !== null && (result.isError || (ended?.exitCode ?? 0) !== 0);
  return {
    name: call?.name ?? "Tool result",
    command,
    summary: call === null ? "" : inputSummary(call.name, call.input),
    fields: call === null ? [] : inputFields(call.input, command === null ? null : "command"),
    status: result === null ? "running" : failed ? "failed" : "ok",
    exitCode: ended?.exitCode ?? null,
    output: ended?.output ?? "",
    duration: call === null ? null : durationBetween(call, result),
  };
}

/** The step a row of the transcript is, if it is one. */
function stepOfRow(row: EntryRow): Step | null {
  if (row.kind === "tool") return stepOf(row.call, row.result);
  if (row.kind === "entry" && row.entry.kind === "tool_result") return stepOf(null, row.entry);
  return null;
}

/** `text` as lines; the newline that ends the last line starts no empty one. */
export function outputLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** How many lines a failed step shows unopened: enough for the error, short enough to scan past. */
export const TAIL_LINES = 5;
/** How many lines an opened step shows before its output folds. */
export const OPEN_LINES = 40;

export interface FoldedLines {
  shown: string[];
  /** Lines left out: drawn as "+ N more lines". */
  more: number;
}

/** At most `keep` lines of `lines`, its start or its end. */
export function foldLines(lines: string[], keep: number, from: "start" | "end"): FoldedLines {
  if (lines.length <= keep) return { shown: lines, more: 0 };
  const shown = from === "start" ? lines.slice(0, keep) : lines.slice(lines.length - keep);
  return { shown, more: lines.length - keep };
}

/**
 * An opened step's output: a failure's end (where compilers and test runners say what went
 * wrong), anything else's start (a file read, a listing).
 */
export function openedOutput(step: Step, all: boolean): FoldedLines {
  const lines = outputLines(step.output);
  return all ? { shown: lines, more: 0 } : foldLines(lines, OPEN_LINES, step.status === "failed" ? "end" : "start");
}

/** The end of a failed step's output, shown without opening it; nothing for a step that worked. */
export function failureTail(step: Step): FoldedLines | null {
  if (step.status !== "failed") return null;
  const folded = foldLines(outputLines(step.output), TAIL_LINES, "end");
  return folded.shown.length > 0 ? folded : null;
}

export const moreLines = (n: number) => `+ ${n} more ${n === 1 ? "line" : "lines"}`;

/** What a fold of earlier steps says: how many rows it opens to, and how many of them failed. */
export function foldLabel(steps: readonly EntryRow[]): { label: string; failed: string | null } {
  const failed = steps.filter((row) => stepOfRow(row)?.status === "failed").length;
  return {
    label: `${steps.length} earlier ${steps.length === 1 ? "step" : "steps"}`,
    failed: failed === 0 ? null : `${failed} failed`,
  };
}

/** How many of a closed fold's failed steps stay in view: the last ones, nearest the answer. */
export const FOLD_FAILURES_SHOWN = 3;

/**
 * The failed steps a closed fold still shows, so a failure is seen without opening anything:
 * the last `FOLD_FAILURES_SHOWN` of them, in order. Opened, the fold shows all its steps instead.
 */
export function foldFailures<Row extends EntryRow>(steps: readonly Row[]): Row[] {
  return steps.filter((row) => stepOfRow(row)?.status === "failed").slice(-FOLD_FAILURES_SHOWN);
}

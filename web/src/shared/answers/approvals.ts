/**
 * Pending approvals apart from their rendering, wherever they are answered (an inbox row, a
 * board row, a session page): the list kept live from `approval` events, and how to show a
 * tool's input (a command, a path, a diff, a plan, or its JSON).
 */
import type { Approval, JsonValue } from "../api/types.generated";
import { fileEdits, type FileEdit } from "../edits";

/**
 * The pending approvals after one `approval` event (or the server's answer to a decision): a
 * pending one is added or replaced; an answered or expired one leaves.
 */
export function applyApproval(approvals: readonly Approval[], approval: Approval): readonly Approval[] {
  const rest = approvals.filter((a) => a.id !== approval.id);
  if (approval.state !== "pending") return rest.length === approvals.length ? approvals : rest;
  const at = approvals.findIndex((a) => a.id === approval.id);
  if (at < 0) return [approval, ...approvals];
  const next = approvals.slice();
  next[at] = approval;
  return next;
}

/** How a tool's input is shown. */
export type InputView =
  | { kind: "command"; command: string; description: string | null }
  | { kind: "diff"; edits: FileEdit[] }
  | { kind: "path"; path: string }
  | { kind: "plan"; plan: string }
  | { kind: "url"; url: string }
  | { kind: "session"; verb: "pause" | "archive"; sessionId: string; title: string | null }
  | { kind: "json"; text: string };

/** The tools an agent's pause or archive asks as, at `read_only`. */
const LIFECYCLE_VERBS: Partial<Record<string, "pause" | "archive">> = {
  switchboard_pause_session: "pause",
  switchboard_archive_session: "archive",
};

type JsonObject = { [key in string]?: JsonValue };

const asObject = (value: unknown): JsonObject | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
const asString = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/**
 * What to show for `tool`'s `input`: a `Bash` command as code, an `Edit`/`MultiEdit`/`Write`
 * as a diff, another file tool's path, a plan's text, a web tool's address or query, the session
 * an agent asks to pause or archive; anything else as its JSON (or the broker's `target` when
 * there is no input).
 */
export function describeInput(tool: string, input: unknown, target: string | null): InputView {
  const fields = asObject(input);
  const verb = LIFECYCLE_VERBS[tool];
  const sessionId = asString(fields?.sessionId) ?? target;
  if (verb && sessionId !== null) {
    return { kind: "session", verb, sessionId, title: asString(fields?.title) };
  }
  const command = asString(fields?.command);
  if (tool === "Bash" && command !== null) {
    return { kind: "command", command, description: asString(fields?.description) };
  }
  const edits = fields ? fileEdits(tool, fields) : null;
  if (edits) return { kind: "diff", edits };
  if (tool === "ExitPlanMode") {
    const plan = asString(fields?.plan);
    if (plan !== null) return { kind: "plan", plan };
  }
  const url = asString(fields?.url) ?? asString(fields?.query);
  if ((tool === "WebFetch" || tool === "WebSearch") && url !== null) return { kind: "url", url };
  const path = asString(fields?.file_path) ?? asString(fields?.notebook_path) ?? asString(fields?.path);
  if (path !== null) return { kind: "path", path };
  if (input === null || input === undefined || (fields && Object.keys(fields).length === 0)) {
    return target ? { kind: "path", path: target } : { kind: "json", text: "{}" };
  }
  return { kind: "json", text: JSON.stringify(input, null, 2) };
}

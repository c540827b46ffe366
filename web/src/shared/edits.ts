/**
 * File edits an engine reports in its tool calls, as line diffs: Claude's `Edit`
 * (`file_path`, `old_string`, `new_string`), `MultiEdit` (`file_path`, `edits`) and `Write`
 * (`file_path`, `content`). Pure, so the drawing only maps lines to rows.
 */
import { diffLines } from "diff";
import type { JsonValue } from "./api/types.generated";

export interface FileEdit {
  path: string;
  before: string;
  after: string;
}

export interface DiffLine {
  kind: "add" | "del" | "same";
  text: string;
}

type JsonObject = { [key in string]?: JsonValue };

const asObject = (value: JsonValue | undefined): JsonObject | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
const asString = (value: JsonValue | undefined): string | null => (typeof value === "string" ? value : null);

/** The edits of a tool call, or `null` when the call edits no file the page can show. */
export function fileEdits(name: string, input: JsonValue): FileEdit[] | null {
  const fields = asObject(input);
  const path = asString(fields?.file_path);
  if (!fields || path === null) return null;
  const one = (edit: JsonObject | null): FileEdit | null => {
    const before = asString(edit?.old_string);
    const after = asString(edit?.new_string);
    return before === null || after === null ? null : { path, before, after };
  };
  switch (name) {
    case "Edit": {
      const edit = one(fields);
      return edit && [edit];
    }
    case "MultiEdit": {
      const edits = Array.isArray(fields.edits) ? fields.edits.map((e) => one(asObject(e))) : [];
      const shown = edits.filter((e): e is FileEdit => e !== null);
      return shown.length > 0 ? shown : null;
    }
    case "Write": {
      const content = asString(fields.content);
      return content === null ? null : [{ path, before: "", after: content }];
    }
    default:
      return null;
  }
}

/** The lines of `before` → `after`, each marked added, deleted or the same. */
export function diffOf(edit: FileEdit): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const change of diffLines(edit.before, edit.after)) {
    const kind = change.added ? "add" : change.removed ? "del" : "same";
    const text = change.value.endsWith("\n") ? change.value.slice(0, -1) : change.value;
    for (const line of text.split("\n")) lines.push({ kind, text: line });
  }
  return lines;
}

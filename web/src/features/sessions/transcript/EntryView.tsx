/**
 * One transcript entry: the agent's messages as Markdown (react-markdown renders no raw HTML, so
 * an agent's output cannot inject markup), output streams as text, and tool calls, their results
 * and thinking as rows that open on a click, file edits as diffs.
 */
import { memo } from "react";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import type { Entry, JsonValue } from "../../../shared/api/types.generated";
import { fileEdits } from "../../../shared/edits";
import { Diff } from "../../../shared/ui/Diff";
import "../../../shared/ui/code.css";

const REMARK_PLUGINS = [remarkGfm];

export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={REMARK_PLUGINS}>{text}</Markdown>
    </div>
  );
});

function inputSummary(input: JsonValue): string {
  if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    const first = input.file_path ?? input.command ?? input.pattern ?? input.path ?? input.query ?? input.url;
    if (typeof first === "string") return first;
    if (Array.isArray(first)) return first.join(" ");
  }
  return "";
}

function ToolCall({ entry }: { entry: Extract<Entry, { kind: "tool_call" }> }) {
  const edits = fileEdits(entry.name, entry.input);
  return (
    <details className="entry entry-tool">
      <summary>
        <span className="entry-label">{entry.name}</span> <span className="muted">{inputSummary(entry.input)}</span>
      </summary>
      {edits ? (
        edits.map((edit, i) => <Diff key={i} edit={edit} />)
      ) : (
        <pre className="code-block">{JSON.stringify(entry.input, null, 2)}</pre>
      )}
    </details>
  );
}

export const EntryView = memo(function EntryView({ entry }: { entry: Entry }) {
  switch (entry.kind) {
    case "text":
    case "final":
      return (
        <div className={`entry entry-${entry.kind}`}>
          <MarkdownText text={entry.text} />
        </div>
      );
    case "stdout":
      return <pre className="entry entry-stdout code-block">{entry.text}</pre>;
    case "stderr":
      return <pre className="entry entry-stderr code-block">{entry.text}</pre>;
    case "thinking":
      return (
        <details className="entry entry-thinking">
          <summary>
            <span className="entry-label">Thinking</span>
          </summary>
          <MarkdownText text={entry.text} />
        </details>
      );
    case "tool_call":
      return <ToolCall entry={entry} />;
    case "tool_result":
      return (
        <details className={`entry entry-tool-result${entry.isError ? " entry-failed" : ""}`}>
          <summary>
            <span className="entry-label">{entry.isError ? "Tool error" : "Tool result"}</span>{" "}
            <span className="muted">{entry.output.split("\n", 1)[0]}</span>
          </summary>
          <pre className="code-block">{entry.output}</pre>
        </details>
      );
    case "todo":
      return (
        <ul className="entry entry-todo" aria-label="To-do list">
          {entry.items.map((item, i) => (
            <li key={i} data-status={item.status}>
              {item.status === "completed" ? "☑" : item.status === "in_progress" ? "▸" : "☐"} {item.text}
            </li>
          ))}
        </ul>
      );
    case "error":
      return <div className="entry entry-error">{entry.message}</div>;
    case "notice":
      return (
        <div className="entry entry-notice" data-source={entry.source}>
          <span className="entry-label">{entry.source === "engine" ? "Engine" : "Switchboard"}</span> {entry.text}
        </div>
      );
    case "permission":
      return (
        <div className={`entry entry-permission${entry.decision === "deny" ? " entry-failed" : ""}`}>
          <span className="entry-label">{entry.decision === "allow" ? "Allowed" : "Denied"}</span> {entry.tool}
          {entry.target ? <span className="muted"> {entry.target}</span> : null}{" "}
          <span className="muted">
            ({entry.level}, {entry.rule})
          </span>
        </div>
      );
  }
});

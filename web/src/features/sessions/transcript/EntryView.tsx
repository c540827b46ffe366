/**
 * One transcript row: the agent's messages as Markdown (react-markdown renders no raw HTML, so
 * an agent's output cannot inject markup), a stream's output as one log, a tool call with its
 * result as one row that opens on a click (its start time and how long it ran; file edits as
 * diffs), and thinking folded.
 */
import { memo } from "react";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import type { Entry, JsonValue } from "../../../shared/api/types.generated";
import { fileEdits } from "../../../shared/edits";
import type { EntryRow } from "./rows";
import { clockTime, durationBetween } from "./times";
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

type ToolRowProps = Extract<EntryRow, { kind: "tool" }>;

/** A tool call and its result: one row, its state, start and duration in the summary. */
function ToolRow({ call, result }: Pick<ToolRowProps, "call" | "result">) {
  const edits = fileEdits(call.name, call.input);
  const started = clockTime(call);
  const took = durationBetween(call, result);
  const state = result === null ? "running" : result.isError ? "failed" : "done";
  return (
    <details className={`entry entry-tool${result?.isError ? " entry-failed" : ""}`} data-tool-state={state}>
      <summary>
        <span className="entry-label">{call.name}</span> <span className="muted">{inputSummary(call.input)}</span>
        <span className="muted entry-when">
          {result === null ? "running…" : result.isError ? "failed" : null}
          {started && (
            <time dateTime={call.at ?? undefined} title={call.at ?? undefined}>
              {started}
            </time>
          )}
          {took && <span title="How long the tool ran">{took}</span>}
        </span>
      </summary>
      {edits ? (
        edits.map((edit, i) => <Diff key={i} edit={edit} />)
      ) : (
        <pre className="code-block">{JSON.stringify(call.input, null, 2)}</pre>
      )}
      {result && (
        <pre className={`code-block tool-output${result.isError ? " entry-failed" : ""}`} aria-label="Result">
          {result.output}
        </pre>
      )}
    </details>
  );
}

/** A stream's consecutive output, one block as the program wrote it. */
function LogRow({ stream, entries }: Extract<EntryRow, { kind: "log" }>) {
  return (
    <pre className={`entry entry-${stream} code-block`} data-lines={entries.length}>
      {entries.map((e) => e.text).join("\n")}
    </pre>
  );
}

/** A row of entries as `groupEntries` made it. */
export const EntryRowView = memo(function EntryRowView({ row }: { row: EntryRow }) {
  switch (row.kind) {
    case "entry":
      return <EntryView entry={row.entry} />;
    case "tool":
      return <ToolRow call={row.call} result={row.result} />;
    case "log":
      return <LogRow kind="log" stream={row.stream} entries={row.entries} />;
  }
});

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
    case "stderr":
      return <LogRow kind="log" stream={entry.kind} entries={[entry]} />;
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
      return <ToolRow call={entry} result={null} />;
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

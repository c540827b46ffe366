/**
 * One transcript row: the agent's messages as Markdown (react-markdown renders no raw HTML, so
 * an agent's output cannot inject markup), a stream's output as one log, a tool call with its
 * result as one step (`ToolStep`), and thinking folded; errors, notices and permission decisions
 * in plain words, with the codes they stood for on hover. An agent's message carries the documents
 * published from it and, while publishing is on, the button that publishes it.
 */
import { memo, useState } from "react";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import type { Entry } from "../../../shared/api/types.generated";
import type { EntryRow } from "./rows";
import { plainMessage, permissionRuleWords } from "../../../shared/humanize";
import { Coded } from "../../../shared/ui/Coded";
import { ToolStep } from "./ToolStep";
import { documentName, usePublishing } from "./publishing";
import "../../../shared/ui/code.css";

const REMARK_PLUGINS = [remarkGfm];

export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={REMARK_PLUGINS}>{text}</Markdown>
    </div>
  );
});

/** A message the server or the engine wrote, its codes in words and the text as stored on hover. */
function PlainText({ text }: { text: string }) {
  const plain = plainMessage(text);
  return <Coded raw={plain.raw}>{plain.words}</Coded>;
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
      return <ToolStep call={row.call} result={row.result} />;
    case "log":
      return <LogRow kind="log" stream={row.stream} entries={row.entries} />;
  }
});

/** Under an agent's message: the documents published from it, and the button that publishes it. */
function MessageDocuments({ seq }: { seq: number }) {
  const publishing = usePublishing();
  const [busy, setBusy] = useState(false);
  if (publishing === null) return null;
  const kept = publishing.bySeq.get(seq) ?? [];
  if (!publishing.enabled && kept.length === 0) return null;
  const publish = () => {
    setBusy(true);
    void publishing.publish(seq).finally(() => setBusy(false));
  };
  return (
    <div className="message-documents">
      {kept.map((p) => (
        <a key={p.path} href={p.url} target="_blank" rel="noopener noreferrer">
          {documentName(p.path)}
        </a>
      ))}
      {publishing.enabled && (
        <button type="button" className="link-button" onClick={publish} disabled={busy}>
          Publish as document
        </button>
      )}
    </div>
  );
}

export const EntryView = memo(function EntryView({ entry }: { entry: Entry }) {
  switch (entry.kind) {
    case "text":
    case "final":
      return (
        <div className={`entry entry-${entry.kind}`}>
          <MarkdownText text={entry.text} />
          <MessageDocuments seq={entry.seq} />
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
      return <ToolStep call={entry} result={null} />;
    case "tool_result":
      return <ToolStep call={null} result={entry} />;
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
      return (
        <div className="entry entry-error">
          <PlainText text={entry.message} />
        </div>
      );
    case "notice":
      return (
        <div className="entry entry-notice" data-source={entry.source}>
          <span className="entry-label">{entry.source === "engine" ? "Engine" : "Switchboard"}</span>{" "}
          <PlainText text={entry.text} />
        </div>
      );
    case "permission":
      return (
        <div className={`entry entry-permission${entry.decision === "deny" ? " entry-failed" : ""}`}>
          <span className="entry-label">{entry.decision === "allow" ? "Allowed" : "Denied"}</span> {entry.tool}
          {entry.target ? <span className="muted"> {entry.target}</span> : null}{" "}
          <Coded raw={`level ${entry.level}, rule ${entry.rule}`} className="muted">
            ({permissionRuleWords(entry.rule)})
          </Coded>
        </div>
      );
  }
});

/**
 * A tool step drawn as `stepOf` describes it: one summary line (✓ or ✗, the tool, its input in a
 * line, exit code, start and duration) that opens on a click to its input (file edits as diffs)
 * and output; a failure shows its output's last lines without being opened.
 */
import { useRef, useState } from "react";
import type { Entry } from "../../../shared/api/types.generated";
import { fileEdits } from "../../../shared/edits";
import { Diff } from "../../../shared/ui/Diff";
import { clockTime } from "./times";
import { failureTail, moreLines, openedOutput, stepOf, type Step, type StepStatus } from "./steps";
import "../../../shared/ui/code.css";
import { exactTime } from "../../../shared/time";

type ToolCall = Extract<Entry, { kind: "tool_call" }>;
type ToolResult = Extract<Entry, { kind: "tool_result" }>;

/** A shape and a word for each state: the colour only repeats what they say. */
const STATUS: Record<StepStatus, { icon: string; text: string }> = {
  ok: { icon: "✓", text: "Succeeded" },
  failed: { icon: "✗", text: "Failed" },
  running: { icon: "…", text: "Running" },
};

function StatusMark({ status }: { status: StepStatus }) {
  return (
    <span className="step-status" data-status={status}>
      <span aria-hidden="true">{STATUS[status].icon}</span>
      <span className="visually-hidden">{STATUS[status].text}</span>
    </span>
  );
}

/** A shell command as a prompt line; the "$ " is the prompt's, not the command's. */
function Command({ command }: { command: string }) {
  return (
    <>
      <span className="step-prompt" aria-hidden="true">
        ${" "}
      </span>
      <code className="step-command">{command}</code>
    </>
  );
}

/** An output's lines, with "+ N more lines" where the rest is left out (before an end, after a start). */
function Lines({
  shown,
  more,
  before,
  onMore,
}: {
  shown: string[];
  more: number;
  before: boolean;
  onMore: () => void;
}) {
  const button = more > 0 && (
    <button type="button" className="link-button step-more" onClick={onMore}>
      {moreLines(more)}
    </button>
  );
  return (
    <>
      {before && button}
      {shown.length > 0 ? (
        <pre className="code-block tool-output">{shown.join("\n")}</pre>
      ) : (
        <span className="muted">No output.</span>
      )}
      {!before && button}
    </>
  );
}

function Opened({ call, step }: { call: ToolCall | null; step: Step }) {
  const [all, setAll] = useState(false);
  const edits = call && fileEdits(call.name, call.input);
  const output = openedOutput(step, all);
  return (
    <>
      {edits?.map((edit, i) => (
        <Diff key={i} edit={edit} />
      ))}
      {!edits && step.command !== null && (
        <pre className="code-block">
          <Command command={step.command} />
        </pre>
      )}
      {!edits && step.fields.length > 0 && <pre className="code-block step-fields">{step.fields.join("\n")}</pre>}
      {step.status !== "running" && (
        <div aria-label="Result" role="group">
          <Lines {...output} before={step.status === "failed"} onMore={() => setAll(true)} />
        </div>
      )}
    </>
  );
}

/** A call and its result (`null` while the tool runs; a result whose call is not held has `call` null). */
export function ToolStep({ call, result }: { call: ToolCall | null; result: ToolResult | null }) {
  const step = stepOf(call, result);
  const details = useRef<HTMLDetailsElement>(null);
  // The output is drawn only once opened: a closed step holds up to 64 KiB of it.
  const [open, setOpen] = useState(false);
  const tail = open ? null : failureTail(step);
  const started = call && clockTime(call);
  return (
    <div className={`entry entry-tool${step.status === "failed" ? " entry-failed" : ""}`}>
      <details ref={details} data-tool-state={step.status} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          <StatusMark status={step.status} /> <span className="entry-label">{step.name}</span>{" "}
          <span className="muted">{step.command !== null ? <Command command={step.summary} /> : step.summary}</span>
          <span className="muted entry-when">
            {step.status === "running" && "running…"}
            {step.exitCode !== null && <span title="Exit code">exit {step.exitCode}</span>}
            {started && (
              <time dateTime={call.at ?? undefined} title={call.at ? exactTime(call.at) : undefined}>
                {started}
              </time>
            )}
            {step.duration && <span title="How long the tool ran">{step.duration}</span>}
          </span>
        </summary>
        {open && <Opened call={call} step={step} />}
      </details>
      {tail && (
        <div className="step-tail" aria-label="Last lines of the output" role="group">
          <Lines {...tail} before onMore={() => details.current?.setAttribute("open", "")} />
        </div>
      )}
    </div>
  );
}

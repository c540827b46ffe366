/**
 * One pending approval under its `cli_pending` row: the tool, why it asks, its input (a command
 * as code, an edit as a diff, a path, a plan, the session an agent asks to pause or archive), and
 * Approve / Deny / Always for this session.
 */
import { errorMessage } from "../api/errorMessage";
import "./answers.css";
import type { Approval, Remember } from "../api/types.generated";
import { Diff } from "../ui/Diff";
import "../ui/code.css";
import { describeInput, type InputView } from "./approvals";
import type { Decision } from "./useApprovals";
import { Pill } from "../ui/Pill";

function Input({ view }: { view: InputView }) {
  switch (view.kind) {
    case "command":
      return (
        <>
          {view.description && <p className="muted approval-description">{view.description}</p>}
          <pre className="code-block">
            <code>{view.command}</code>
          </pre>
        </>
      );
    case "diff":
      return (
        <>
          {view.edits.map((edit, i) => (
            <Diff key={i} edit={edit} />
          ))}
        </>
      );
    case "path":
      return <code className="approval-path">{view.path}</code>;
    case "url":
      return <code className="approval-path">{view.url}</code>;
    case "plan":
      return <pre className="code-block approval-plan">{view.plan}</pre>;
    case "session":
      return (
        <p className="approval-description">
          Asks to {view.verb} session {view.title ?? <code>{view.sessionId}</code>}
          {view.title && (
            <>
              {" "}
              (<code>{view.sessionId}</code>)
            </>
          )}
        </p>
      );
    case "json":
      return <pre className="code-block">{view.text}</pre>;
  }
}

interface Props {
  approval: Approval;
  busy: boolean;
  error: unknown;
  onDecide: (decision: Decision, remember: Remember) => void;
}

export function ApprovalCard({ approval, busy, error, onDecide }: Props) {
  const view = describeInput(approval.tool, approval.input, approval.target);
  return (
    <div className="approval" data-approval-id={approval.id} aria-label={`Approval for ${approval.tool}`} role="group">
      <div className="approval-head">
        <Pill>{approval.tool}</Pill>
        <span className="muted">{approval.reason}</span>
      </div>
      <Input view={view} />
      {error !== undefined && (
        <p className="approval-error" role="alert">
          {errorMessage(error)}
        </p>
      )}
      <div className="approval-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => onDecide("allow", "once")}>
          Approve
        </button>
        <button type="button" disabled={busy} onClick={() => onDecide("deny", "once")}>
          Deny
        </button>
        <button
          type="button"
          disabled={busy}
          title="Allow this and the session's further calls of the same tool and target"
          onClick={() => onDecide("allow", "session")}
        >
          Always for this session
        </button>
      </div>
    </div>
  );
}

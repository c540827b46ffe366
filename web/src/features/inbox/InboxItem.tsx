/**
 * One inbox row: a checkbox, what it is, its buttons, and (a `cli_pending` row) what is answered
 * in place: its session's pending approvals, or its input request or key proposal. Clicking the
 * row selects it.
 */
import type { ReactNode } from "react";
import type { InboxRow } from "../../shared/api/types.generated";
import { rowTitleWords } from "../../shared/humanize";
import { daysInWords } from "../../shared/time";
import { navigate } from "../../shared/router";
import { Coded } from "../../shared/ui/Coded";
import { bodyView, CATEGORY_LABEL, openTarget, settingFix } from "./list";
import { Pill } from "../../shared/ui/Pill";
import { When } from "../../shared/ui/When";

interface Props {
  row: InboxRow;
  /** The time now (ms), for "3 min ago". */
  now: number;
  selected: boolean;
  checked: boolean;
  onCheck: () => void;
  onSelect: () => void;
  onOpen: () => void;
  onRead: (read: boolean) => void;
  onArchive: () => void;
  /** Only on an alert. */
  onStartSession?: () => void;
  /** Only on a row asking to approve a schedule or rule an agent made; says what it approves. */
  approve?: { label: string; busy: boolean; run: () => void };
  /** What a `cli_pending` row answers in place, shown under it: approvals, a request or a proposal. */
  pending?: ReactNode;
}

export function InboxItem({
  row,
  now,
  selected,
  checked,
  onCheck,
  onSelect,
  onOpen,
  onRead,
  onArchive,
  onStartSession,
  approve,
  pending,
}: Props) {
  const unread = row.readAt === null;
  const title = rowTitleWords(row.title);
  const fix = settingFix(row);
  return (
    <li
      id={`inbox-row-${row.id}`}
      className={`inbox-row ${unread ? "unread" : "read"}${selected ? " selected" : ""}`}
      aria-current={selected ? "true" : undefined}
      data-row-id={row.id}
      tabIndex={-1}
      onClick={onSelect}
    >
      {/* The label around the box is what a finger taps: the box alone is too small a target. */}
      <label className="inbox-check">
        <input type="checkbox" aria-label={`Select ${row.title}`} checked={checked} onChange={onCheck} />
      </label>
      <div className="inbox-main">
        <div className="inbox-head">
          <Pill>{CATEGORY_LABEL[row.category]}</Pill>
          <strong>
            <Coded raw={title.raw}>{daysInWords(title.words, now)}</Coded>
          </strong>
          {row.count > 1 && <span className="muted">×{row.count}</span>}
          <When className="muted inbox-time" at={row.updatedAt} now={now} />
        </div>
        {row.body && <Body body={row.body} />}
        {/* Not among the buttons shown on hover: what waits for approval says so at once. */}
        {approve && (
          <div className="inbox-approve">
            <button
              type="button"
              className="primary"
              aria-label={approve.label}
              disabled={approve.busy}
              aria-busy={approve.busy || undefined}
              onClick={(event) => {
                event.stopPropagation();
                approve.run();
              }}
            >
              Approve
            </button>
          </div>
        )}
        {/* The fix is a setting: named as the settings page names it, one click away. */}
        {fix && (
          <div className="inbox-approve">
            <button
              type="button"
              title={`Setting key: ${fix.key}`}
              onClick={(event) => {
                event.stopPropagation();
                navigate(fix.path);
              }}
            >
              Open setting: {fix.label}
            </button>
          </div>
        )}
        {pending}
      </div>
      <div className="inbox-actions">
        {openTarget(row) && (
          <button type="button" onClick={onOpen}>
            Open
          </button>
        )}
        {onStartSession && (
          <button type="button" onClick={onStartSession}>
            Start session
          </button>
        )}
        <button type="button" onClick={() => onRead(unread)}>
          {unread ? "Mark read" : "Mark unread"}
        </button>
        <button type="button" onClick={onArchive}>
          Archive
        </button>
      </div>
    </li>
  );
}

function Body({ body }: { body: string }) {
  const view = bodyView(body);
  if (view.kind === "text") return <p className="inbox-body">{view.text}</p>;
  return (
    <details className="inbox-body inbox-json" onClick={(event) => event.stopPropagation()}>
      <summary>{view.summary}</summary>
      <pre>{view.pretty}</pre>
    </details>
  );
}

/**
 * One inbox row: a checkbox, what it is, its buttons, and (a `cli_pending` row) what is answered
 * in place: its session's pending approvals, or its input request or key proposal. Clicking the
 * row selects it.
 */
import type { ReactNode } from "react";
import type { InboxRow } from "../../shared/api/types.generated";
import { rowTitleWords } from "../../shared/humanize";
import { exactTime, relativeTime } from "../../shared/time";
import { Coded } from "../../shared/ui/Coded";
import { bodyView, CATEGORY_LABEL, openTarget } from "./list";

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
  return (
    <li
      id={`inbox-row-${row.id}`}
      className={`inbox-row ${unread ? "unread" : "read"}${selected ? " selected" : ""}`}
      aria-current={selected ? "true" : undefined}
      data-row-id={row.id}
      onClick={onSelect}
    >
      {/* The label around the box is what a finger taps: the box alone is too small a target. */}
      <label className="inbox-check">
        <input type="checkbox" aria-label={`Select ${row.title}`} checked={checked} onChange={onCheck} />
      </label>
      <div className="inbox-main">
        <div className="inbox-head">
          <span className="tag">{CATEGORY_LABEL[row.category]}</span>
          <strong>
            <Coded raw={title.raw}>{title.words}</Coded>
          </strong>
          {row.count > 1 && <span className="muted">×{row.count}</span>}
          <time className="muted inbox-time" dateTime={row.updatedAt} title={exactTime(row.updatedAt)}>
            {relativeTime(row.updatedAt, now)}
          </time>
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

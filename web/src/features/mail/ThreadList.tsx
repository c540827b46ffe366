/**
 * A folder's threads, newest first: who, the subject and its first words, how many messages,
 * unread in bold, a star when starred, a box for X's selection; "Load more" asks for the next
 * page by cursor. Row spacing follows `mailclientDensity`.
 */
import type { ThreadSummary } from "./api";
import { When } from "../../shared/ui/When";

interface Props {
  threads: readonly ThreadSummary[];
  open: string | null;
  selected: ReadonlySet<string>;
  now: number;
  more: boolean;
  loading: boolean;
  label: string;
  onOpen: (id: string) => void;
  onToggleSelect: (id: string) => void;
  onLoadMore: () => void;
}

const who = (thread: ThreadSummary) => thread.participants.join(", ") || "(nobody)";

export function ThreadList({ threads, open, selected, now, more, loading, label, ...on }: Props) {
  return (
    <div className="mail-list-wrap">
      <ul className="mail-list" aria-label={label}>
        {threads.map((thread) => (
          <li
            key={thread.id}
            className={`mail-row${thread.unread > 0 ? " unread" : ""}${thread.id === open ? " open" : ""}`}
            data-thread-id={thread.id}
          >
            <label className="mail-row-check">
              <input
                type="checkbox"
                checked={selected.has(thread.id)}
                onChange={() => on.onToggleSelect(thread.id)}
                aria-label={`Select ${thread.subject || "(no subject)"}`}
              />
            </label>
            <button
              type="button"
              className="mail-row-open"
              aria-current={thread.id === open ? "true" : undefined}
              onClick={() => on.onOpen(thread.id)}
            >
              <span className="mail-row-who">
                {thread.unread > 0 && <span className="visually-hidden">Unread: </span>}
                {who(thread)}
                {thread.count > 1 && <span className="muted mail-row-count"> {thread.count}</span>}
              </span>
              <span className="mail-row-subject">
                {thread.starred && (
                  <span className="mail-star" aria-label="Starred">
                    ★{" "}
                  </span>
                )}
                {thread.subject || "(no subject)"}
                <span className="muted mail-row-snippet"> — {thread.snippet}</span>
              </span>
              {thread.date ? <When className="muted mail-row-date" at={thread.date} now={now} /> : <span />}
            </button>
          </li>
        ))}
      </ul>
      {more && (
        <button type="button" className="load-more" disabled={loading} onClick={on.onLoadMore}>
          {loading ? "Loading…" : "Load more"}
        </button>
      )}
    </div>
  );
}

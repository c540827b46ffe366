/**
 * A feed's entries, newest first: title, feed, first words and age; unread in bold, a star when
 * starred. "Load more" asks for the next page by cursor.
 */
import { When } from "../../shared/ui/When";
import type { FeedEntry } from "./api";

interface Props {
  entries: readonly FeedEntry[];
  open: number | null;
  now: number;
  more: boolean;
  loading: boolean;
  showFeed: boolean;
  onOpen: (id: number) => void;
  onLoadMore: () => void;
}

export function EntryList({ entries, open, now, more, loading, showFeed, onOpen, onLoadMore }: Props) {
  return (
    <div className="feeds-entries-wrap">
      <ul className="feeds-entries" aria-label="Entries">
        {entries.map((entry) => (
          <li
            key={entry.id}
            className={`feeds-entry${entry.read ? "" : " unread"}${entry.id === open ? " open" : ""}`}
            data-entry-id={entry.id}
          >
            <button
              type="button"
              className="feeds-entry-open"
              aria-current={entry.id === open ? "true" : undefined}
              onClick={() => onOpen(entry.id)}
            >
              <span className="feeds-entry-title">
                {!entry.read && <span className="visually-hidden">Unread: </span>}
                {entry.starred && (
                  <span className="feeds-star" aria-label="Starred">
                    ★{" "}
                  </span>
                )}
                {entry.title || "(untitled)"}
              </span>
              <When className="muted feeds-entry-date" at={entry.publishedAt ?? entry.fetchedAt} now={now} />
              <span className="muted feeds-entry-snippet">
                {showFeed && <span className="feeds-entry-feed">{entry.feedTitle} · </span>}
                {entry.summary}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {more && (
        <button type="button" className="load-more" disabled={loading} onClick={onLoadMore}>
          {loading ? "Loading…" : "Load more"}
        </button>
      )}
    </div>
  );
}

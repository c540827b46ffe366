/**
 * The feeds beside the entries: "All feeds" first, then each feed by title with its unread count,
 * and a failing feed's reason under its name, so a broken feed is seen where it is chosen. On a
 * phone the same choice is a select.
 */
import type { Feed } from "./api";
import { feedStatusText, totalUnread } from "./reader";

interface Props {
  feeds: readonly Feed[];
  chosen: string | null;
  narrow: boolean;
  now: number;
  onChoose: (feedId: string | null) => void;
}

const ALL = "";

export function FeedList({ feeds, chosen, narrow, now, onChoose }: Props) {
  const all = totalUnread(feeds);
  if (narrow) {
    return (
      <div className="feeds-field">
        <label htmlFor="feeds-feed">Feed</label>
        <select id="feeds-feed" value={chosen ?? ALL} onChange={(e) => onChoose(e.target.value || null)}>
          <option value={ALL}>All feeds{all > 0 ? ` (${all})` : ""}</option>
          {feeds.map((f) => (
            <option key={f.id} value={f.id}>
              {f.title}
              {f.unread > 0 ? ` (${f.unread})` : ""}
              {f.status === "failing" ? " — failing" : ""}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return (
    <nav className="feeds-list" aria-label="Feeds">
      <ul>
        <li>
          <button
            type="button"
            className="feeds-feed"
            aria-current={chosen === null ? "true" : undefined}
            onClick={() => onChoose(null)}
          >
            <span className="feeds-feed-title">All feeds</span>
            <Count count={all} />
          </button>
        </li>
        {feeds.map((f) => (
          <li key={f.id}>
            <button
              type="button"
              className={`feeds-feed${f.status === "failing" ? " failing" : ""}`}
              aria-current={chosen === f.id ? "true" : undefined}
              data-status={f.status}
              onClick={() => onChoose(f.id)}
            >
              <span className="feeds-feed-title">{f.title}</span>
              <Count count={f.unread} />
              {f.status !== "ok" && <span className="feeds-feed-status">{feedStatusText(f, now)}</span>}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Count({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span className="feeds-count">
      {count}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}

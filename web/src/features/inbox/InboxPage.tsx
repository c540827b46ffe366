/** `/inbox`: the account's inbox rows, newest first as the server lists them. */
import type { InboxRow } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { ErrorNote, Loading } from "../../shared/ui/Status";

export function InboxPage() {
  const inbox = useApi<InboxRow[]>("/inbox");
  return (
    <section className="page">
      <header className="page-head">
        <h1>Inbox</h1>
        <button type="button" onClick={inbox.reload}>
          Refresh
        </button>
      </header>
      {inbox.error !== undefined && <ErrorNote error={inbox.error} onRetry={inbox.reload} />}
      {inbox.loading && !inbox.data && <Loading what="the inbox" />}
      {inbox.data?.length === 0 && <p className="muted">The inbox is empty.</p>}
      <ul className="inbox-list">
        {inbox.data?.map((row) => (
          <li key={row.id} className={row.readAt ? "read" : "unread"}>
            <div className="inbox-head">
              <span className="tag">{row.category}</span>
              <strong>{row.title}</strong>
              <time className="muted" dateTime={row.createdAt}>
                {new Date(row.createdAt).toLocaleString()}
              </time>
            </div>
            {row.body && <p className="inbox-body">{row.body}</p>}
          </li>
        ))}
      </ul>
    </section>
  );
}

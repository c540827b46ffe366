/** `/inbox`: the account's inbox rows, newest first as the server lists them. */
import type { InboxRow } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { ListPage } from "../../shared/ui/ListPage";

export function InboxPage() {
  const inbox = useApi<InboxRow[]>("/inbox");
  return (
    <ListPage title="Inbox" resource={inbox} what="the inbox" empty="The inbox is empty.">
      {(rows) => (
        <ul className="inbox-list">
          {rows.map((row) => (
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
      )}
    </ListPage>
  );
}

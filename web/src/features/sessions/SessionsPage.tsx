/** `/sessions`: the account's agent sessions, or a plain word when the server has no such route. */
import { ApiError } from "../../shared/api/client";
import type { Session } from "../../shared/api/types.generated";
import { useApi } from "../../shared/hooks/useApi";
import { ListPage } from "../../shared/ui/ListPage";
import { NotBuilt } from "../../shared/ui/Status";

export function SessionsPage() {
  const sessions = useApi<Session[]>("/sessions");
  if (sessions.error instanceof ApiError && sessions.error.status === 404) {
    return <NotBuilt title="Sessions" />;
  }
  return (
    <ListPage title="Sessions" resource={sessions} what="sessions" empty="No sessions yet.">
      {(rows) => (
        <table className="plain-table">
          <thead>
            <tr>
              <th>Title</th>
              <th>Engine</th>
              <th>Status</th>
              <th>Turns</th>
              <th>Cost</th>
              <th>Started</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>{s.title || s.id}</td>
                <td>{s.engine}</td>
                <td>
                  <span className={`tag status-${s.status}`}>{s.status}</span>
                  {s.agentDriven && <span className="muted"> · agent-driven</span>}
                  {s.error && <div className="inline-error">{s.error}</div>}
                </td>
                <td>{String(s.turns)}</td>
                <td>{typeof s.costUsd === "number" ? `$${s.costUsd.toFixed(2)}` : ""}</td>
                <td>{new Date(s.createdAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListPage>
  );
}

/**
 * The Dashboards section of the left navigation: the workspace's dashboards, and + to create
 * one (named, with an empty grid) and open it at `/dashboards/<id>`.
 */
import { errorMessage } from "../../shared/api/errorMessage";
import { navigate } from "../../shared/router";
import { useEffect, useState } from "react";
import { type Dashboard, createDashboard, listDashboards } from "./api";
import { Button } from "../../shared/ui/Button";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import "./dashboardsSection.css";

export interface DashboardsSectionProps {
  workspaceId: string;
}

export function DashboardsSection({ workspaceId }: DashboardsSectionProps) {
  const [dashboards, setDashboards] = useState<Dashboard[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);

  // Another workspace starts from nothing while its list loads.
  const [shownWorkspace, setShownWorkspace] = useState(workspaceId);
  if (shownWorkspace !== workspaceId) {
    setShownWorkspace(workspaceId);
    setDashboards(null);
    setError(null);
  }

  useEffect(() => {
    let live = true;
    listDashboards(workspaceId).then(
      (list) => live && setDashboards(list),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [workspaceId]);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await createDashboard(workspaceId, name.trim() || "Untitled dashboard");
      navigate(`/dashboards/${created.id}`);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <section className="page dashboards-section touch" aria-label="Dashboards">
      <PageHeader
        title="Dashboards"
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New dashboard
          </Button>
        }
      />
      {creating && (
        <form className="dashboards-create" onSubmit={create}>
          <input
            aria-label="New dashboard name"
            placeholder="Dashboard name"
            value={name}
            autoFocus
            onChange={(e) => setName(e.target.value)}
          />
          <button type="button" onClick={() => setCreating(false)}>
            Cancel
          </button>
          <button type="submit" disabled={busy}>
            Create
          </button>
        </form>
      )}
      {error && <p className="inline-error">{error}</p>}
      {dashboards === null && !error && <p className="muted">Loading…</p>}
      {dashboards?.length === 0 && <EmptyState>No dashboards yet: New dashboard makes one.</EmptyState>}
      <ul className="dashboards-list">
        {dashboards?.map((d) => (
          <li key={d.id}>
            <a
              href={`/dashboards/${d.id}`}
              onClick={(e) => {
                e.preventDefault();
                navigate(`/dashboards/${d.id}`);
              }}
            >
              {d.name}
            </a>
            <span className="muted">
              {" "}
              · {Array.isArray(d.config?.boardIds) ? d.config.boardIds.length : 0} boards ·{" "}
              {Array.isArray(d.config?.widgets) ? d.config.widgets.length : 0} widgets
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

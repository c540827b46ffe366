/**
 * The application shell; pages are mounted here as they are built. The dashboard routes below
 * are a stand-in for the shell's router until it is merged.
 */
import { useEffect, useState } from "react";
import { DashboardPage } from "./features/dashboards/DashboardPage";
import { DashboardsSection } from "./features/dashboards/DashboardsSection";
import { PublicDashboardPage } from "./features/dashboards/PublicDashboardPage";
import { apiFetch } from "./shared/api/client";

function navigate(path: string) {
  window.history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

function usePath(): string {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  return path;
}

function WorkspaceDashboards() {
  const [workspaceId, setWorkspaceId] = useState<string | null>(null);
  useEffect(() => {
    apiFetch<{ id: string }[]>("/workspaces").then((list) => setWorkspaceId(list[0]?.id ?? null));
  }, []);
  return workspaceId ? <DashboardsSection workspaceId={workspaceId} navigate={navigate} /> : <p>No workspace yet.</p>;
}

export function App() {
  const path = usePath();
  const dashboard = /^\/dashboards\/([^/]+)$/.exec(path);
  if (dashboard) return <DashboardPage id={decodeURIComponent(dashboard[1] as string)} />;
  const published = /^\/p\/([^/]+)$/.exec(path);
  if (published) return <PublicDashboardPage token={decodeURIComponent(published[1] as string)} />;
  if (path === "/dashboards") return <WorkspaceDashboards />;
  return (
    <main>
      <h1>Switchboard</h1>
      <p>
        The web app is being built. Log in through the URL that <code>switchboard serve</code> prints.
      </p>
    </main>
  );
}

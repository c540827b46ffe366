/**
 * Temporary stand-ins for the dashboards feature, which another branch builds
 * in features/dashboards/: the router imports these three names from here
 * until that branch is merged, then from their own files.
 */
import { NotBuilt } from "../shared/ui/Status";

export function DashboardsSection({ workspaceId }: { workspaceId: string }) {
  return <NotBuilt title="Dashboards">{workspaceId ? null : <p>Choose a workspace first.</p>}</NotBuilt>;
}

export function DashboardPage({ id }: { id: string }) {
  return <NotBuilt title={`Dashboard ${id}`} />;
}

export function PublicDashboardPage({ token }: { token: string }) {
  return <NotBuilt title={token ? "Shared dashboard" : "Dashboard"} />;
}

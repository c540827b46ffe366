/**
 * The route `/dashboards/<id>`. The page itself, with the grid library and its styles, is
 * loaded on demand so it stays out of the app's first load.
 */
import { Suspense, lazy } from "react";

const DashboardView = lazy(() => import("./DashboardView").then((m) => ({ default: m.DashboardView })));

export function DashboardPage({ id }: { id: string }) {
  return (
    <Suspense fallback={<p>Loading dashboard…</p>}>
      <DashboardView id={id} />
    </Suspense>
  );
}

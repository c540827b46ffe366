/**
 * The route `/p/<token>`: a published dashboard for anyone with the link, read-only, without
 * login. Loaded on demand like the dashboard page.
 */
import { Suspense, lazy } from "react";

const PublicDashboardView = lazy(() =>
  import("./PublicDashboardView").then((m) => ({ default: m.PublicDashboardView })),
);

export function PublicDashboardPage({ token }: { token: string }) {
  return (
    <Suspense fallback={<p>Loading dashboard…</p>}>
      <PublicDashboardView token={token} />
    </Suspense>
  );
}

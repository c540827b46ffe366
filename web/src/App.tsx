/**
 * The application: the public dashboard link renders for anyone; every other
 * path needs the session cookie, and a visitor without one is told how to log in.
 */
import { useCallback, useEffect, useState } from "react";
import { apiFetch } from "./shared/api/client";
import type { BrowserSession, Me } from "./shared/api/types.generated";
import { ErrorNote, Loading } from "./shared/ui/Status";
import { ToastProvider } from "./shared/ui/toasts";
import { LoginPage } from "./app/LoginPage";
import { PublicDashboardPage } from "./features/dashboards/PublicDashboardPage";
import { matchRoute, usePathname } from "./shared/router";
import { SettingsProvider, SystemAppearance } from "./shared/settings";
import { Shell } from "./app/Shell";
import { WorkspacesProvider } from "./shared/workspaces";

type Session = { state: "checking" } | { state: "in"; me: Me } | { state: "out" } | { state: "failed"; error: unknown };

export function App() {
  const route = matchRoute(usePathname());
  return (
    <ToastProvider>
      {route.name === "publicDashboard" ? (
        <>
          <SystemAppearance />
          <PublicDashboardPage token={route.token} />
        </>
      ) : (
        <SessionGate>{() => <Shell route={route} />}</SessionGate>
      )}
    </ToastProvider>
  );
}

function SessionGate({ children }: { children: () => React.ReactNode }) {
  const [session, setSession] = useState<Session>({ state: "checking" });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    // `/session` answers 200 signed in or not, so a visitor's first page logs no failed request.
    apiFetch<BrowserSession>("/session").then(
      ({ me }) => setSession(me ? { state: "in", me } : { state: "out" }),
      (error: unknown) => setSession({ state: "failed", error }),
    );
  }, [attempt]);
  const retry = useCallback(() => {
    setSession({ state: "checking" });
    setAttempt((n) => n + 1);
  }, []);

  switch (session.state) {
    case "checking":
      return <Loading what="Switchboard" />;
    case "out":
      return (
        <>
          <SystemAppearance />
          <LoginPage />
        </>
      );
    case "failed":
      return (
        <main className="login-page">
          <ErrorNote error={session.error} onRetry={retry} />
        </main>
      );
    case "in":
      return (
        <SettingsProvider>
          <WorkspacesProvider>{children()}</WorkspacesProvider>
        </SettingsProvider>
      );
  }
}

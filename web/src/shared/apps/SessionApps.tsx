/**
 * The session page's apps: the dev servers this session runs, each with its state, and its Open
 * link and Stop while it runs (Restart once one Switchboard started has ended), and a Start button
 * for each app of its folder's `apps.toml` not listed. Hidden while the setting is off, and for a
 * session that has no app and declares none.
 */
import { useCallback } from "react";
import { Link } from "../router";
import { useSettings } from "../settings";
import { Pill } from "../ui/Pill";
import { useNow } from "../useNow";
import {
  APPS_PATH,
  declaredAppsPath,
  restartApp,
  sessionAppsPath,
  startApp,
  stopApp,
  type DeclaredApp,
  type RunningApp,
} from "./api";
import { appsEnabled, appStateLabel, appStateTone, declaredToStart, isLive, uptimeText } from "./appState";
import { useAppAction } from "./useAppAction";
import { useApps } from "./useApps";
import "./apps.css";

export function SessionApps({ sessionId }: { sessionId: string }) {
  const { values } = useSettings();
  const on = values !== undefined && appsEnabled(values);
  const apps = useApps<RunningApp[]>(on ? sessionAppsPath(sessionId) : null);
  const declared = useApps<DeclaredApp[]>(on ? declaredAppsPath(sessionId) : null);
  const now = useNow();
  const reloadApps = apps.reload;
  const reloadDeclared = declared.reload;
  const reload = useCallback(() => {
    reloadApps();
    reloadDeclared();
  }, [reloadApps, reloadDeclared]);
  const action = useAppAction(reload);

  // A failed read shows nothing: the section is an extra on a page about the session, and the
  // Running apps page says what went wrong with the same read.
  const listed = apps.data ?? [];
  const toStart = declaredToStart(declared.data ?? [], listed);
  if (!on || (listed.length === 0 && toStart.length === 0)) return null;
  return (
    <section className="session-apps touch" aria-labelledby="session-apps-heading">
      <h2 id="session-apps-heading" className="session-apps-heading">
        Apps <Link to={APPS_PATH}>All running apps</Link>
      </h2>
      {listed.length > 0 && (
        <ul className="session-app-list">
          {listed.map((app) => (
            <li key={app.name} className="session-app" data-app={app.name} data-state={app.state}>
              <code className="session-app-name">{app.name}</code>
              <Pill tone={appStateTone(app)}>{appStateLabel(app)}</Pill>
              {isLive(app) && <span className="muted">up {uptimeText(app.startedAt, now)}</span>}
              {isLive(app) && (
                <a href={app.url} target="_blank" rel="noopener" className="touch-link">
                  Open<span className="visually-hidden"> {app.name}</span>
                </a>
              )}
              {isLive(app) && (
                <button
                  type="button"
                  disabled={action.busy.has(app.name)}
                  aria-busy={action.busy.has(app.name) || undefined}
                  onClick={() => action.run(app.name, `${app.name} did not stop`, () => stopApp(app.name))}
                >
                  Stop<span className="visually-hidden"> {app.name}</span>
                </button>
              )}
              {!isLive(app) && app.origin === "started" && (
                <button
                  type="button"
                  disabled={action.busy.has(app.name)}
                  aria-busy={action.busy.has(app.name) || undefined}
                  onClick={() => action.run(app.name, `${app.name} did not restart`, () => restartApp(app.name))}
                >
                  Restart<span className="visually-hidden"> {app.name}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {toStart.length > 0 && (
        <div className="session-app-starts">
          {toStart.map((entry) => (
            <button
              key={entry.name}
              type="button"
              title={entry.command}
              disabled={action.busy.has(entry.name)}
              aria-busy={action.busy.has(entry.name) || undefined}
              onClick={() =>
                action.run(entry.name, `${entry.name} did not start`, () => startApp(sessionId, entry.name))
              }
            >
              Start {entry.name}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

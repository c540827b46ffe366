/**
 * Running apps (`/apps`, issue 64): every dev server a session runs, by session, each at its own
 * name under `.localhost` through Switchboard's proxy. A table on a wide screen, cards on a phone:
 * the app's Open link, state, session and worktree, command, port, uptime, runner (when not this
 * machine), Stop, Restart (for apps Switchboard started) and its last lines of output. The list
 * follows the event stream; with no app, the page says how one appears.
 */
import { useState } from "react";
import { ApiError } from "../../shared/api/client";
import {
  APPS_PATH,
  APPS_PROXY_PATH,
  restartApp,
  stopApp,
  type AppsProxy,
  type RunningApp,
} from "../../shared/apps/api";
import { appsEnabled, appStateLabel, appStateTone, isLive, uptimeText } from "../../shared/apps/appState";
import { useAppAction, type AppAction } from "../../shared/apps/useAppAction";
import { useApps } from "../../shared/apps/useApps";
import { useApi } from "../../shared/hooks/useApi";
import { Link, sessionPath } from "../../shared/router";
import { SETTING_LINKS } from "../../shared/settingLinks";
import { useSettings } from "../../shared/settings";
import { EmptyState } from "../../shared/ui/EmptyState";
import { PageHeader } from "../../shared/ui/PageHeader";
import { Pill } from "../../shared/ui/Pill";
import { SettingLink } from "../../shared/ui/SettingLink";
import { ErrorNote, Loading } from "../../shared/ui/Status";
import { When } from "../../shared/ui/When";
import { useMediaQuery } from "../../shared/useMediaQuery";
import { useNow } from "../../shared/useNow";
import "../../shared/ui/code.css";
import { AppOutputPanel } from "./AppOutputPanel";
import { appsSummary, groupBySession, groupTitle, runnerShown, whereText, type AppGroup } from "./apps";
import "./apps.css";

/** Below this the table gives way to cards. */
const NARROW = "(max-width: 640px)";

export function AppsPage() {
  const { values } = useSettings();
  const settingOn = values === undefined ? undefined : appsEnabled(values);
  const apps = useApps<RunningApp[]>(settingOn === false ? null : APPS_PATH);
  const proxy = useApi<AppsProxy>(settingOn === false ? null : APPS_PROXY_PATH);
  const refused = apps.error instanceof ApiError && apps.error.code === "apps_disabled";
  const off = settingOn === false || refused;
  const now = useNow();
  const narrow = useMediaQuery(NARROW);
  const action = useAppAction(apps.reload);
  const groups = apps.data && !off ? groupBySession(apps.data) : undefined;

  return (
    <section className="page apps-page touch">
      <PageHeader
        title="Running apps"
        note={apps.data && !off && <span className="muted">{appsSummary(apps.data)}</span>}
      />
      <p className="muted apps-intro">
        The dev servers your sessions run, each on a port of its own and at its own name under <code>.localhost</code>
        {proxy.data ? (
          <>
            , through Switchboard&apos;s proxy at <code>{proxy.data.url}</code>
          </>
        ) : (
          ", through Switchboard's proxy"
        )}
        .
      </p>
      {off && (
        <p className="apps-off">
          <SettingLink setting={SETTING_LINKS.runningAppsEnabled} /> is off: Switchboard lists no app and serves none
          through its proxy. Turn it on in Settings to see them here.
        </p>
      )}
      {!off && apps.error !== undefined && <ErrorNote error={apps.error} onRetry={apps.reload} />}
      {!off && !apps.data && apps.error === undefined && <Loading what="running apps" />}
      {groups && groups.length === 0 && <HowAppsAppear proxy={proxy.data} />}
      {groups &&
        groups.length > 0 &&
        (narrow ? (
          <AppCards groups={groups} now={now} action={action} />
        ) : (
          <AppTable groups={groups} now={now} action={action} />
        ))}
    </section>
  );
}

/** Nothing runs: how an app comes to be listed. */
function HowAppsAppear({ proxy }: { proxy: AppsProxy | undefined }) {
  return (
    <EmptyState className="apps-empty">
      <p>No running apps yet.</p>
      <p>
        Every session is given a port of its own in <code>$PORT</code> (and <code>$HOST</code>, <code>$APP_URL</code>
        ). An app appears here when an agent runs a dev server on it, such as <code>npm run dev</code>, or when you
        start one that the session&apos;s <code>apps.toml</code> declares, with <code>switchboard apps start NAME</code>{" "}
        or the Start button on the session&apos;s page:
      </p>
      <pre className="code-block">{`[apps.web]\ncommand = "npm run dev"`}</pre>
      <p>
        Each is opened at <code>http://&lt;name&gt;.localhost:{proxy ? proxy.port : "<port>"}/</code>
        {proxy && (
          <>
            , through the proxy at <code>{proxy.url}</code>
          </>
        )}
        : the browser finds every <code>.localhost</code> name on this machine by itself.
      </p>
    </EmptyState>
  );
}

interface ListProps {
  groups: AppGroup[];
  now: number;
  action: AppAction;
}

/** The session a group is of, as a link to its page, and where it works. */
function SessionName({ group }: { group: AppGroup }) {
  const where = whereText(group);
  return (
    <>
      <Link to={sessionPath(group.sessionId)}>{groupTitle(group)}</Link>
      {where && <span className="muted app-where"> {where}</span>}
    </>
  );
}

/** How long a live app has been up; when an exited one started. */
function Uptime({ app, now }: { app: RunningApp; now: number }) {
  if (isLive(app)) return <>{uptimeText(app.startedAt, now)}</>;
  return (
    <span className="muted">
      started <When at={app.startedAt} now={now} />
    </span>
  );
}

function OpenLink({ app }: { app: RunningApp }) {
  if (!isLive(app)) return null;
  return (
    <a href={app.url} target="_blank" rel="noopener" className="touch-link app-open">
      Open<span className="visually-hidden"> {app.name}</span>
    </a>
  );
}

/** Stop while it holds its port (one found listening too); Restart for what Switchboard started; the output. */
function AppButtons({
  app,
  action,
  outputOpen,
  outputId,
  onToggleOutput,
}: {
  app: RunningApp;
  action: AppAction;
  outputOpen: boolean;
  outputId: string;
  onToggleOutput: () => void;
}) {
  const busy = action.busy.has(app.name);
  return (
    <div className="app-buttons">
      {isLive(app) && (
        <button
          type="button"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => action.run(app.name, `${app.name} did not stop`, () => stopApp(app.name))}
        >
          Stop<span className="visually-hidden"> {app.name}</span>
        </button>
      )}
      {app.origin === "started" && (
        <button
          type="button"
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => action.run(app.name, `${app.name} did not restart`, () => restartApp(app.name))}
        >
          Restart<span className="visually-hidden"> {app.name}</span>
        </button>
      )}
      <button
        type="button"
        aria-expanded={outputOpen}
        aria-controls={outputOpen ? outputId : undefined}
        onClick={onToggleOutput}
      >
        Last lines<span className="visually-hidden"> of {app.name}</span>
      </button>
    </div>
  );
}

/** Which apps' output is open, by name. */
function useOpenOutputs() {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (name: string) =>
    setOpen((held) => {
      const next = new Set(held);
      if (!next.delete(name)) next.add(name);
      return next;
    });
  return { open, toggle };
}

const outputId = (name: string) => `app-output-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

function AppTable({ groups, now, action }: ListProps) {
  const outputs = useOpenOutputs();
  const withRunner = groups.some((group) => group.apps.some((app) => runnerShown(app) !== null));
  const columns = withRunner ? 8 : 7;
  return (
    <div className="table-scroll">
      <table className="plain-table apps-table" aria-label="Running apps">
        <thead>
          <tr>
            <th scope="col">App</th>
            <th scope="col">State</th>
            <th scope="col">Command</th>
            <th scope="col">Port</th>
            <th scope="col">Up</th>
            {withRunner && <th scope="col">Runner</th>}
            <th scope="col">Open</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        {groups.map((group) => (
          <tbody key={group.sessionId} data-session={group.sessionId}>
            <tr className="apps-session-row">
              <th scope="rowgroup" colSpan={columns}>
                <SessionName group={group} />
              </th>
            </tr>
            {group.apps.map((app) => {
              const open = outputs.open.has(app.name);
              return [
                <tr key={app.name} data-app={app.name} data-state={app.state}>
                  <td>
                    <code className="app-name">{app.name}</code>
                  </td>
                  <td>
                    <Pill tone={appStateTone(app)}>{appStateLabel(app)}</Pill>
                  </td>
                  <td>
                    <code className="app-command">{app.command}</code>
                  </td>
                  <td>{app.port}</td>
                  <td className="app-up">
                    <Uptime app={app} now={now} />
                  </td>
                  {withRunner && <td>{runnerShown(app) ?? <span className="muted">This machine</span>}</td>}
                  <td>
                    <OpenLink app={app} />
                  </td>
                  <td>
                    <AppButtons
                      app={app}
                      action={action}
                      outputOpen={open}
                      outputId={outputId(app.name)}
                      onToggleOutput={() => outputs.toggle(app.name)}
                    />
                  </td>
                </tr>,
                open && (
                  <tr key={`${app.name}:output`} className="app-output-row">
                    <td colSpan={columns}>
                      <AppOutputPanel app={app} id={outputId(app.name)} />
                    </td>
                  </tr>
                ),
              ];
            })}
          </tbody>
        ))}
      </table>
    </div>
  );
}

function AppCards({ groups, now, action }: ListProps) {
  const outputs = useOpenOutputs();
  return (
    <div className="app-groups">
      {groups.map((group) => (
        <section key={group.sessionId} className="app-group" data-session={group.sessionId}>
          <h2 className="app-group-title">
            <SessionName group={group} />
          </h2>
          <ul className="app-cards" aria-label={`Apps of ${groupTitle(group)}`}>
            {group.apps.map((app) => {
              const runner = runnerShown(app);
              const open = outputs.open.has(app.name);
              return (
                <li key={app.name} className="app-card" data-app={app.name} data-state={app.state}>
                  <div className="app-card-head">
                    <code className="app-name">{app.name}</code>
                    <Pill tone={appStateTone(app)}>{appStateLabel(app)}</Pill>
                    <OpenLink app={app} />
                  </div>
                  <dl className="app-facts">
                    <div>
                      <dt>Command</dt>
                      <dd>
                        <code className="app-command">{app.command}</code>
                      </dd>
                    </div>
                    <div>
                      <dt>Port</dt>
                      <dd>{app.port}</dd>
                    </div>
                    <div>
                      <dt>Up</dt>
                      <dd>
                        <Uptime app={app} now={now} />
                      </dd>
                    </div>
                    {runner && (
                      <div>
                        <dt>Runner</dt>
                        <dd>{runner}</dd>
                      </div>
                    )}
                  </dl>
                  <AppButtons
                    app={app}
                    action={action}
                    outputOpen={open}
                    outputId={outputId(app.name)}
                    onToggleOutput={() => outputs.toggle(app.name)}
                  />
                  {open && <AppOutputPanel app={app} id={outputId(app.name)} />}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** The signed-in app: left navigation, the workspace switcher, and the page of the route. */
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useState } from "react";
import { BoardPage } from "../features/boards/BoardPage";
import { BoardsPage } from "../features/boards/BoardsPage";
import { AlarmRinger } from "../features/alarms/AlarmRinger";
import { CalendarSidebar } from "../features/calendar/CalendarSidebar";
import { calendarShown } from "../features/calendar/visibility";
import { AgentRequests } from "./AgentRequests";
import { BookmarksButton } from "../features/bookmarks/BookmarksButton";
import { InboxPage } from "../features/inbox/InboxPage";
import { SessionsPage } from "../features/sessions/SessionsPage";
import { NeedsYou } from "../features/sessions/NeedsYouSection";
import { NewSessionButton, NewSessionDialog } from "../features/sessions/NewSessionDialog";
import { useNextNeedsYouKey } from "../features/sessions/useNextNeedsYou";
import { FocusControls } from "../shared/focus/FocusControls";
import { FocusProvider } from "../shared/focus/FocusProvider";
import { InboxStatusProvider, useInboxStatus } from "../shared/inbox/InboxStatus";
import { ErrorNote, Loading } from "../shared/ui/Status";
import { useToast } from "../shared/ui/toasts";
import { colorModeOf, resolveTheme } from "../shared/appearance";
import { pageTitle } from "../shared/ui/pageTitle";
import { themeToggle } from "./themeToggle";
import { DashboardPage } from "../features/dashboards/DashboardPage";
import { DashboardsSection } from "../features/dashboards/DashboardsSection";
import { Link, navigate, usePathname, type Route } from "../shared/router";
import { useSettings } from "../shared/settings";
import { NewWorkspaceForm, WorkspaceSwitcher } from "./WorkspaceSwitcher";
import { useWorkspaces } from "../shared/workspaces";
import { ConnectionIndicator } from "../shared/stream/ConnectionIndicator";
import { CommandPalette } from "./CommandPalette";

// The settings page carries the whole generated catalog: it loads when opened, not with the app.
// The session page carries Markdown, diffs and the virtual list (half the app's code): it too
// loads when opened, so the board and the other pages do not wait for it.
const SessionPage = lazy(() => import("../features/sessions/SessionPage").then((m) => ({ default: m.SessionPage })));
const SettingsPage = lazy(() => import("../features/settings/SettingsPage").then((m) => ({ default: m.SettingsPage })));
const TasksPage = lazy(() => import("../features/tasks/TasksPage").then((m) => ({ default: m.TasksPage })));
const BugIntakePage = lazy(() => import("../features/bugs/BugIntakePage").then((m) => ({ default: m.BugIntakePage })));
const RunnersPage = lazy(() => import("../features/runners/RunnersPage").then((m) => ({ default: m.RunnersPage })));
const WorkPage = lazy(() => import("../features/work/WorkPage").then((m) => ({ default: m.WorkPage })));
const ScheduledMessagesPage = lazy(() =>
  import("../features/drips/ScheduledMessagesPage").then((m) => ({ default: m.ScheduledMessagesPage })),
);
const DripsPage = lazy(() => import("../features/drips/DripsPage").then((m) => ({ default: m.DripsPage })));
const CalendarPage = lazy(() => import("../features/calendar/CalendarPage").then((m) => ({ default: m.CalendarPage })));
const AutomationsPage = lazy(() =>
  import("../features/automations/AutomationsPage").then((m) => ({ default: m.AutomationsPage })),
);

// The agent board is home: it is what a person running agents keeps open.
const SECTIONS = [
  { to: "/", label: "Agents", routes: ["sessions", "session"] },
  { to: "/inbox", label: "Inbox", routes: ["inbox"] },
  { to: "/boards", label: "Boards", routes: ["boards", "board"] },
  { to: "/dashboards", label: "Dashboards", routes: ["dashboards", "dashboard"] },
  { to: "/calendar", label: "Calendar", routes: ["calendar"] },
  { to: "/tasks", label: "Tasks", routes: ["tasks", "caught"] },
  { to: "/bugs", label: "Bug Intake", routes: ["bugs"] },
  { to: "/runners", label: "Runners", routes: ["runners"] },
  // The palette names it as the docs do; the sidebar keeps one word.
  { to: "/work", label: "Work", routes: ["work"], paletteLabel: "Where's my work" },
  { to: "/automations", label: "Automations", routes: ["automations"] },
  { to: "/scheduled-messages", label: "Scheduled messages", routes: ["scheduledMessages"] },
  { to: "/drips", label: "Drips", routes: ["drips", "drip"] },
  { to: "/settings", label: "Settings", routes: ["settings"] },
] as const;

export function Shell({ route }: { route: Route }) {
  return (
    <FocusProvider>
      <InboxStatusProvider>
        <ShellLayout route={route} />
      </InboxStatusProvider>
    </FocusProvider>
  );
}

function ShellLayout({ route }: { route: Route }) {
  const section = SECTIONS.find((s) => (s.routes as readonly string[]).includes(route.name));
  const sections = useSections();
  const { needsUser } = useInboxStatus();
  useToastDuration();
  useNextNeedsYouKey();
  // "Start session" on an alert in the inbox: the sessions feature's dialog, composed here.
  const [startIn, setStartIn] = useState<{ folder: string | undefined } | null>(null);
  const openNewSession = useCallback(() => setStartIn({ folder: undefined }), []);
  // The section's name until the page names its thing: a layout effect runs before the page's
  // own (passive) effect, so a board's or a dashboard's name wins over "Boards".
  useLayoutEffect(() => {
    document.title = pageTitle(section?.label);
  }, [section]);
  // Below 900 px the sections are behind a menu button. The menu is open on the page it was
  // opened on: choosing another page closes it.
  const pathname = usePathname();
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpenOn(null);
    };
    window.addEventListener("keydown", closeOnEscape);
    return () => window.removeEventListener("keydown", closeOnEscape);
  }, [menuOpen]);
  return (
    <div className="shell" data-menu-open={menuOpen || undefined}>
      <header className="topbar">
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="sections"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
          {needsUser > 0 && (
            <span className="nav-count" aria-label={`${needsUser} unread needing you`}>
              {needsUser}
            </span>
          )}
        </button>
        <span className="brand">{section?.label ?? "Switchboard"}</span>
        <ConnectionIndicator />
      </header>
      {menuOpen && <div className="menu-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <nav className="sidebar" id="sections" aria-label="Sections">
        <div className="brand">
          Switchboard <ConnectionIndicator />
        </div>
        <WorkspaceSwitcher />
        <ul className="nav-list">
          {sections.map((s) => (
            <li key={s.to}>
              <Link
                to={s.to}
                className="nav-link"
                aria-current={s === section ? "page" : undefined}
                // The count is the link's description, so its name stays "Inbox".
                title={s.to === "/inbox" && needsUser > 0 ? `${needsUser} unread needing you` : undefined}
              >
                {s.label}
                {s.to === "/inbox" && needsUser > 0 && (
                  <span className="nav-count" aria-hidden="true">
                    {needsUser}
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
        <CommandPalette pages={sections} onNewSession={openNewSession} />
        <NewSessionButton />
        <AgentBoardButton />
        <BookmarksButton />
        <ColorModeToggle />
        <FocusControls />
        <CalendarSidebar />
      </nav>
      <main className="content">
        <Page route={route} onStartSession={(folder) => setStartIn({ folder })} />
      </main>
      {startIn && <NewSessionDialog folder={startIn.folder} onClose={() => setStartIn(null)} />}
      <AlarmRinger />
      <AgentRequests />
    </div>
  );
}

function Page({ route, onStartSession }: { route: Route; onStartSession: (folder: string | undefined) => void }) {
  switch (route.name) {
    case "boards":
      return <InWorkspace>{() => <BoardsPage />}</InWorkspace>;
    case "board":
      return <BoardPage key={route.id} boardId={route.id} />;
    case "dashboards":
      return <InWorkspace>{(workspaceId) => <DashboardsSection workspaceId={workspaceId} />}</InWorkspace>;
    case "dashboard":
      return <DashboardPage key={route.id} id={route.id} />;
    case "inbox":
      return <InboxPage onStartSession={onStartSession} needsYou={<NeedsYou />} />;
    case "sessions":
      return <SessionsPage />;
    case "session":
      return (
        <Suspense fallback={<Loading what="the session" />}>
          <SessionPage key={route.id} id={route.id} />
        </Suspense>
      );
    case "settings":
      return (
        <Suspense fallback={<Loading what="settings" />}>
          <SettingsPage />
        </Suspense>
      );
    case "tasks":
    case "caught":
      return (
        <Suspense fallback={<Loading what="tasks" />}>
          <TasksPage view={route.name === "caught" ? "caught" : "list"} />
        </Suspense>
      );
    case "bugs":
      return (
        <Suspense fallback={<Loading what="bug reports" />}>
          <BugIntakePage />
        </Suspense>
      );
    case "runners":
      return (
        <Suspense fallback={<Loading what="runners" />}>
          <RunnersPage />
        </Suspense>
      );
    case "work":
      return (
        <Suspense fallback={<Loading what="your agents' work" />}>
          <WorkPage />
        </Suspense>
      );
    case "calendar":
      return (
        <Suspense fallback={<Loading what="the calendar" />}>
          <CalendarPage />
        </Suspense>
      );
    case "automations":
      return (
        <Suspense fallback={<Loading what="automations" />}>
          <AutomationsPage />
        </Suspense>
      );
    case "scheduledMessages":
      return (
        <Suspense fallback={<Loading what="scheduled messages" />}>
          <ScheduledMessagesPage />
        </Suspense>
      );
    case "drips":
    case "drip":
      return (
        <Suspense fallback={<Loading what="drips" />}>
          <DripsPage selectedId={route.name === "drip" ? route.id : null} />
        </Suspense>
      );
    default:
      return (
        <section className="page">
          <h1>Not found</h1>
          <p>
            Nothing lives at <code>{route.name === "notFound" ? route.path : ""}</code>.{" "}
            <Link to="/">Go to the agent board</Link>.
          </p>
        </section>
      );
  }
}

/** Pages of a workspace wait for the list, and offer to make the first one. */
function InWorkspace({ children }: { children: (workspaceId: string) => React.ReactNode }) {
  const { workspaces, current, error, reload } = useWorkspaces();
  if (error !== undefined) return <ErrorNote error={error} onRetry={reload} />;
  if (!workspaces) return <Loading what="workspaces" />;
  if (!current) {
    return (
      <section className="page">
        <h1>Welcome</h1>
        <p>Make a workspace to hold your boards and dashboards.</p>
        {/* The page's one action, on a page the user opened for it. */}
        <NewWorkspaceForm focus />
      </section>
    );
  }
  return <>{children(current.id)}</>;
}

/**
 * The sidebar's sections, which the palette lists too: Tasks only while `tasksEnabled` is on, Bug
 * Intake while `bugIntakeEnabled` is, Work while `wheresMyWorkEnabled` is, Scheduled messages while
 * `scheduledMessagesEnabled` is and Drips while `dripEnabled` is.
 */
function useSections() {
  const { values } = useSettings();
  const tasksOn = values?.tasksEnabled !== false;
  const bugsOn = values?.bugIntakeEnabled === true;
  const workOn = values?.wheresMyWorkEnabled !== false;
  // The virtual projects: each page is there while its setting surfaces it.
  const messagesOn = values?.scheduledMessagesEnabled !== false;
  const dripsOn = values?.dripEnabled !== false;
  const calendarOn = calendarShown(values);
  return SECTIONS.filter(
    (s) =>
      (s.to !== "/tasks" || tasksOn) &&
      (s.to !== "/bugs" || bugsOn) &&
      (s.to !== "/work" || workOn) &&
      (s.to !== "/scheduled-messages" || messagesOn) &&
      (s.to !== "/drips" || dripsOn) &&
      (s.to !== "/calendar" || calendarOn),
  );
}

/** Error toasts stay `toastDisplayDurationSeconds`. */
function useToastDuration() {
  const { values } = useSettings();
  const toast = useToast();
  const seconds = values?.toastDisplayDurationSeconds;
  useEffect(() => {
    if (seconds !== undefined) toast.setErrorSeconds(seconds);
  }, [seconds, toast]);
}

/** `agentStatusBoardEnabled` puts the agent board one click away from any page. */
function AgentBoardButton() {
  const { values } = useSettings();
  if (values?.agentStatusBoardEnabled !== true) return null;
  return (
    <button type="button" className="mode-toggle" onClick={() => navigate("/")}>
      Agent board
    </button>
  );
}

/**
 * A quick switch between light and dark through the setting the settings page edits ("system"
 * stays there). It names what it does, not the theme shown now.
 */
function ColorModeToggle() {
  const { values, update } = useSettings();
  const toast = useToast();
  if (!values) return null;
  const prefersDark = window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
  const toggle = themeToggle(resolveTheme(colorModeOf(values.pmColorMode), prefersDark));
  return (
    <button
      type="button"
      className="mode-toggle"
      onClick={() =>
        update("pmColorMode", toggle.next).catch((e: unknown) => toast.error(e, "The theme was not changed"))
      }
    >
      {toggle.label}
    </button>
  );
}

/**
 * The signed-in app: the sidebar (the workspace switcher, the everyday actions, the sections under
 * their headings), and the page of the route.
 */
import { lazy, Suspense, useCallback, useEffect, useId, useLayoutEffect, useMemo, useState } from "react";
import { BoardPage } from "../features/boards/BoardPage";
import { BoardsPage } from "../features/boards/BoardsPage";
import { AlarmRinger } from "../features/alarms/AlarmRinger";
import { CalendarSidebar } from "../features/calendar/CalendarSidebar";
import { AgentRequests } from "./AgentRequests";
import { BookmarksButton } from "../features/bookmarks/BookmarksButton";
import { RoomsShortcut } from "../features/rooms/RoomsShortcut";
import { InboxPage } from "../features/inbox/InboxPage";
import { mailCardTarget } from "../features/mail/card";
import { MailCardReply } from "../features/mail/MailCardReply";
import { useMailBadge, type MailBadge } from "../features/mail/useMailBadge";
import { SessionsPage } from "../features/sessions/SessionsPage";
import { NeedsYou } from "../features/sessions/NeedsYouSection";
import { NewSessionButton, NewSessionDialog } from "../features/sessions/NewSessionDialog";
import { useNextNeedsYouKey } from "../features/sessions/useNextNeedsYou";
import { FocusControls } from "../shared/focus/FocusControls";
import { FocusProvider } from "../shared/focus/FocusProvider";
import { InboxStatusProvider, useInboxStatus } from "../shared/inbox/InboxStatus";
import { ErrorNote, Loading } from "../shared/ui/Status";
import { useToast } from "../shared/ui/toasts";
import { pageTitle } from "../shared/ui/pageTitle";
import { useThemeSwitch } from "./useThemeSwitch";
import { DashboardPage } from "../features/dashboards/DashboardPage";
import { DashboardsSection } from "../features/dashboards/DashboardsSection";
import { Link, usePathname, type Route } from "../shared/router";
import { useSettings } from "../shared/settings";
import { NewWorkspaceForm, WorkspaceSwitcher } from "./WorkspaceSwitcher";
import { HeardAboutUs } from "../shared/HeardAboutUs";
import { Announcements } from "../shared/Announcements";
import { useWorkspaces } from "../shared/workspaces";
import { ConnectionIndicator } from "../shared/stream/ConnectionIndicator";
import { CommandPalette } from "./CommandPalette";
import { switchedOff, SwitchedOff } from "./switchedOff";
import { sectionOf, shownGroups, type NavGroup, type Section } from "./nav";
import { reportLoad } from "../shared/deviceLoad";

// The settings page carries the whole generated catalog: it loads when opened, not with the app.
// The session page carries Markdown, diffs and the virtual list (half the app's code): it too
// loads when opened, so the board and the other pages do not wait for it.
const SessionPage = lazy(() => import("../features/sessions/SessionPage").then((m) => ({ default: m.SessionPage })));
const SettingsPage = lazy(() => import("../features/settings/SettingsPage").then((m) => ({ default: m.SettingsPage })));
const TasksPage = lazy(() => import("../features/tasks/TasksPage").then((m) => ({ default: m.TasksPage })));
const BugIntakePage = lazy(() => import("../features/bugs/BugIntakePage").then((m) => ({ default: m.BugIntakePage })));
const RunnersPage = lazy(() => import("../features/runners/RunnersPage").then((m) => ({ default: m.RunnersPage })));
const AppsPage = lazy(() => import("../features/apps/AppsPage").then((m) => ({ default: m.AppsPage })));
const MailPage = lazy(() => import("../features/mail/MailPage").then((m) => ({ default: m.MailPage })));
const FeedsPage = lazy(() => import("../features/feeds/FeedsPage").then((m) => ({ default: m.FeedsPage })));
const TextsPage = lazy(() => import("../features/phone/TextsPage").then((m) => ({ default: m.TextsPage })));
const MessengerPage = lazy(() => import("../features/phone/MessengerPage").then((m) => ({ default: m.MessengerPage })));
const BriefingPage = lazy(() => import("../features/feeds/BriefingPage").then((m) => ({ default: m.BriefingPage })));
const DrivePage = lazy(() => import("../features/drive/DrivePage").then((m) => ({ default: m.DrivePage })));
const SheetsPage = lazy(() => import("../features/sheets/SheetsPage").then((m) => ({ default: m.SheetsPage })));
const AskPage = lazy(() => import("../features/ask/AskPage").then((m) => ({ default: m.AskPage })));
const WorkPage = lazy(() => import("../features/work/WorkPage").then((m) => ({ default: m.WorkPage })));
const ScheduledMessagesPage = lazy(() =>
  import("../features/drips/ScheduledMessagesPage").then((m) => ({ default: m.ScheduledMessagesPage })),
);
const DripsPage = lazy(() => import("../features/drips/DripsPage").then((m) => ({ default: m.DripsPage })));
const CalendarPage = lazy(() => import("../features/calendar/CalendarPage").then((m) => ({ default: m.CalendarPage })));
const TeamPage = lazy(() => import("../features/team/TeamPage").then((m) => ({ default: m.TeamPage })));
const MeetingRoomsPage = lazy(() =>
  import("../features/rooms/MeetingRoomsPage").then((m) => ({ default: m.MeetingRoomsPage })),
);
const AutomationsPage = lazy(() =>
  import("../features/automations/AutomationsPage").then((m) => ({ default: m.AutomationsPage })),
);

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
  const section = sectionOf(route.name);
  const { values } = useSettings();
  const groups = useMemo(() => shownGroups(values), [values]);
  const pages = useMemo(() => groups.flatMap((g) => g.sections), [groups]);
  const { needsUser } = useInboxStatus();
  const mailBadge = useMailBadge(values);
  const off = switchedOff(route.name, values);
  useToastDuration();
  useNextNeedsYouKey();
  // The shell rendered: this load finished (mobileReliabilityAlertsEnabled).
  useEffect(() => {
    void reportLoad("finished");
  }, []);
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
        <AgentsShortcut current={section?.to === "/"} />
      </header>
      {menuOpen && <div className="menu-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <nav className="sidebar" id="sections" aria-label="Sections">
        <div className="brand">
          Switchboard <ConnectionIndicator />
        </div>
        <WorkspaceSwitcher />
        <div className="sidebar-actions">
          <CommandPalette pages={pages} onNewSession={openNewSession} />
          <NewSessionButton />
          <FocusControls />
        </div>
        <div className="nav-groups">
          {groups.map((group) => (
            <SectionGroup
              key={group.heading}
              group={group}
              current={section}
              needsUser={needsUser}
              mailBadge={mailBadge}
            />
          ))}
        </div>
        <div className="sidebar-foot">
          <BookmarksButton />
          <ColorModeToggle />
        </div>
        <CalendarSidebar />
      </nav>
      <main className="content">
        <Announcements />
        {off ? <SwitchedOff {...off} /> : <Page route={route} onStartSession={(folder) => setStartIn({ folder })} />}
      </main>
      {startIn && <NewSessionDialog folder={startIn.folder} onClose={() => setStartIn(null)} />}
      <AlarmRinger />
      <AgentRequests />
      <RoomsShortcut />
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
      return (
        <InboxPage
          onStartSession={onStartSession}
          needsYou={<NeedsYou />}
          mailReply={(row, onSent) => mailCardTarget(row) && <MailCardReply row={row} onSent={onSent} />}
        />
      );
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
    case "apps":
      return (
        <Suspense fallback={<Loading what="running apps" />}>
          <AppsPage />
        </Suspense>
      );
    case "mail":
      return (
        <Suspense fallback={<Loading what="your mail" />}>
          <MailPage />
        </Suspense>
      );
    case "feeds":
      return (
        <Suspense fallback={<Loading what="your feeds" />}>
          <FeedsPage />
        </Suspense>
      );
    case "texts":
      return (
        <Suspense fallback={<Loading what="your texts" />}>
          <TextsPage />
        </Suspense>
      );
    case "messenger":
      return (
        <Suspense fallback={<Loading what="your rooms" />}>
          <MessengerPage />
        </Suspense>
      );
    case "briefing":
      return (
        <Suspense fallback={<Loading what="the briefing" />}>
          <BriefingPage />
        </Suspense>
      );
    case "drive":
      return (
        <Suspense fallback={<Loading what="your drive" />}>
          <DrivePage />
        </Suspense>
      );
    case "sheets":
      return (
        <Suspense fallback={<Loading what="the spreadsheet" />}>
          <SheetsPage />
        </Suspense>
      );
    case "ask":
      return (
        <Suspense fallback={<Loading what="Ask" />}>
          <AskPage />
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
    case "team":
      return (
        <Suspense fallback={<Loading what="Team time" />}>
          <TeamPage />
        </Suspense>
      );
    case "meetingRooms":
      return (
        <Suspense fallback={<Loading what="meeting rooms" />}>
          <MeetingRoomsPage />
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
        <HeardAboutUs />
      </section>
    );
  }
  return <>{children(current.id)}</>;
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

/** A heading and its sections' links: the heading names the list for a screen reader. */
function SectionGroup({
  group,
  current,
  needsUser,
  mailBadge,
}: {
  group: NavGroup;
  current: Section | undefined;
  needsUser: number;
  mailBadge: MailBadge | null;
}) {
  const headingId = useId();
  // The count is the link's description, so its name stays "Inbox" or "Mail".
  const badgeOf = (to: string) => {
    if (to === "/inbox" && needsUser > 0) return { count: needsUser, title: `${needsUser} unread needing you` };
    if (to === "/mail" && mailBadge && mailBadge.count > 0) return mailBadge;
    return null;
  };
  return (
    <div className="nav-group">
      <h2 className="nav-heading" id={headingId}>
        {group.heading}
      </h2>
      <ul className="nav-list" aria-labelledby={headingId}>
        {group.sections.map((s) => {
          const badge = badgeOf(s.to);
          return (
            <li key={s.to}>
              <Link
                to={s.to}
                className="nav-link"
                aria-current={s.to === current?.to ? "page" : undefined}
                title={badge?.title}
              >
                {s.label}
                {badge && (
                  <span className="nav-count" aria-hidden="true">
                    {badge.count}
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * `agentStatusBoardEnabled` puts the agent board one tap away on a phone, where the sidebar is
 * behind the menu. It is the sidebar's first entry, so it bears the same name; a wide window shows
 * that entry on every page and needs no second way there.
 */
function AgentsShortcut({ current }: { current: boolean }) {
  const { values } = useSettings();
  if (values?.agentStatusBoardEnabled !== true) return null;
  return (
    <Link to="/" className="topbar-link touch-link" aria-current={current ? "page" : undefined}>
      Agents
    </Link>
  );
}

/** A quick switch between light and dark; it names what it does, not the theme shown now. */
function ColorModeToggle() {
  const theme = useThemeSwitch();
  if (!theme) return null;
  return (
    <button type="button" className="mode-toggle" onClick={theme.switchTheme}>
      {theme.label}
    </button>
  );
}

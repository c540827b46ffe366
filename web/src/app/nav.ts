/**
 * The app's sections as the sidebar groups them and the palette lists them: each page's address,
 * the routes that belong to it, the words the palette also finds it by, and the setting that
 * keeps it out of the sidebar.
 */
import { calendarShown } from "../features/calendar/visibility";
import { driveShown } from "../features/drive/paths";
import { sheetsShown } from "../features/sheets/grid";
import { briefingShown, feedsShown } from "../features/feeds/briefing";
import { mailShown } from "../features/mail/folders";
import { roomsShown } from "../features/rooms/shortcut";
import { teamShown } from "../features/team/visibility";
import { appsEnabled } from "../shared/apps/appState";
import { boardsShown } from "../shared/boardsModule";

type Values = Readonly<Record<string, unknown>> | undefined;

export interface Section {
  to: string;
  label: string;
  /** The route names (shared/router) that are this section's pages. */
  routes: readonly string[];
  /** The palette's name for it, when the sidebar's word is too short to search for. */
  paletteLabel?: string;
  /** Other words a person types for it in the palette: "sessions" finds Agents. */
  keywords?: string;
  /** Whether the settings surface it; always there without one. */
  shown?: (values: Values) => boolean;
}

export interface NavGroup {
  heading: string;
  sections: readonly Section[];
}

// The agent board is home, and first: it is what a person running agents keeps open.
export const NAV_GROUPS: readonly NavGroup[] = [
  {
    heading: "Agents and work",
    sections: [
      { to: "/", label: "Agents", routes: ["sessions", "session"], keywords: "sessions agent board home" },
      { to: "/inbox", label: "Inbox", routes: ["inbox"], keywords: "notifications alerts needs you unread" },
      {
        to: "/work",
        label: "Work",
        routes: ["work"],
        // The palette names it as the docs do; the sidebar keeps one word.
        paletteLabel: "Where's my work",
        keywords: "branches worktrees commits pull requests git",
        shown: (v) => v?.wheresMyWorkEnabled !== false,
      },
      {
        to: "/apps",
        label: "Running apps",
        routes: ["apps"],
        keywords: "dev servers preview ports localhost proxy",
        shown: appsEnabled,
      },
      { to: "/runners", label: "Runners", routes: ["runners"], keywords: "machines hosts ssh remote" },
    ],
  },
  {
    // What comes to the person from outside, read beside the agents' work.
    heading: "Mail and reading",
    sections: [
      {
        to: "/mail",
        label: "Mail",
        routes: ["mail"],
        keywords: "email webmail imap messages compose cleanup",
        shown: mailShown,
      },
      {
        to: "/feeds",
        label: "Feeds",
        routes: ["feeds"],
        keywords: "rss atom reader news subscriptions opml",
        shown: feedsShown,
      },
      {
        to: "/texts",
        label: "Texts",
        routes: ["texts"],
        keywords: "sms text messages phone spam gateway",
        shown: (values) => values?.smsEnabled === true,
      },
      {
        to: "/messenger",
        label: "Messenger",
        routes: ["messenger"],
        keywords: "matrix chat rooms messages bridge",
        shown: (values) => values?.messengerEnabled === true,
      },
      {
        to: "/briefing",
        label: "Briefing",
        routes: ["briefing"],
        keywords: "daily briefing digest morning summary email summaries",
        shown: briefingShown,
      },
      {
        to: "/drive",
        label: "Drive",
        routes: ["drive"],
        keywords: "files webdav nextcloud owncloud upload download folders file-sync",
        shown: driveShown,
      },
      {
        to: "/sheets",
        label: "Sheets",
        routes: ["sheets"],
        keywords: "spreadsheets xlsx ods csv trusted columns grid",
        shown: sheetsShown,
      },
    ],
  },
  {
    heading: "Planning",
    sections: [
      {
        to: "/boards",
        label: "Boards",
        routes: ["boards", "board"],
        keywords: "projects items kanban",
        shown: boardsShown,
      },
      {
        to: "/dashboards",
        label: "Dashboards",
        routes: ["dashboards", "dashboard"],
        keywords: "charts widgets",
        shown: boardsShown,
      },
      {
        to: "/calendar",
        label: "Calendar",
        routes: ["calendar"],
        keywords: "events agenda sprints month week",
        shown: calendarShown,
      },
      {
        to: "/team",
        label: "Team time",
        routes: ["team"],
        keywords: "world clock time zones working hours meeting planner colleagues",
        shown: teamShown,
      },
      {
        to: "/meeting-rooms",
        label: "Meeting rooms",
        routes: ["meetingRooms"],
        keywords: "video call jitsi zoom meet link",
        shown: roomsShown,
      },
      {
        to: "/tasks",
        label: "Tasks",
        routes: ["tasks", "caught"],
        keywords: "todo to-do checklist",
        shown: (v) => v?.tasksEnabled !== false,
      },
      {
        to: "/bugs",
        label: "Bug Intake",
        routes: ["bugs"],
        keywords: "bug reports errors triage",
        shown: (v) => v?.bugIntakeEnabled === true,
      },
    ],
  },
  {
    heading: "Automation",
    sections: [
      { to: "/automations", label: "Automations", routes: ["automations"], keywords: "recipes schedules rules cron" },
      {
        to: "/scheduled-messages",
        label: "Scheduled messages",
        routes: ["scheduledMessages"],
        keywords: "send later",
        shown: (v) => v?.scheduledMessagesEnabled !== false,
      },
      {
        to: "/drips",
        label: "Drips",
        routes: ["drips", "drip"],
        keywords: "drip sequence",
        shown: (v) => v?.dripEnabled !== false,
      },
    ],
  },
  {
    heading: "System",
    sections: [
      {
        to: "/ask",
        label: "Ask",
        routes: ["ask"],
        paletteLabel: "Ask the tutor",
        keywords: "help question tutor docs how do I why",
        shown: (v) => v?.askAppEnabled !== false,
      },
      { to: "/settings", label: "Settings", routes: ["settings"], keywords: "preferences options" },
    ],
  },
];

/** The groups as the settings surface them: a section its setting hides is left out, and a group left empty too. */
export function shownGroups(values: Values, groups: readonly NavGroup[] = NAV_GROUPS): NavGroup[] {
  return groups
    .map((group) => ({ ...group, sections: group.sections.filter((s) => s.shown?.(values) ?? true) }))
    .filter((group) => group.sections.length > 0);
}

/** The section a route belongs to, shown or not: its label names the page's tab. */
export function sectionOf(routeName: string, groups: readonly NavGroup[] = NAV_GROUPS): Section | undefined {
  return groups.flatMap((g) => g.sections).find((s) => s.routes.includes(routeName));
}

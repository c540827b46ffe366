/**
 * The settings that pages name when they explain why they are empty or off ("Tasks are turned
 * off"), named as the settings page names them and pointing at the section that lists them. The
 * catalog (`SETTING_DEFINITIONS`) stays out of the main bundle, so the labels are written here and
 * a test holds each to the catalog's label and the settings page's section. Draw one with
 * `SettingLink`: the label, linking to the setting, with its key on hover.
 */
import type { SettingKey } from "./api/settings.generated";

export interface SettingRef {
  key: SettingKey;
  /** The catalog's label: what the settings page calls it. */
  label: string;
  /** The settings page opened at the section that lists it (`/settings#<pane>`). */
  path: string;
}

const INBOX_BEHAVIOUR = "/settings#inbox-notifications-inbox-behaviour-and-notices";
const DRIPS = "/settings#sessions-agents-prompts-and-presentation";

export const SETTING_LINKS = {
  bugIntakeEnabled: {
    key: "bugIntakeEnabled",
    label: "Bug Intake",
    path: "/settings#inbox-notifications-diagnostics-and-bugs",
  },
  tasksEnabled: { key: "tasksEnabled", label: "Tasks", path: "/settings#projects-tasks" },
  tasksV2CatchesEnabled: {
    key: "tasksV2CatchesEnabled",
    label: "Catch follow-up tasks from sessions",
    path: "/settings#projects-tasks",
  },
  dripGlobalPause: { key: "dripGlobalPause", label: "Pause all drips", path: DRIPS },
  dripHtmlPreviewEnabled: { key: "dripHtmlPreviewEnabled", label: "Preview HTML drip items", path: DRIPS },
  notificationHistoryEnabled: {
    key: "notificationHistoryEnabled",
    label: "Notification history",
    path: INBOX_BEHAVIOUR,
  },
  inboxShowSessions: { key: "inboxShowSessions", label: "Inbox: sessions needing attention", path: INBOX_BEHAVIOUR },
  inboxShowCliPending: { key: "inboxShowCliPending", label: "Inbox: pending CLI approvals", path: INBOX_BEHAVIOUR },
  inboxShowDigest: { key: "inboxShowDigest", label: "Inbox: daily briefings", path: INBOX_BEHAVIOUR },
  inboxShowRecipes: { key: "inboxShowRecipes", label: "Inbox: recipe approvals and failures", path: INBOX_BEHAVIOUR },
  inboxShowCron: { key: "inboxShowCron", label: "Inbox: cron jobs awaiting approval", path: INBOX_BEHAVIOUR },
  inboxShowAutomations: {
    key: "inboxShowAutomations",
    label: "Inbox: automations awaiting approval",
    path: INBOX_BEHAVIOUR,
  },
  inboxShowCalendar: { key: "inboxShowCalendar", label: "Inbox: calendar reminders", path: INBOX_BEHAVIOUR },
  askAppEnabled: {
    key: "askAppEnabled",
    label: "Ask project with a tutor agent",
    path: "/settings#sessions-agents-prompts-and-presentation",
  },
  runningAppsEnabled: {
    key: "runningAppsEnabled",
    label: "Running apps",
    path: "/settings#sessions-agents-prompts-and-presentation",
  },
  teamTimeEnabled: { key: "teamTimeEnabled", label: "Team time", path: DRIPS },
  meetingRoomsEnabled: { key: "meetingRoomsEnabled", label: "Meeting rooms", path: DRIPS },
  projectBoardsEnabled: { key: "projectBoardsEnabled", label: "Project boards", path: DRIPS },
} as const satisfies Partial<Record<SettingKey, SettingRef>>;

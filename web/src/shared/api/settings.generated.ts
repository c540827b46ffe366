// Generated from the settings schema in crates/settings by `cargo test`. Do not edit.

export interface SettingsValues {
  "heardAboutUs": string;
  "agentAlertsEnabled": boolean;
  "agentDrivenMaxConcurrent": number;
  "agentDrivenMaxDollarsPerSession": number;
  "agentDrivenMaxTurnsPerSession": number;
  "agentDrivenSessionsEnabled": boolean;
  "agentFindBatchingEnabled": boolean;
  "agentInputRequestsEnabled": boolean;
  "agentKeyProposalsEnabled": boolean;
  "agentPermissionLevel": "read_only" | "guarded" | "autonomous" | "full";
  "agentStatusBoardEnabled": boolean;
  "aiCoachingCliEnabled": boolean;
  "bookmarksCliEnabled": boolean;
  "allowAgentAppRestart": boolean;
  "allowAgentDirectNavigation": boolean;
  "allowAgentForegroundFromBackground": boolean;
  "allowAgentTokenSpawn": boolean;
  "allowAgentTokenTeamChat": boolean;
  "requireSpawnSourceSession": boolean;
  "cliServerEnabled": boolean;
  "cliSpawnSpacingSeconds": number;
  "defaultAgentInstructionsCustom": string;
  "defaultAgentInstructionsEnabled": boolean;
  "agentInstructionsSyncEnabled": boolean;
  "agentInstructionsSyncCanonical": "PRIMARY.md" | "AGENTS.md";
  "agentInstructionsSyncGitMode": "local" | "committed";
  "agentInstructionsSyncMirrors": Array<"AGENTS.md" | "PRIMARY.md" | "ALT1.md" | ".altrules2" | ".altrules3/base.md" | ".github/alt4-instructions.md" | ".altrules5">;
  "autoApproveConfigFiles": boolean;
  "autoApprovePlans": boolean;
  "autoDetectQuestions": boolean;
  "sessionSelfArchiveWithoutApproval": boolean;
  "readLoopBreakerEnabled": boolean;
  "shellCwdPersistNudgeEnabled": boolean;
  "skillSlashAutocomplete": boolean;
  "appAwarenessPromptEnabled": boolean;
  "askAppEnabled": boolean;
  "audienceStylePromptEnabled": boolean;
  "engineeringPrinciplesPromptEnabled": boolean;
  "executionBiasPromptEnabled": boolean;
  "keyRemindersPromptEnabled": boolean;
  "personaPromptEnabled": boolean;
  "finalMessageCliBoundaryWins": boolean;
  "finalMessageMarkerAlwaysHide": boolean;
  "finalMessageMarkerDebug": boolean;
  "finalMessageMarkerShowAllBlocks": boolean;
  "finalMessageStructuralFloor": boolean;
  "sessionTitleStyle": "brief" | "descriptive" | "journey" | "latest_topic" | "custom";
  "initialTitleModel": string | null;
  "refreshTitleModel": string;
  "imageBridgeMode": "off" | "auto";
  "sessionAutoFocusInput": boolean;
  "isolatedSessionViewEnabled": boolean;
  "contextWarning75Enabled": boolean;
  "contextWarning90Enabled": boolean;
  "contextStallAutoRecoverEnabled": boolean;
  "meetingRoomsEnabled": boolean;
  "projectBoardsEnabled": boolean;
  "runningAppsEnabled": boolean;
  "showBookmarksInToolbar": boolean;
  "stickyNotesEnabled": boolean;
  "teamTimeEnabled": boolean;
  "wheresMyWorkEnabled": boolean;
  "dripEnabled": boolean;
  "dripGlobalPause": boolean;
  "dripHtmlPreviewEnabled": boolean;
  "scheduledMessagesEnabled": boolean;
  "pmBoardDensity": "dense" | "compact" | "comfortable" | "spacious";
  "pmCalendarBoardIds": Array<string>;
  "pmCalendarOverlayEnabled": boolean;
  "pmColorMode": "system" | "light" | "dark";
  "pmInboxBoardPreferences": Record<string, "all" | "assigned-only" | "none">;
  "pmInboxDigestMode": boolean;
  "pmInboxEnabled": boolean;
  "pmInboxQuietHoursEnabled": boolean;
  "pmInboxQuietHoursStart": string;
  "pmInboxQuietHoursEnd": string;
  "pmInboxQuietHoursTimeZone": string;
  "pmSetupPreset": "tasks" | "projects" | "operations" | "first-agent-board" | "trello" | "jira" | "asana" | "linear" | "notion" | "clickup" | "airtable" | "engineering-linear" | "engineering-jira";
  "autoRestartUnresponsiveSessions": boolean;
  "autoResumeOnCrash": boolean;
  "relentlessSessionRelaunch": boolean;
  "sessionStoreV2Enabled": boolean;
  "sessionRestartSpacingSeconds": number;
  "sessionRestartSpacingAfterWarmupSeconds": number;
  "sessionRestartSpacingWarmupMinutes": number;
  "sessionMemoryGuardEnabled": boolean;
  "sessionMemoryGuardPercent": number;
  "sessionRefillTargetCount": number;
  "sessionRefillBatch": number;
  "sessionRefillCooldownMinutes": number;
  "sessionRefillDailySpendCapUSD": number;
  "sessionRefillIncludePaused": boolean;
  "sessionRefillAllowReopenUserClosed": boolean;
  "sessionRefillMaxCandidateAgeHours": number;
  "sessionRefillMaxRevivesPerSessionPerDay": number;
  "cloudControlPlaneEnabled": boolean;
  "cloudHardenedSessionEnabled": boolean;
  "cloudSessionReviewsEnabled": boolean;
  "cloudStartedSessionsEnabled": boolean;
  "boostAppProcessPriority": boolean;
  "keepAppResidentInMemory": boolean;
  "keepAwakeWhileSessionsRunning": boolean;
  "mergePriorityBoostEnabled": boolean;
  "reserveUiCoreEnabled": boolean;
  "sessionAdaptiveEcoreAffinity": boolean;
  "sessionAdaptiveMemoryPaging": boolean;
  "sessionCpuCapEnabled": boolean;
  "sessionCpuCapPercent": number;
  "sessionCpuCapStrict": boolean;
  "sessionMaxProcessesEnabled": boolean;
  "sessionStrictMcpConfig": boolean;
  "sessionTreeBelowNormalPriority": boolean;
  "sessionTreeLowIoPriority": boolean;
  "frictionTriageCostCapUsd": number;
  "sessionForensicsAutoWeeklyEnabled": boolean;
  "sessionForensicsDailyCostCapUsd": number;
  "sessionForensicsScanIntervalHours": number;
  "alarmsEnabled": boolean;
  "alarmsAssertiveness": "modal" | "banner" | "silent-banner";
  "alarmsBringToForeground": boolean;
  "alarmsPierceFocusMode": boolean;
  "alarmsDefaultMaxSnoozes": number;
  "alarmsDefaultSnoozeMinutes": 5 | 9 | 15 | 30;
  "alarmsDefaultSound": string;
  "alarmsDefaultSoundDurationSeconds": number;
  "alarmsDefaultSoundFadeInSeconds": number;
  "alarmsDefaultSoundPlayMode": "once" | "loop";
  "alarmsDefaultSpeakLabel": boolean;
  "alarmsMaxRingingMinutes": number;
  "alarmNlpDailyCostCap": number;
  "alertSessionDefaultProjectId": string;
  "archiveDigestCadence": "off" | "daily" | "weekly";
  "autoFocusOnNeedsYou": boolean;
  "autoSwitchToInbox": boolean;
  "contentFreeMobilePush": boolean;
  "desktopIconBadgeEnabled": boolean;
  "developerMessagesEnabled": boolean;
  "focusModeFeatureEnabled": boolean;
  "helpfulHintsEnabled": boolean;
  "hideRoutineUpdatesFromInbox": boolean;
  "inboxAnalyticsEnabled": boolean;
  "loadBalancingNoticeEnabled": boolean;
  "mobileReliabilityAlertsEnabled": boolean;
  "notificationBehavior": "always" | "backgrounded" | "never";
  "notificationHistoryEnabled": boolean;
  "postSendNavigation": Array<"stay" | "next_in_project" | "next_in_inbox" | "waiting_room">;
  "toastDisplayDurationSeconds": number;
  "traySystemNotificationsEnabled": boolean;
  "watchingRunningAgentNudgeEnabled": boolean;
  "watchingTimeRecapCardEnabled": boolean;
  "inboxShowAutomations": boolean;
  "inboxShowCalendar": boolean;
  "inboxShowCliPending": boolean;
  "inboxShowCron": boolean;
  "inboxShowDigest": boolean;
  "inboxShowRecipes": boolean;
  "inboxShowSessions": boolean;
  "inboxShowSms": boolean;
  "inboxShowMessenger": boolean;
  "dailyDigestEnabled": boolean;
  "dailyDigestSources": { "calendar"?: boolean; "webmail"?: boolean; "pm-events"?: boolean; "pm-feed-digest"?: boolean; "rss"?: boolean; "sessions"?: boolean; "chatApp"?: boolean; "sms"?: boolean; "messenger"?: boolean };
  "weeklySummaryEnabled": boolean;
  "weeklySummaryScheduleHour": number;
  "weeklySummaryDailyCostCapUsd": number;
  "vendorABalanceAlertLeadHours": number;
  "vendorBBalanceMonitorEnabled": boolean;
  "vendorBBalanceThresholdUSD": number;
  "calendarEnabled": boolean;
  "calendarDailyAgendaEnabled": boolean;
  "calendarNotificationDelivery": "inbox" | "toast" | "both";
  "calendarReminderMinutes": number;
  "calendarWeekStartDay": "sunday" | "monday";
  "pomodoroAutoEnableFocusModeDefault": boolean;
  "pomodoroPhaseForeground": boolean;
  "pomodoroScheduleEnabled": boolean;
  "webmailEnabled": boolean;
  "webmailAutoFocusReply": boolean;
  "webmailAutoMarkRead": boolean;
  "webmailDefaultQuery": string;
  "webmailInboxZeroCelebration": boolean;
  "webmailPageSize": number;
  "emailBlockRemoteImages": boolean;
  "emailCleanupClassicLayout": boolean;
  "emailInboundEnabled": boolean;
  "emailInboundApprovedSenders": Array<string>;
  "emailInboundInboxId": string;
  "emailInboundPrescreenPrompt": string;
  "emailSummarizerEnabled": boolean;
  "emailSummarizerGmailEnabled": boolean;
  "emailSummarizerInboxId": string;
  "emailSummarizerArchiveEnabled": boolean;
  "emailSummarizerDailyCostCapUsd": number;
  "emailSummarizerDefaultPrompt": string;
  "driveEnabled": boolean;
  "filesyncAEnabled": boolean;
  "filesyncBEnabled": boolean;
  "sheetsEnabled": boolean;
  "trustedSheets": Array<{ "editableColumns"?: Array<number>; "label"?: string; "spreadsheetId"?: string; "taskView"?: { "categoriesCol"?: number; "completionCol"?: number; "dueDateCol"?: number; "sectionCol"?: number; "subjectCol"?: number; "urlCol"?: number; "categoriesTab"?: string; "sheetTitle"?: string } }>;
  "docImportEnabled": boolean;
  "docsExportEnabled": boolean;
  "docsDestFolderId": string;
  "docsTemplateId": string;
  "pasteRichTextAsMarkdown": boolean;
  "rssEnabled": boolean;
  "rssDigestEnabled": boolean;
  "rssDigestInterests": string;
  "rssDigestTime": string;
  "chatAppEnabled": boolean;
  "chatAppPersonalEnabled": boolean;
  "smsEnabled": boolean;
  "smsHealthAlertsEnabled": boolean;
  "smsProvider": "relay" | "native";
  "messengerEnabled": boolean;
  "messengerEngine": "engine_maintained" | "engine_legacy";
  "messengerBotEnabled": boolean;
  "messengerBotAllowedGroupIds": Array<string>;
  "messengerBotAllowedUserIds": Array<string>;
  "messengerBotDmPolicy": "pairing" | "allowlist" | "disabled";
  "messengerBotGroupRequireMention": boolean;
  "spamFilterEnabled": boolean;
  "spamFilterAgentEmailEnabled": boolean;
  "spamFilterCalendarEnabled": boolean;
  "spamFilterCalendarDeleteEvent": boolean;
  "spamFilterSmsEnabled": boolean;
  "mailclientEnabled": boolean;
  "mailclientUseAppWebmail": boolean;
  "mailclientEmailsInInbox": boolean;
  "mailclientDensity": "tight" | "compact" | "comfortable" | "spacious" | "roomy";
  "mailclientHeaderLayout": "current" | "unified" | "rail";
  "mailclientInboxBadgeMode": "unread" | "total";
  "mailclientAiSummaryTrigger": "manual" | "auto" | "selective";
  "mailclientAiSummaryAutoSenders": Array<string>;
  "mailclientAiSummaryModel": string;
  "mailclientAiSummaryPrompt": string;
  "webhooksEnabled": boolean;
  "bugIntakeEnabled": boolean;
  "bugIntakeAppendPrompt": string;
  "bugReportEmailEnabled": boolean;
  "telemetryEmailEnabled": boolean;
  "crashAlertEmailEnabled": boolean;
  "autoCapitalizeTasks": boolean;
  "tasksEnabled": boolean;
  "tasksV2CatchesEnabled": boolean;
  "tasksV2CatchesGuidance": string;
  "tasksV2CheckboxSelects": boolean;
  "tasksV2CompactDensity": boolean;
  "tasksV2HideCompleted": boolean;
}

export type SettingKey = keyof SettingsValues;

export interface SettingDefinition {
  key: SettingKey;
  label: string;
  area: string;
  section: string;
  type: string;
  accepted: string;
  default: unknown;
  /** When a change is felt: "immediately", "next session" or "next start". */
  takesEffect: string;
  inEffect: boolean;
  /** Why a key this version does not act on has no effect; null when it acts. */
  noEffect: string | null;
  /** Shown but not changeable in the settings page (`noEffect` says why). */
  readOnly: boolean;
  guarded: boolean;
  /** The spec's text, verbatim. */
  description: string;
  /** What the settings page says the key does: plain words, true of this version. */
  summary: string;
  schema: unknown;
}

export const SETTING_DEFINITIONS: readonly SettingDefinition[] = [
  {
    "key": "heardAboutUs",
    "label": "Where you heard about Switchboard",
    "area": "Getting Started",
    "section": "general",
    "type": "text",
    "accepted": "a string of at most 64 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Where the user first found the application.",
    "summary": "Where the user first found the application.",
    "schema": {
      "type": "string",
      "maxLength": 64
    }
  },
  {
    "key": "agentAlertsEnabled",
    "label": "Agents may post inbox alerts",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Agents may drop persistent inbox rows via POST /alert.",
    "summary": "Agents may add alerts to your inbox that stay there until you clear them.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "agentDrivenMaxConcurrent",
    "label": "Most agent-driven sessions at once",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "number",
    "accepted": "an integer from 0 to 10",
    "default": 3,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Global concurrency limit across active agent-driven sessions; new spawns beyond the count are refused.",
    "summary": "Global concurrency limit across active agent-driven sessions; new spawns beyond the count are refused.",
    "schema": {
      "type": "integer",
      "minimum": 0,
      "maximum": 10
    }
  },
  {
    "key": "agentDrivenMaxDollarsPerSession",
    "label": "Cost limit per agent-driven session (USD)",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "number",
    "accepted": "a number from 0 to 20",
    "default": 5,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Stored and returned only, as the spec asks: agents and scripts may read it, and nothing in Switchboard enforces it.",
    "readOnly": false,
    "guarded": true,
    "description": "USD ceiling on cumulative cost of one agent-driven session. Not enforced: value is stored and returned only.",
    "summary": "USD ceiling on cumulative cost of one agent-driven session. Not enforced: value is stored and returned only.",
    "schema": {
      "type": "number",
      "minimum": 0,
      "maximum": 20
    }
  },
  {
    "key": "agentDrivenMaxTurnsPerSession",
    "label": "Turn limit per agent-driven session",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "number",
    "accepted": "an integer from 0 to 200",
    "default": 50,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Stored and returned only, as the spec asks: agents and scripts may read it, and nothing in Switchboard enforces it.",
    "readOnly": false,
    "guarded": true,
    "description": "Ceiling on follow-up turns of one agent-driven session. Not enforced: value is stored and returned only.",
    "summary": "Ceiling on follow-up turns of one agent-driven session. Not enforced: value is stored and returned only.",
    "schema": {
      "type": "integer",
      "minimum": 0,
      "maximum": 200
    }
  },
  {
    "key": "agentDrivenSessionsEnabled",
    "label": "Scripts may start and drive sessions",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Lets external scripts spawn sessions and send follow-up messages on their own. Default off.",
    "summary": "Lets external scripts spawn sessions and send follow-up messages on their own. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "agentFindBatchingEnabled",
    "label": "Batch agents' find commands",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "next session",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Rewrites agents' find commands to run per-file work in batches instead of one process per file. Default on. Takes effect on the next new session.",
    "summary": "Rewrites agents' find commands to run per-file work in batches instead of one process per file. Default on. Takes effect on the next new session.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "agentInputRequestsEnabled",
    "label": "Sessions may ask you to type a value",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "A session may ask the user to type a value it cannot set itself (for example an API key). The AI never sees the typed value.",
    "summary": "A session may ask the user to type a value it cannot set itself (for example an API key). The AI never sees the typed value.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "agentKeyProposalsEnabled",
    "label": "Sessions may offer keys for you to save",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "A session may offer a key it holds for the user to review, edit and save. Nothing is saved without the user pressing Save.",
    "summary": "A session may offer a key it holds for the user to review, edit and save. Nothing is saved without the user pressing Save.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "agentPermissionLevel",
    "label": "How much agents do before asking",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "select",
    "accepted": "one of \"read_only\", \"guarded\", \"autonomous\", \"full\"",
    "default": "guarded",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "How much an agent does before the application asks the user. Below full, protection of sensitive files (SSH keys, credentials, system files) always asks; full auto-approves them too. On external engines a sensitive file is refused at every level, full included. Email-triggered sessions stay locked down at every level. Applies to primary-engine sessions, to new second-engine sessions unless that engine has its own level under Accounts, and to external engines.",
    "summary": "How much an agent does before the application asks the user. Below full, protection of sensitive files (SSH keys, credentials, system files) always asks; full auto-approves them too. On external engines a sensitive file is refused at every level, full included. Email-triggered sessions stay locked down at every level. Applies to primary-engine sessions, to new second-engine sessions unless that engine has its own level under Accounts, and to external engines.",
    "schema": {
      "type": "string",
      "enum": [
        "read_only",
        "guarded",
        "autonomous",
        "full"
      ]
    }
  },
  {
    "key": "agentStatusBoardEnabled",
    "label": "Agent board",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Live board of every launched agent (workspace, status, dev-pipeline phase, to-do checklist) with one-click jump to the session; adds an Agent Board toolbar icon.",
    "summary": "Live board of every launched agent (workspace, status, dev-pipeline phase, to-do checklist) with one-click jump to the session; adds an Agent Board toolbar icon.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "aiCoachingCliEnabled",
    "label": "AI coaching over the control server",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Lets external agents read AI coaching artifacts and start coaching interviews over the local control server. Default on; off disables all coaching CLI access.",
    "summary": "Lets agents outside Switchboard read AI coaching material and start coaching interviews through Switchboard's control server. Default on; off turns all of that off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "bookmarksCliEnabled",
    "label": "Bookmarks over the control server",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Lets external agents list, create, update, delete, reorder and launch bookmarks over the control server. Default on.",
    "summary": "Lets external agents list, create, update, delete, reorder and launch bookmarks over the control server. Default on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "allowAgentAppRestart",
    "label": "Agents may restart Switchboard",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Default off: the control-server restart route is disabled for every caller, even with the global CLI token. The user's own Restart button is unaffected.",
    "summary": "Default off: no agent or script may restart Switchboard, not even one holding the main command-line key. Your own Restart button always works.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "allowAgentDirectNavigation",
    "label": "Agents may switch your view at once",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Default off: an agent's request to switch the user's view (hub, inbox, settings pane, note, mind map, mail thread) yields a click-to-go toast. On: the view switches immediately. The user's own clicks and notification clicks always navigate. If the user is in another app, the request cannot move the view and a dismissible inbox note appears.",
    "summary": "Default off: an agent's request to switch the user's view (hub, inbox, settings pane, note, mind map, mail thread) yields a click-to-go toast. On: the view switches immediately. The user's own clicks and notification clicks always navigate. If the user is in another app, the request cannot move the view and a dismissible inbox note appears.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "allowAgentForegroundFromBackground",
    "label": "Agents may bring the window to the front",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Default off: an agent's request to bring the window to front is ignored while the user is in another app, and a dismissible inbox note names the session. On: agents may pull the window to front. Agents can still drive the UI while the user is already in the application.",
    "summary": "Default off: an agent's request to bring the window to front is ignored while the user is in another app, and a dismissible inbox note names the session. On: agents may pull the window to front. Agents can still drive the UI while the user is already in the application.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "allowAgentTokenSpawn",
    "label": "Agent tokens may start sessions",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Default off: a command-line session spawn presenting only an agent's scoped token ($APP_CLI_TOKEN) is rejected. The global CLI token still spawns. On: agents spawn with their scoped token.",
    "summary": "Default off: an agent holding only its own limited key may not start a session from the command line; the main command-line key still can. On: agents may start sessions with their own key.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "allowAgentTokenTeamChat",
    "label": "Agent tokens may write in team chat",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Default off: a team chat write over the CLI (direct or channel message, reaction, edit, delete, pin, scheduled direct message, guest invite) presenting only a scoped agent token is rejected. On: allowed; each message is labeled as the user's agent.",
    "summary": "Default off: an agent holding only its own limited key may not write in team chat (messages, reactions, edits, deletions, pins, scheduled messages, guest invites). On: it may, and each message is labelled as sent by your agent.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "requireSpawnSourceSession",
    "label": "Spawns must name the session asking",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Default on: a session spawned over the command-line API is rejected unless the header X-App-Source-Session-Id names the requesting session (spawned agents have it in $APP_SESSION_ID). Off allows anonymous spawns.",
    "summary": "Default on: a request to start a session from the command line is refused unless it names the session asking (sessions Switchboard started know their own name). Off: requests that name no session are accepted too.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "cliServerEnabled",
    "label": "Control server",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "next start",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Control server on the loopback address, port 19519. Default on. Off stops it binding at launch; takes effect on next start; while off, tooling that talks to the application cannot connect, including the switches that govern the server's routes.",
    "summary": "The local control server that the switchboard command, scripts and agents talk to. Default on. Off: it does not start at the next launch, and no tool can connect to Switchboard, not even to change the settings that govern it.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "cliSpawnSpacingSeconds",
    "label": "Wait between agent-started sessions (seconds)",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "number",
    "accepted": "an integer from 0 to 300",
    "default": 0,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Wait between brand-new sessions created by an agent or automation in a burst. 0 starts immediately. Sessions opened by the user are unaffected. Immediate effect.",
    "summary": "Wait between brand-new sessions that an agent or automation starts in a burst. 0 starts them at once. Sessions you open are never delayed.",
    "schema": {
      "type": "integer",
      "minimum": 0,
      "maximum": 300
    }
  },
  {
    "key": "defaultAgentInstructionsCustom",
    "label": "Your own instructions for every session",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "text",
    "accepted": "a string of at most 10000 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Custom text appended to every spawned session beside preset instructions.",
    "summary": "Custom text appended to every spawned session beside preset instructions.",
    "schema": {
      "type": "string",
      "maxLength": 10000
    }
  },
  {
    "key": "defaultAgentInstructionsEnabled",
    "label": "Built-in instruction presets",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Injects curated instruction presets into every primary-engine session (attribution removal, cloud safety, private repos, README standards).",
    "summary": "Injects curated instruction presets into every primary-engine session (attribution removal, cloud safety, private repos, README standards).",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "agentInstructionsSyncEnabled",
    "label": "Copy the instructions file for other AI tools",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Mirrors the canonical instructions file into the filenames other AI coding tools read. Default off.",
    "summary": "Mirrors the canonical instructions file into the filenames other AI coding tools read. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "agentInstructionsSyncCanonical",
    "label": "Instructions file that is the source of truth",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "select",
    "accepted": "one of \"PRIMARY.md\", \"AGENTS.md\"",
    "default": "PRIMARY.md",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Which filename is the source of truth for sync. Default PRIMARY.md.",
    "summary": "Which filename is the source of truth for sync. Default PRIMARY.md.",
    "schema": {
      "type": "string",
      "enum": [
        "PRIMARY.md",
        "AGENTS.md"
      ]
    }
  },
  {
    "key": "agentInstructionsSyncGitMode",
    "label": "Instruction copies in git",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "select",
    "accepted": "one of \"local\", \"committed\"",
    "default": "local",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Whether generated copies are committed to git (committed) or kept out of it (local).",
    "summary": "Whether generated copies are committed to git (committed) or kept out of it (local).",
    "schema": {
      "type": "string",
      "enum": [
        "local",
        "committed"
      ]
    }
  },
  {
    "key": "agentInstructionsSyncMirrors",
    "label": "Filenames the instructions are copied to",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "list",
    "accepted": "a list without repeats, each item one of \"AGENTS.md\", \"PRIMARY.md\", \"ALT1.md\", \".altrules2\", \".altrules3/base.md\", \".github/alt4-instructions.md\", \".altrules5\"",
    "default": [
      "AGENTS.md"
    ],
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Filenames written alongside the canonical file. The canonical file itself is hidden (no self-copies).",
    "summary": "Filenames written alongside the canonical file. The canonical file itself is hidden (no self-copies).",
    "schema": {
      "type": "array",
      "items": {
        "type": "string",
        "enum": [
          "AGENTS.md",
          "PRIMARY.md",
          "ALT1.md",
          ".altrules2",
          ".altrules3/base.md",
          ".github/alt4-instructions.md",
          ".altrules5"
        ]
      },
      "uniqueItems": true
    }
  },
  {
    "key": "autoApproveConfigFiles",
    "label": "Auto-approve engine config changes",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Automatically approves the primary engine modifying its own config files. Off asks for each change.",
    "summary": "Automatically approves the primary engine modifying its own config files. Off asks for each change.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "autoApprovePlans",
    "label": "Auto-approve plans",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Automatically approves a plan the primary engine proposes before writing code.",
    "summary": "Automatically approves a plan the primary engine proposes before writing code.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "autoDetectQuestions",
    "label": "Spot questions in agent replies",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Detects questions in an agent reply even when the agent did not explicitly ask.",
    "summary": "Detects questions in an agent reply even when the agent did not explicitly ask.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionSelfArchiveWithoutApproval",
    "label": "Finished sessions may archive themselves",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "On: a finished session may archive itself immediately even when the pause/snooze/archive approval requirement is on, with nothing in the inbox. Only self-archiving is exempt; archiving another session over the CLI still asks. Default off.",
    "summary": "On: a finished session may archive itself at once, even when archiving needs your approval, and nothing reaches the inbox. Only archiving itself is exempt: a session archiving another still asks. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "readLoopBreakerEnabled",
    "label": "Break repeating-action loops",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Breaks a loop of repeating the same action (re-reading an unchanged file, repeating a command) and relaunches the agent.",
    "summary": "Breaks a loop of repeating the same action (re-reading an unchanged file, repeating a command) and relaunches the agent.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "shellCwdPersistNudgeEnabled",
    "label": "Tell sessions their shell keeps its folder",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Tells each session its command line keeps its folder, so the agent changes folder once.",
    "summary": "Tells each session its command line keeps its folder, so the agent changes folder once.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "skillSlashAutocomplete",
    "label": "Skill menu on typing /",
    "area": "Sessions & Agents",
    "section": "agent control",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Typing / in the composer opens a filtering menu of skills.",
    "summary": "Typing / in the composer opens a filtering menu of skills.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "appAwarenessPromptEnabled",
    "label": "Tell sessions they run in Switchboard",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Adds a note to every session saying it runs in the application and how to reach it.",
    "summary": "Adds a note to every session saying it runs in the application and how to reach it.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "askAppEnabled",
    "label": "Ask project with a tutor agent",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Adds an Ask virtual project: a tutor agent loaded with the docs and live state.",
    "summary": "Adds an Ask virtual project: a tutor agent loaded with the docs and live state.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "audienceStylePromptEnabled",
    "label": "Write for a non-technical reader",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Assume a non-technical reader: plain language, brief start, clean headers, tight bullets.",
    "summary": "Assume a non-technical reader: plain language, brief start, clean headers, tight bullets.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "engineeringPrinciplesPromptEnabled",
    "label": "Engineering principles note",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Adds a note for senior-engineer habits (simplicity, root-cause fixes, believing bug reports, real tests, performance and security).",
    "summary": "Adds a note for senior-engineer habits (simplicity, root-cause fixes, believing bug reports, real tests, performance and security).",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "executionBiasPromptEnabled",
    "label": "Act now and finish the work note",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Adds a note: act right away on actionable requests, push to a real finish, back completion claims with evidence.",
    "summary": "Adds a note: act right away on actionable requests, push to a real finish, back completion claims with evidence.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "keyRemindersPromptEnabled",
    "label": "Reminders on every turn",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Adds a reminders block to every turn.",
    "summary": "Adds a reminders block to every turn.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "personaPromptEnabled",
    "label": "Agent persona",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Gives every agent a warm, resourceful, action-biased character.",
    "summary": "Gives every agent a warm, resourceful, action-biased character.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "finalMessageCliBoundaryWins",
    "label": "Final message: engine boundary wins over marker",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sub-option of Show only the final message: the engine's boundary of the real answer wins over the agent's printed marker. Default off.",
    "summary": "Sub-option of Show only the final message: the engine's boundary of the real answer wins over the agent's printed marker. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "finalMessageMarkerAlwaysHide",
    "label": "Final message: always hide text before marker",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sub-option: when the final-answer marker is present, hide everything before it, even on plain answers, folded into an expandable row. Default on.",
    "summary": "Sub-option: when the final-answer marker is present, hide everything before it, even on plain answers, folded into an expandable row. Default on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "finalMessageMarkerDebug",
    "label": "Final message: show a divider at the marker",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sub-option: draw a divider at the marker instead of hiding. Default off.",
    "summary": "Sub-option: draw a divider at the marker instead of hiding. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "finalMessageMarkerShowAllBlocks",
    "label": "Final message: show every marked answer",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sub-option: when several final messages are marked in one turn, show all of them. Default on.",
    "summary": "Sub-option: when several final messages are marked in one turn, show all of them. Default on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "finalMessageStructuralFloor",
    "label": "Final message: keep what follows the last tool",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sub-option: on a turn that used tools, the marker never hides the answer or live question written after the last tool step; only tool calls and thinking collapse. Default on.",
    "summary": "Sub-option: on a turn that used tools, the marker never hides the answer or live question written after the last tool step; only tool calls and thinking collapse. Default on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionTitleStyle",
    "label": "How session titles are written",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "select",
    "accepted": "one of \"brief\", \"descriptive\", \"journey\", \"latest_topic\", \"custom\"",
    "default": "brief",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How AI session titles are written. journey and latest_topic auto-refresh.",
    "summary": "How AI session titles are written. journey and latest_topic auto-refresh.",
    "schema": {
      "type": "string",
      "enum": [
        "brief",
        "descriptive",
        "journey",
        "latest_topic",
        "custom"
      ]
    }
  },
  {
    "key": "initialTitleModel",
    "label": "Model for a session's first title",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "text",
    "accepted": "a string of at most 100 characters, or null",
    "default": null,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Per-feature model override for first naming of a session; null inherits the global utility model.",
    "summary": "Model that writes a new session's first title; leave empty to use the utility model set for all features.",
    "schema": {
      "type": "string",
      "maxLength": 100
    }
  },
  {
    "key": "refreshTitleModel",
    "label": "Model for title refreshes",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "text",
    "accepted": "a string of at most 100 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Model override for staleness checks and title refreshes.",
    "summary": "Model override for staleness checks and title refreshes.",
    "schema": {
      "type": "string",
      "maxLength": 100
    }
  },
  {
    "key": "imageBridgeMode",
    "label": "Image descriptions for text-only models",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "select",
    "accepted": "one of \"off\", \"auto\"",
    "default": "off",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When the selected model cannot see images, send attachments to a vision-capable model first and pass a text brief. Extra model call. Default off.",
    "summary": "When the selected model cannot see images, send attachments to a vision-capable model first and pass a text brief. Extra model call. Default off.",
    "schema": {
      "type": "string",
      "enum": [
        "off",
        "auto"
      ]
    }
  },
  {
    "key": "sessionAutoFocusInput",
    "label": "Focus the message box on switching sessions",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Places the cursor in the text box when switching sessions. Off: press R to focus.",
    "summary": "Places the cursor in the text box when switching sessions. Off: press R to focus.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "isolatedSessionViewEnabled",
    "label": "Draw the open session in its own process",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "next session",
    "inEffect": false,
    "noEffect": "Only for a desktop app: Switchboard runs in your browser, which has no tray icon or dock and cannot raise its own window.",
    "readOnly": false,
    "guarded": false,
    "description": "Renders the active session in its own background process; effect on the next session clicked.",
    "summary": "Renders the active session in its own background process; effect on the next session clicked.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "contextWarning75Enabled",
    "label": "Warn at 75% of the context window",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "In-chat note at about 75% of the context window. Default off.",
    "summary": "In-chat note at about 75% of the context window. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "contextWarning90Enabled",
    "label": "Warn at 90% of the context window",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "In-chat note at about 90%. Default off.",
    "summary": "In-chat note at about 90%. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "contextStallAutoRecoverEnabled",
    "label": "Recover sessions stalled on a full context",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When a session fills its context and stops mid-task, frees space and continues it.",
    "summary": "When a session fills its context and stops mid-task, frees space and continues it.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "meetingRoomsEnabled",
    "label": "Meeting rooms",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Shows Meeting Rooms in the sidebar and enables the Ctrl+Shift+Z palette shortcut. Saved rooms are preserved when off.",
    "summary": "Shows Meeting Rooms in the sidebar and enables the Ctrl+Shift+Z palette shortcut. Saved rooms are preserved when off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "projectBoardsEnabled",
    "label": "Project boards",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Shows the project-board module in the sidebar (projects, groups, items, views).",
    "summary": "Shows the project-board module in the sidebar (projects, groups, items, views).",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "runningAppsEnabled",
    "label": "Running apps",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Shows the Running Apps entry: live list of dev servers the application launched through its bundled proxy at .localhost addresses.",
    "summary": "Shows the Running Apps entry: live list of dev servers the application launched through its bundled proxy at .localhost addresses.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "showBookmarksInToolbar",
    "label": "Bookmarks in the toolbar",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Shows the bookmarks toolbar button and popover. Default off; bookmark rows are preserved.",
    "summary": "Shows the bookmarks toolbar button and popover. Default off; bookmark rows are preserved.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "stickyNotesEnabled",
    "label": "Sticky notes",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Only for a desktop app: Switchboard runs in your browser, which has no tray icon or dock and cannot raise its own window.",
    "readOnly": false,
    "guarded": false,
    "description": "Floating sticky notes on the desktop.",
    "summary": "Floating sticky notes on the desktop.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "teamTimeEnabled",
    "label": "Team time",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "World-clock dashboard with working-hours status and a meeting planner.",
    "summary": "World-clock dashboard with working-hours status and a meeting planner.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "wheresMyWorkEnabled",
    "label": "Where's my work",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "One screen showing landed, waiting-on-review, turned-down and stranded changes.",
    "summary": "One screen showing landed, waiting-on-review, turned-down and stranded changes.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "dripEnabled",
    "label": "Drip project",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Surfaces the Drip virtual project (queues releasing content to the inbox on a chosen cadence).",
    "summary": "Surfaces the Drip virtual project (queues releasing content to the inbox on a chosen cadence).",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "dripGlobalPause",
    "label": "Pause all drips",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Master pause: drips keep cadence but skip every release.",
    "summary": "Master pause: drips keep cadence but skip every release.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "dripHtmlPreviewEnabled",
    "label": "Preview HTML drip items",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Renders .html drip items in a sandboxed preview (no network, no app access). Off shows a plain chip.",
    "summary": "Renders .html drip items in a sandboxed preview (no network, no app access). Off shows a plain chip.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "scheduledMessagesEnabled",
    "label": "Scheduled messages",
    "area": "Sessions & Agents",
    "section": "prompts and presentation",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Surfaces the Scheduled Messages virtual project (rich-markdown note dropped into the inbox once or recurring).",
    "summary": "Surfaces the Scheduled Messages virtual project (rich-markdown note dropped into the inbox once or recurring).",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "pmBoardDensity",
    "label": "Board density",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "select",
    "accepted": "one of \"dense\", \"compact\", \"comfortable\", \"spacious\"",
    "default": "comfortable",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How tightly items are packed on boards.",
    "summary": "How tightly items are packed on boards.",
    "schema": {
      "type": "string",
      "enum": [
        "dense",
        "compact",
        "comfortable",
        "spacious"
      ]
    }
  },
  {
    "key": "pmCalendarBoardIds",
    "label": "Boards on the calendar overlay",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "list",
    "accepted": "a list, each item a string of at most 200 characters",
    "default": [],
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Boards shown on the calendar overlay; empty means all.",
    "summary": "Boards shown on the calendar overlay; empty means all.",
    "schema": {
      "type": "array",
      "items": {
        "type": "string",
        "maxLength": 200
      }
    }
  },
  {
    "key": "pmCalendarOverlayEnabled",
    "label": "Due dates on a calendar overlay",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Shows item due dates and sprint timelines as a calendar overlay, color-coded by project.",
    "summary": "Shows item due dates and sprint timelines as a calendar overlay, color-coded by project.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "pmColorMode",
    "label": "Board theme",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "select",
    "accepted": "one of \"system\", \"light\", \"dark\"",
    "default": "system",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Board appearance.",
    "summary": "Board appearance.",
    "schema": {
      "type": "string",
      "enum": [
        "system",
        "light",
        "dark"
      ]
    }
  },
  {
    "key": "pmInboxBoardPreferences",
    "label": "Inbox events per board",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "map",
    "accepted": "an object whose every value is one of \"all\", \"assigned-only\", \"none\"",
    "default": {},
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Which events each board sends to the inbox.",
    "summary": "Which events each board sends to the inbox.",
    "schema": {
      "type": "object",
      "additionalProperties": {
        "type": "string",
        "enum": [
          "all",
          "assigned-only",
          "none"
        ]
      }
    }
  },
  {
    "key": "pmInboxDigestMode",
    "label": "Batch project events into a digest",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Batches project events into one digest notification; overdue items always notify immediately.",
    "summary": "Batches project events into one digest notification; overdue items always notify immediately.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "pmInboxEnabled",
    "label": "Project events in the inbox",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Surfaces project events (assignments, status changes, due dates) as inbox rows.",
    "summary": "Surfaces project events (assignments, status changes, due dates) as inbox rows.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "pmInboxQuietHoursEnabled",
    "label": "Quiet hours for project notifications",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Pauses project notifications in a daily window; overdue items always notify immediately.",
    "summary": "Pauses project notifications in a daily window; overdue items always notify immediately.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "pmInboxQuietHoursStart",
    "label": "Quiet hours start",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "text",
    "accepted": "a time of day as HH:MM, 00:00 to 23:59",
    "default": "22:00",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Time of day notifications pause.",
    "summary": "Time of day notifications pause.",
    "schema": {
      "type": "string",
      "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"
    }
  },
  {
    "key": "pmInboxQuietHoursEnd",
    "label": "Quiet hours end",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "text",
    "accepted": "a time of day as HH:MM, 00:00 to 23:59",
    "default": "08:00",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Time of day notifications resume.",
    "summary": "Time of day notifications resume.",
    "schema": {
      "type": "string",
      "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"
    }
  },
  {
    "key": "pmInboxQuietHoursTimeZone",
    "label": "Quiet hours time zone",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "text",
    "accepted": "an IANA time zone name such as \"Europe/Berlin\", or \"\" for the system's zone",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Timezone of quiet hours; defaults to the system timezone when unset.",
    "summary": "Timezone of quiet hours; defaults to the system timezone when unset.",
    "schema": {
      "type": "string",
      "maxLength": 64
    }
  },
  {
    "key": "pmSetupPreset",
    "label": "Setup preset",
    "area": "Sessions & Agents",
    "section": "project-board module display and inbox",
    "type": "select",
    "accepted": "one of \"tasks\", \"projects\", \"operations\", \"first-agent-board\", \"trello\", \"jira\", \"asana\", \"linear\", \"notion\", \"clickup\", \"airtable\", \"engineering-linear\", \"engineering-jira\"",
    "default": "tasks",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Active setup preset chosen in the wizard; controls which columns, views and features appear.",
    "summary": "Active setup preset chosen in the wizard; controls which columns, views and features appear.",
    "schema": {
      "type": "string",
      "enum": [
        "tasks",
        "projects",
        "operations",
        "first-agent-board",
        "trello",
        "jira",
        "asana",
        "linear",
        "notion",
        "clickup",
        "airtable",
        "engineering-linear",
        "engineering-jira"
      ]
    }
  },
  {
    "key": "autoRestartUnresponsiveSessions",
    "label": "Restart turns stuck thinking",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Restarts a turn stuck on thinking with no reply.",
    "summary": "Restarts a turn stuck on thinking with no reply.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "autoResumeOnCrash",
    "label": "Resume sessions after a crash or close",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Restarts sessions active at app close or crash; running ones get a continue nudge, ones waiting for input are restored.",
    "summary": "Restarts sessions active at app close or crash; running ones get a continue nudge, ones waiting for input are restored.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "relentlessSessionRelaunch",
    "label": "Keep retrying launches through overloads",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Keeps retrying with growing gaps when a running session fails to launch due to a transient overload; genuine errors still stop and turn red.",
    "summary": "Keeps retrying with growing gaps when a running session fails to launch due to a transient overload; genuine errors still stop and turn red.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionStoreV2Enabled",
    "label": "Session engine V2",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "next start",
    "inEffect": false,
    "noEffect": "Read-only: this version has one session engine, so there is nothing to switch between; the value is kept and changes nothing.",
    "readOnly": true,
    "guarded": false,
    "description": "Runs the rebuilt session engine V2. Default on. Chosen at app start: restart to apply.",
    "summary": "Runs the rebuilt session engine V2. Default on. Chosen at app start: restart to apply.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionRestartSpacingSeconds",
    "label": "Spacing between restarts (seconds)",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "a number from 0 to 30",
    "default": 0,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Spacing between starts when several sessions return together (restore, rate-limit recovery, batch restart). 0 falls back to built-in spacing. Manual single starts are never delayed. Immediate effect.",
    "summary": "Spacing between starts when several sessions come back together (after a restore, a rate limit or a batch restart). 0 uses the built-in spacing. A session you start yourself is never delayed.",
    "schema": {
      "type": "number",
      "minimum": 0,
      "maximum": 30
    }
  },
  {
    "key": "sessionRestartSpacingAfterWarmupSeconds",
    "label": "Spacing after the warm-up (seconds)",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "a number from 0 to 30",
    "default": 0,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Spacing used after the warm-up time has passed; 0 keeps the earlier spacing for the whole batch. Immediate effect.",
    "summary": "Spacing used once the warm-up time has passed; 0 keeps the first spacing for the whole batch.",
    "schema": {
      "type": "number",
      "minimum": 0,
      "maximum": 30
    }
  },
  {
    "key": "sessionRestartSpacingWarmupMinutes",
    "label": "Warm-up time (minutes)",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "an integer from 0 to 60",
    "default": 0,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How long the first spacing applies, counted from when the batch starts returning; 0 skips the warm-up. Immediate effect.",
    "summary": "How long the first spacing applies, counted from when the batch starts coming back; 0 skips the warm-up.",
    "schema": {
      "type": "integer",
      "minimum": 0,
      "maximum": 60
    }
  },
  {
    "key": "sessionMemoryGuardEnabled",
    "label": "Hold new sessions when memory is low",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When memory is low, holds new burst-started sessions (auto-created bug/feature sessions, recipe runs, mass restarts) until memory frees; a held session starts within a few seconds; manual sessions never delayed; sessions resuming after restart are always paced. All platforms.",
    "summary": "When memory is low, holds new burst-started sessions (auto-created bug/feature sessions, recipe runs, mass restarts) until memory frees; a held session starts within a few seconds; manual sessions never delayed; sessions resuming after restart are always paced. All platforms.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionMemoryGuardPercent",
    "label": "Memory use that starts holding (%)",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "an integer from 50 to 95 in steps of 5",
    "default": 85,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Memory-in-use percentage at which holding starts. Range step 5.",
    "summary": "Memory-in-use percentage at which holding starts. Range step 5.",
    "schema": {
      "type": "integer",
      "minimum": 50,
      "maximum": 95,
      "multipleOf": 5
    }
  },
  {
    "key": "sessionRefillTargetCount",
    "label": "Keep this many sessions running",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "an integer from 1 to 500",
    "default": 5,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When fewer sessions than this run, the governor restarts recently active interrupted work sessions up to this count. Never restarts a session that finished cleanly, waits on the user, was stopped by the user, or recovers by itself.",
    "summary": "When fewer sessions than this are running, Switchboard restarts recently active work sessions that were interrupted, up to this count. It never restarts a session that finished cleanly, waits for you, was stopped by you, or recovers by itself.",
    "schema": {
      "type": "integer",
      "minimum": 1,
      "maximum": 500
    }
  },
  {
    "key": "sessionRefillBatch",
    "label": "Sessions revived per check",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "an integer from 1 to 20",
    "default": 3,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Maximum sessions revived per 5-minute check.",
    "summary": "Maximum sessions revived per 5-minute check.",
    "schema": {
      "type": "integer",
      "minimum": 1,
      "maximum": 20
    }
  },
  {
    "key": "sessionRefillCooldownMinutes",
    "label": "Wait before reviving a session again (minutes)",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "an integer from 1 to 1440",
    "default": 60,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "The same session is not re-poked within this many minutes.",
    "summary": "The same session is not re-poked within this many minutes.",
    "schema": {
      "type": "integer",
      "minimum": 1,
      "maximum": 1440
    }
  },
  {
    "key": "sessionRefillDailySpendCapUSD",
    "label": "Daily revive spending limit (USD)",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "a number from 0 to 100000",
    "default": 10,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Maximum daily revive spend; only pay-per-use sessions count. At the cap, pauses until the next day. 0 turns the dollar cap off; the daily revive-count limit still applies.",
    "summary": "Maximum daily revive spend; only pay-per-use sessions count. At the cap, pauses until the next day. 0 turns the dollar cap off; the daily revive-count limit still applies.",
    "schema": {
      "type": "number",
      "minimum": 0,
      "maximum": 100000
    }
  },
  {
    "key": "sessionRefillIncludePaused",
    "label": "Revive paused sessions",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Default off: on, paused sessions count as restartable and are un-paused.",
    "summary": "Default off: on, paused sessions count as restartable and are un-paused.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionRefillAllowReopenUserClosed",
    "label": "Revive sessions you closed",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Default off: on, sessions the user closed count as restartable. A session stopped with Stop is never touched.",
    "summary": "Default off: on, sessions the user closed count as restartable. A session stopped with Stop is never touched.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionRefillMaxCandidateAgeHours",
    "label": "Skip sessions idle for longer than (hours)",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "an integer from 1 to 720",
    "default": 24,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sessions whose last activity is older are skipped.",
    "summary": "Sessions whose last activity is older are skipped.",
    "schema": {
      "type": "integer",
      "minimum": 1,
      "maximum": 720
    }
  },
  {
    "key": "sessionRefillMaxRevivesPerSessionPerDay",
    "label": "Revives per session per day",
    "area": "Sessions & Agents",
    "section": "resilience, restart and revive",
    "type": "number",
    "accepted": "an integer from 1 to 50",
    "default": 3,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Revive budget per session per day.",
    "summary": "Revive budget per session per day.",
    "schema": {
      "type": "integer",
      "minimum": 1,
      "maximum": 50
    }
  },
  {
    "key": "cloudControlPlaneEnabled",
    "label": "Cloud sessions (developer preview)",
    "area": "Sessions & Agents",
    "section": "cloud",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "next start",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Developer preview: reflects live cloud-session status and starts paid cloud machines. Default off; the relay only runs in an unpackaged build with cloud sessions enabled. Effect at next app start.",
    "summary": "Developer preview: reflects live cloud-session status and starts paid cloud machines. Default off; the relay only runs in an unpackaged build with cloud sessions enabled. Effect at next app start.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "cloudHardenedSessionEnabled",
    "label": "Locked-down machine per cloud session",
    "area": "Sessions & Agents",
    "section": "cloud",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "next session",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Runs each cloud session on its own locked-down machine (separate VM, restrictive firewall, short-lived key). Paid; default off; applies to the next cloud launch.",
    "summary": "Runs each cloud session on its own locked-down machine (separate VM, restrictive firewall, short-lived key). Paid; default off; applies to the next cloud launch.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "cloudSessionReviewsEnabled",
    "label": "Review cloud work when it returns",
    "area": "Sessions & Agents",
    "section": "cloud",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When cloud work returns to this computer, runs the configured code reviewers against the returned branch and records findings. Default on. A review does not hold the branch back.",
    "summary": "When cloud work returns to this computer, runs the configured code reviewers against the returned branch and records findings. Default on. A review does not hold the branch back.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "cloudStartedSessionsEnabled",
    "label": "Cloud sessions may start helpers",
    "area": "Sessions & Agents",
    "section": "cloud",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "A cloud session may start helper cloud sessions, each approved from a card; one click stops the whole tree. Default off.",
    "summary": "A cloud session may start helper cloud sessions, each approved from a card; one click stops the whole tree. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "boostAppProcessPriority",
    "label": "Higher priority while the window is in front",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "While an application window is foreground, raises the application's processes to Above-Normal priority. No effect on platforms M and L.",
    "summary": "While a Switchboard tab is in front, Switchboard's server runs at a higher CPU priority. The server needs the right to raise its priority; without it, it stays at normal and its log says why.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "keepAppResidentInMemory",
    "label": "Keep the database in RAM",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Only on Windows: Switchboard's server runs on Linux.",
    "readOnly": false,
    "guarded": false,
    "description": "Locks the application database in physical RAM. Platform W only. Default on; auto-sizes, self-caps, turns itself off on low-memory machines.",
    "summary": "Keeps Switchboard's database in physical memory so it is never swapped out; sizes and caps itself, and turns itself off on machines short of memory. Default on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "keepAwakeWhileSessionsRunning",
    "label": "Keep the computer awake while sessions run",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Prevents system sleep while sessions run; display may sleep. Default on. Works on platforms W and M; on L depends on the desktop environment.",
    "summary": "Keeps the machine Switchboard runs on from going to sleep while any session is starting or running; the display may still sleep. Default on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "mergePriorityBoostEnabled",
    "label": "Put the merge session first for the CPU",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "While merge all ready branches runs, gives that session Above-Normal CPU priority and drops other sessions to Below-Normal. Reverts at merge end, after 30 minutes, or when turned off. Platform M can only lower others; no effect on platform L.",
    "summary": "While \"merge ready branches\" runs, its session gets four times a session's usual share of the CPU and every other session a quarter. Undone when the merge ends, after 30 minutes, or when turned off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "reserveUiCoreEnabled",
    "label": "Reserve a CPU core for the window",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Reserves one performance core of a hybrid CPU for the application window; sessions kept off it. No effect on non-hybrid CPUs or non-W platforms. Default off.",
    "summary": "On a machine with 4 cores or more, keeps the first core free of sessions, so Switchboard itself stays quick. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionAdaptiveEcoreAffinity",
    "label": "Move busy sessions to efficiency cores",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Only on Windows: Switchboard's server runs on Linux.",
    "readOnly": false,
    "guarded": false,
    "description": "On hybrid CPUs, confines engine sessions to efficiency cores when host CPU averages above 85% and releases them below 60%. No effect on non-hybrid CPUs or non-W platforms.",
    "summary": "On processors with performance and efficiency cores, keeps sessions on the efficiency cores while the processor averages over 85 % busy, and releases them below 60 %.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionAdaptiveMemoryPaging",
    "label": "Ask sessions to use less RAM when memory is low",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When memory is low, tells busy sessions to keep less in RAM. Starts above about 85% RAM use, lifts below about 70%. Platform W only.",
    "summary": "When memory runs low, holds each busy session to the memory it already uses, so the system reclaims memory from sessions first. Starts above about 85 % of memory in use, stops below about 70 %.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionCpuCapEnabled",
    "label": "Cap sessions' CPU when contended",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Soft-caps combined CPU of all engine processes when the host is contended; also applies below-normal priority. No effect on platforms M and L.",
    "summary": "When the machine is busy, limits the CPU that all sessions use together, and runs them at a lower priority.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionCpuCapPercent",
    "label": "CPU cap (%)",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "number",
    "accepted": "an integer from 25 to 90 in steps of 5",
    "default": 75,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Maximum combined CPU percentage when contended. Range step 5.",
    "summary": "Maximum combined CPU percentage when contended. Range step 5.",
    "schema": {
      "type": "integer",
      "minimum": 25,
      "maximum": 90,
      "multipleOf": 5
    }
  },
  {
    "key": "sessionCpuCapStrict",
    "label": "Hard CPU cap",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Makes the cap a hard ceiling even when nothing else runs. No effect on platforms M and L.",
    "summary": "Makes the CPU limit hold even when nothing else is running.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionMaxProcessesEnabled",
    "label": "Limit processes per session",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Kernel-level ceiling on processes per session; new processes past it fail until some finish; nothing running is killed. Platform W only.",
    "summary": "Limits each session to 512 processes: past that, starting a new one fails until some finish. Nothing already running is stopped.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionStrictMcpConfig",
    "label": "Only the MCP servers set up for the session",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Each session loads only tool servers the application set up for it instead of every server in the global config. Applies to primary-engine sessions. Default on.",
    "summary": "Each session gets only the tool (MCP) servers Switchboard set up for it, not every server in your global configuration. Applies to sessions of the primary engine. Default on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionTreeBelowNormalPriority",
    "label": "Run sessions at below-normal priority",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Runs each session and everything it spawns at Below-Normal priority. Works on platforms W and M.",
    "summary": "Runs each session, and everything it starts, at a lower CPU priority than other programs.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionTreeLowIoPriority",
    "label": "Low disk priority for sessions",
    "area": "Sessions & Agents",
    "section": "performance and resources",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Runs each session tree at low disk priority and below-normal memory priority. Platform W only.",
    "summary": "Runs each session, and everything it starts, at the lowest disk priority, and reclaims memory from sessions first when memory runs short.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "frictionTriageCostCapUsd",
    "label": "Friction triage limit per 24 hours (USD)",
    "area": "Sessions & Agents",
    "section": "analysis and cost",
    "type": "number",
    "accepted": "a number of at least 0",
    "default": 5,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Most the friction triage loop may spend in a rolling 24 hours; 0 means no limit. At the cap the next triage run does not start; already-started fixer sessions are not recalled.",
    "summary": "Most the friction triage loop may spend in a rolling 24 hours; 0 means no limit. At the cap the next triage run does not start; already-started fixer sessions are not recalled.",
    "schema": {
      "type": "number",
      "minimum": 0
    }
  },
  {
    "key": "sessionForensicsAutoWeeklyEnabled",
    "label": "Weekly deep session analysis",
    "area": "Sessions & Agents",
    "section": "analysis and cost",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Runs the deep analysis once a week (Monday morning); spawns a paid session and respects the daily spend cap.",
    "summary": "Runs the deep analysis once a week (Monday morning); spawns a paid session and respects the daily spend cap.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sessionForensicsDailyCostCapUsd",
    "label": "Deep analysis daily limit (USD)",
    "area": "Sessions & Agents",
    "section": "analysis and cost",
    "type": "number",
    "accepted": "a number from 0.05 to 20",
    "default": 1,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Maximum spend per calendar day of the deep analysis run; beyond it the run is refused.",
    "summary": "Maximum spend per calendar day of the deep analysis run; beyond it the run is refused.",
    "schema": {
      "type": "number",
      "minimum": 0.05,
      "maximum": 20
    }
  },
  {
    "key": "sessionForensicsScanIntervalHours",
    "label": "Friction scan interval (hours)",
    "area": "Sessions & Agents",
    "section": "analysis and cost",
    "type": "number",
    "accepted": "an integer from 1 to 168",
    "default": 24,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How often the free deterministic friction scan runs.",
    "summary": "How often the free deterministic friction scan runs.",
    "schema": {
      "type": "integer",
      "minimum": 1,
      "maximum": 168
    }
  },
  {
    "key": "alarmsEnabled",
    "label": "Alarms",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Master switch for Alarms.",
    "summary": "Master switch for Alarms.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "alarmsAssertiveness",
    "label": "How alarms appear",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "select",
    "accepted": "one of \"modal\", \"banner\", \"silent-banner\"",
    "default": "modal",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How alarms surface when firing.",
    "summary": "How alarms surface when firing.",
    "schema": {
      "type": "string",
      "enum": [
        "modal",
        "banner",
        "silent-banner"
      ]
    }
  },
  {
    "key": "alarmsBringToForeground",
    "label": "Raise the window when an alarm fires",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Only for a desktop app: Switchboard runs in your browser, which has no tray icon or dock and cannot raise its own window.",
    "readOnly": false,
    "guarded": false,
    "description": "Raises the window above other apps when an alarm fires.",
    "summary": "Raises the window above other apps when an alarm fires.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "alarmsPierceFocusMode",
    "label": "Alarms break through Focus Mode",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Fires alarms immediately even during Focus Mode batching.",
    "summary": "Fires alarms immediately even during Focus Mode batching.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "alarmsDefaultMaxSnoozes",
    "label": "Snoozes allowed",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "number",
    "accepted": "an integer from -1 to 20",
    "default": 3,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Maximum snoozes before only Dismiss remains.",
    "summary": "Maximum snoozes before only Dismiss remains.",
    "schema": {
      "type": "integer",
      "minimum": -1,
      "maximum": 20
    }
  },
  {
    "key": "alarmsDefaultSnoozeMinutes",
    "label": "Snooze length (minutes)",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "unknown",
    "accepted": "one of the numbers 5, 9, 15, 30",
    "default": 9,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Default snooze length.",
    "summary": "Default snooze length.",
    "schema": {
      "enum": [
        5,
        9,
        15,
        30
      ]
    }
  },
  {
    "key": "alarmsDefaultSound",
    "label": "Alarm sound",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "text",
    "accepted": "a string of at most 200 characters",
    "default": "default",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sound played when an alarm fires.",
    "summary": "Sound played when an alarm fires.",
    "schema": {
      "type": "string",
      "maxLength": 200
    }
  },
  {
    "key": "alarmsDefaultSoundDurationSeconds",
    "label": "Sound duration (seconds)",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "number",
    "accepted": "an integer from -1 to 300",
    "default": 60,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How long the sound plays before stopping (or forever).",
    "summary": "How long the sound plays before stopping (or forever).",
    "schema": {
      "type": "integer",
      "minimum": -1,
      "maximum": 300
    }
  },
  {
    "key": "alarmsDefaultSoundFadeInSeconds",
    "label": "Sound fade-in (seconds)",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "number",
    "accepted": "an integer from 0 to 300",
    "default": 0,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Ramp from silent to full over this many seconds.",
    "summary": "Ramp from silent to full over this many seconds.",
    "schema": {
      "type": "integer",
      "minimum": 0,
      "maximum": 300
    }
  },
  {
    "key": "alarmsDefaultSoundPlayMode",
    "label": "Play the sound once or in a loop",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "select",
    "accepted": "one of \"once\", \"loop\"",
    "default": "loop",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Play once, or loop until dismissed.",
    "summary": "Play once, or loop until dismissed.",
    "schema": {
      "type": "string",
      "enum": [
        "once",
        "loop"
      ]
    }
  },
  {
    "key": "alarmsDefaultSpeakLabel",
    "label": "Read the alarm label aloud",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Reads the alarm label aloud (text-to-speech).",
    "summary": "Reads the alarm label aloud (text-to-speech).",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "alarmsMaxRingingMinutes",
    "label": "Stop ringing after (minutes)",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "number",
    "accepted": "an integer from 1 to 60",
    "default": 10,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Auto-dismisses alarms to the inbox after this many minutes.",
    "summary": "Auto-dismisses alarms to the inbox after this many minutes.",
    "schema": {
      "type": "integer",
      "minimum": 1,
      "maximum": 60
    }
  },
  {
    "key": "alarmNlpDailyCostCap",
    "label": "Alarm text parsing daily limit (USD)",
    "area": "Inbox & Notifications",
    "section": "alarms",
    "type": "number",
    "accepted": "a number from 0 to 5",
    "default": 0.5,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Maximum daily spend on small-model natural-language alarm parsing.",
    "summary": "Maximum daily spend on small-model natural-language alarm parsing.",
    "schema": {
      "type": "number",
      "minimum": 0,
      "maximum": 5
    }
  },
  {
    "key": "alertSessionDefaultProjectId",
    "label": "Hub for sessions started from alerts",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "text",
    "accepted": "a string of at most 64 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Hub the Start session button on an alert opens in when the alert names none. Automatic uses the hub with this app's own code if present, otherwise the primary engine's hub.",
    "summary": "Hub the Start session button on an alert opens in when the alert names none. Automatic uses the hub with this app's own code if present, otherwise the primary engine's hub.",
    "schema": {
      "type": "string",
      "maxLength": 64
    }
  },
  {
    "key": "archiveDigestCadence",
    "label": "Archive Insights digest",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "select",
    "accepted": "one of \"off\", \"daily\", \"weekly\"",
    "default": "off",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How often an Archive Insights AI digest is posted to the inbox.",
    "summary": "How often an Archive Insights AI digest is posted to the inbox.",
    "schema": {
      "type": "string",
      "enum": [
        "off",
        "daily",
        "weekly"
      ]
    }
  },
  {
    "key": "autoFocusOnNeedsYou",
    "label": "Bring the app forward when a session needs you",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Only for a desktop app: Switchboard runs in your browser, which has no tray icon or dock and cannot raise its own window.",
    "readOnly": false,
    "guarded": false,
    "description": "Brings the app to the foreground when a session needs attention.",
    "summary": "Brings the app to the foreground when a session needs attention.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "autoSwitchToInbox",
    "label": "Go to the inbox when a session needs you",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Navigates to the inbox when another session needs attention, only if the user was idle at least 5 seconds.",
    "summary": "Navigates to the inbox when another session needs attention, only if the user was idle at least 5 seconds.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "contentFreeMobilePush",
    "label": "Phone notifications without content",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Phone push notifications without sender, subject or message text.",
    "summary": "Phone push notifications without sender, subject or message text.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "desktopIconBadgeEnabled",
    "label": "Count of sessions needing you in the tab",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Count badge on the taskbar or dock icon for sessions that need the user.",
    "summary": "Shows how many sessions need you in the browser tab's title and icon.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "developerMessagesEnabled",
    "label": "Messages from the makers",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Off stops announcements, surveys and read receipts from the maker's team.",
    "summary": "Off stops announcements, surveys and read receipts from the maker's team.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "focusModeFeatureEnabled",
    "label": "Focus Mode",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Master kill-switch for Focus Mode; off hides the toolbar pill and alerts always fire individually.",
    "summary": "Master kill-switch for Focus Mode; off hides the toolbar pill and alerts always fire individually.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "helpfulHintsEnabled",
    "label": "Tips and hints",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Master switch for optional tips, nudges and coaching cards; real alerts are unaffected.",
    "summary": "Master switch for optional tips, nudges and coaching cards; real alerts are unaffected.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "hideRoutineUpdatesFromInbox",
    "label": "Keep routine updates out of the inbox",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "A turn that the session calls a routine update stays out of the inbox; a turn asking a question is never hidden. Default on.",
    "summary": "A turn that the session calls a routine update stays out of the inbox; a turn asking a question is never hidden. Default on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxAnalyticsEnabled",
    "label": "Inbox statistics",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Records how inbox items behave (wait time, pile-up, looks without action, time spent) for the Stats Inbox tab; stays on the device, no message content, phone numbers or ids.",
    "summary": "Records how inbox items behave (wait time, pile-up, looks without action, time spent) for the Stats Inbox tab; stays on the device, no message content, phone numbers or ids.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "loadBalancingNoticeEnabled",
    "label": "Notice when one login carries most sessions",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Inbox card when one login carries far more running sessions than others and is near its limit.",
    "summary": "Inbox card when one login carries far more running sessions than others and is near its limit.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "mobileReliabilityAlertsEnabled",
    "label": "Alert when the mobile app fails to load",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "One inbox alert if a device opens the mobile web app but never finishes loading; clears itself.",
    "summary": "One inbox alert if a device opens the mobile web app but never finishes loading; clears itself.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "notificationBehavior",
    "label": "When to show system notifications",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "select",
    "accepted": "one of \"always\", \"backgrounded\", \"never\"",
    "default": "backgrounded",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When system notifications show.",
    "summary": "When system notifications show.",
    "schema": {
      "type": "string",
      "enum": [
        "always",
        "backgrounded",
        "never"
      ]
    }
  },
  {
    "key": "notificationHistoryEnabled",
    "label": "Notification history",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Keeps a log of recent chimes (which session, played or not, why suppressed).",
    "summary": "Keeps a log of recent chimes (which session, played or not, why suppressed).",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "postSendNavigation",
    "label": "After sending a message",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "list",
    "accepted": "a list without repeats, each item one of \"stay\", \"next_in_project\", \"next_in_inbox\", \"waiting_room\"",
    "default": [
      "stay"
    ],
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "What happens after sending a message.",
    "summary": "What happens after sending a message.",
    "schema": {
      "type": "array",
      "items": {
        "type": "string",
        "enum": [
          "stay",
          "next_in_project",
          "next_in_inbox",
          "waiting_room"
        ]
      },
      "uniqueItems": true
    }
  },
  {
    "key": "toastDisplayDurationSeconds",
    "label": "How long toasts stay (seconds)",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "number",
    "accepted": "an integer from 3 to 30",
    "default": 5,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How long error and warning toasts stay.",
    "summary": "How long error and warning toasts stay.",
    "schema": {
      "type": "integer",
      "minimum": 3,
      "maximum": 30
    }
  },
  {
    "key": "traySystemNotificationsEnabled",
    "label": "Notices from the tray icon",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Only for a desktop app: Switchboard runs in your browser, which has no tray icon or dock and cannot raise its own window.",
    "readOnly": false,
    "guarded": false,
    "description": "Sends the application's own notices (outage, failed scheduled job, budget or balance warning) from the tray icon.",
    "summary": "Sends the application's own notices (outage, failed scheduled job, budget or balance warning) from the tray icon.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "watchingRunningAgentNudgeEnabled",
    "label": "Hint after watching an agent for long",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": false,
    "noEffect": "Only for a desktop app: Switchboard runs in your browser, which has no tray icon or dock and cannot raise its own window.",
    "readOnly": false,
    "guarded": false,
    "description": "Hint in a session after long watching a running agent. Desktop only.",
    "summary": "Hint in a session after long watching a running agent. Desktop only.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "watchingTimeRecapCardEnabled",
    "label": "Weekly agent-watching recap",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Inbox card at most once a week after heavy agent-watching time.",
    "summary": "Inbox card at most once a week after heavy agent-watching time.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowAutomations",
    "label": "Inbox: automations awaiting approval",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Automation rules waiting for approval.",
    "summary": "Automation rules waiting for approval.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowCalendar",
    "label": "Inbox: calendar reminders",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Calendar reminders and agenda.",
    "summary": "Calendar reminders and agenda.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowCliPending",
    "label": "Inbox: pending CLI approvals",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Pending CLI approval requests.",
    "summary": "Requests from the command line waiting for your approval.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowCron",
    "label": "Inbox: cron jobs awaiting approval",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Cron jobs waiting for approval.",
    "summary": "Scheduled jobs waiting for your approval.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowDigest",
    "label": "Inbox: daily briefings",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Daily briefing summaries.",
    "summary": "Daily briefing summaries.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowRecipes",
    "label": "Inbox: recipe approvals and failures",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Recipe approvals and failed, stalled or incomplete runs.",
    "summary": "Recipe approvals and failed, stalled or incomplete runs.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowSessions",
    "label": "Inbox: sessions needing attention",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sessions needing attention.",
    "summary": "Sessions needing attention.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowSms",
    "label": "Inbox: text messages",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Incoming text messages via the text relay.",
    "summary": "Incoming text messages via the text relay.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "inboxShowMessenger",
    "label": "Inbox: messenger messages",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Messenger messages via its client protocol.",
    "summary": "Messenger messages via its client protocol.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "dailyDigestEnabled",
    "label": "Daily briefing",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Daily briefing summarising session activity across hubs.",
    "summary": "Daily briefing summarising session activity across hubs.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "dailyDigestSources",
    "label": "Daily briefing sources",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "object",
    "accepted": "an object with only the fields calendar, webmail, pm-events, pm-feed-digest, rss, sessions, chatApp, sms, messenger (each true or false)",
    "default": {
      "calendar": true,
      "webmail": true,
      "pm-events": true,
      "pm-feed-digest": true,
      "rss": true,
      "sessions": true,
      "chatApp": true,
      "sms": true,
      "messenger": true
    },
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Which sources the daily briefing includes.",
    "summary": "Which sources the daily briefing includes.",
    "schema": {
      "type": "object",
      "properties": {
        "calendar": {
          "type": "boolean"
        },
        "webmail": {
          "type": "boolean"
        },
        "pm-events": {
          "type": "boolean"
        },
        "pm-feed-digest": {
          "type": "boolean"
        },
        "rss": {
          "type": "boolean"
        },
        "sessions": {
          "type": "boolean"
        },
        "chatApp": {
          "type": "boolean"
        },
        "sms": {
          "type": "boolean"
        },
        "messenger": {
          "type": "boolean"
        }
      },
      "additionalProperties": false
    }
  },
  {
    "key": "weeklySummaryEnabled",
    "label": "Weekly summary",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Generates a summary every Monday at the scheduled hour; existing summaries stay when off.",
    "summary": "Generates a summary every Monday at the scheduled hour; existing summaries stay when off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "weeklySummaryScheduleHour",
    "label": "Weekly summary hour (Mondays)",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "number",
    "accepted": "an integer from 0 to 23",
    "default": 8,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Local hour (Monday only) of generation.",
    "summary": "Local hour (Monday only) of generation.",
    "schema": {
      "type": "integer",
      "minimum": 0,
      "maximum": 23
    }
  },
  {
    "key": "weeklySummaryDailyCostCapUsd",
    "label": "Weekly summary daily limit (USD)",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "number",
    "accepted": "a number from 0.05 to 5",
    "default": 0.5,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Maximum daily spend on weekly summary small-model calls before generation pauses.",
    "summary": "Maximum daily spend on weekly summary small-model calls before generation pauses.",
    "schema": {
      "type": "number",
      "minimum": 0.05,
      "maximum": 5
    }
  },
  {
    "key": "vendorABalanceAlertLeadHours",
    "label": "Vendor A balance warning lead (hours)",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "number",
    "accepted": "a number from 0 to 720",
    "default": 24,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Hours before the projected run-out at which the model-vendor-A balance forecast alert fires.",
    "summary": "Hours before the projected run-out at which the model-vendor-A balance forecast alert fires.",
    "schema": {
      "type": "number",
      "minimum": 0,
      "maximum": 720
    }
  },
  {
    "key": "vendorBBalanceMonitorEnabled",
    "label": "Watch the vendor B balance",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Watches the model-vendor-B API balance; raises an inbox card with a one-click Recharge button before it runs out.",
    "summary": "Watches the model-vendor-B API balance; raises an inbox card with a one-click Recharge button before it runs out.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "vendorBBalanceThresholdUSD",
    "label": "Vendor B low-balance alert (USD)",
    "area": "Inbox & Notifications",
    "section": "inbox behaviour and notices",
    "type": "number",
    "accepted": "a number from 0 to 10000",
    "default": 5,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Dollar amount under which the low-balance alert fires.",
    "summary": "Dollar amount under which the low-balance alert fires.",
    "schema": {
      "type": "number",
      "minimum": 0,
      "maximum": 10000
    }
  },
  {
    "key": "calendarEnabled",
    "label": "Calendar",
    "area": "Inbox & Notifications",
    "section": "calendar",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Upcoming events and meeting reminders in the sidebar.",
    "summary": "Upcoming events and meeting reminders in the sidebar.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "calendarDailyAgendaEnabled",
    "label": "Today's agenda card",
    "area": "Inbox & Notifications",
    "section": "calendar",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Today's Agenda card in the inbox each morning.",
    "summary": "Today's Agenda card in the inbox each morning.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "calendarNotificationDelivery",
    "label": "Where calendar notifications go",
    "area": "Inbox & Notifications",
    "section": "calendar",
    "type": "select",
    "accepted": "one of \"inbox\", \"toast\", \"both\"",
    "default": "inbox",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "How calendar notifications are delivered.",
    "summary": "How calendar notifications are delivered.",
    "schema": {
      "type": "string",
      "enum": [
        "inbox",
        "toast",
        "both"
      ]
    }
  },
  {
    "key": "calendarReminderMinutes",
    "label": "Remind before events (minutes)",
    "area": "Inbox & Notifications",
    "section": "calendar",
    "type": "number",
    "accepted": "an integer from 0 to 120",
    "default": 10,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Minutes before an event for the starting-soon reminder.",
    "summary": "Minutes before an event for the starting-soon reminder.",
    "schema": {
      "type": "integer",
      "minimum": 0,
      "maximum": 120
    }
  },
  {
    "key": "calendarWeekStartDay",
    "label": "First day of the week",
    "area": "Inbox & Notifications",
    "section": "calendar",
    "type": "select",
    "accepted": "one of \"sunday\", \"monday\"",
    "default": "monday",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "First day of the calendar week.",
    "summary": "First day of the calendar week.",
    "schema": {
      "type": "string",
      "enum": [
        "sunday",
        "monday"
      ]
    }
  },
  {
    "key": "pomodoroAutoEnableFocusModeDefault",
    "label": "Pomodoro focus blocks silence notifications",
    "area": "Inbox & Notifications",
    "section": "calendar",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Starting a focus block silences notifications via Focus Mode; breaks release them. Toggling the bell manually during a run stops Pomodoro managing it for that run. Per-preset overrides win.",
    "summary": "Starting a focus block silences notifications via Focus Mode; breaks release them. Toggling the bell manually during a run stops Pomodoro managing it for that run. Per-preset overrides win.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "pomodoroPhaseForeground",
    "label": "Raise the window on Pomodoro phase changes",
    "area": "Inbox & Notifications",
    "section": "calendar",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Raises the window on each Pomodoro phase change. Default off.",
    "summary": "Raises the window on each Pomodoro phase change. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "pomodoroScheduleEnabled",
    "label": "Pomodoro schedule",
    "area": "Inbox & Notifications",
    "section": "calendar",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Weekday rules may auto-start Pomodoro runs; off silences the scheduler without deleting rules.",
    "summary": "Weekday rules may auto-start Pomodoro runs; off silences the scheduler without deleting rules.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "webmailEnabled",
    "label": "Web mail",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Web mail in the sidebar.",
    "summary": "Web mail in the sidebar.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "webmailAutoFocusReply",
    "label": "Focus the reply box on opening mail",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Puts the cursor in the reply box when opening an email. Off keeps focus on the body so triage shortcuts work (E archive, S star, U unread, ! spam, X select, H snooze); R starts a reply.",
    "summary": "Puts the cursor in the reply box when opening an email. Off keeps focus on the body so triage shortcuts work (E archive, S star, U unread, ! spam, X select, H snooze); R starts a reply.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "webmailAutoMarkRead",
    "label": "Mark threads read on open",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Marks threads read on open.",
    "summary": "Marks threads read on open.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "webmailDefaultQuery",
    "label": "Web mail inbox query",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string of at most 500 characters",
    "default": "in:inbox",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Default search query for loading the inbox.",
    "summary": "Default search query for loading the inbox.",
    "schema": {
      "type": "string",
      "maxLength": 500
    }
  },
  {
    "key": "webmailInboxZeroCelebration",
    "label": "Celebrate an empty inbox",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Brief animation when the inbox is cleared.",
    "summary": "Brief animation when the inbox is cleared.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "webmailPageSize",
    "label": "Threads loaded at a time",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "number",
    "accepted": "an integer from 1 to 100",
    "default": 50,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Email threads loaded at a time (labelled 10-100).",
    "summary": "Email threads loaded at a time (labelled 10-100).",
    "schema": {
      "type": "integer",
      "minimum": 1,
      "maximum": 100
    }
  },
  {
    "key": "emailBlockRemoteImages",
    "label": "Block remote images in email",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Stops senders loading external images on opening a message; inline and attached images still show. Default off.",
    "summary": "Stops senders loading external images on opening a message; inline and attached images still show. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "emailCleanupClassicLayout",
    "label": "Classic Email Cleanup layout",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Original flat sender list for Email Cleanup instead of the guided walkthrough.",
    "summary": "Original flat sender list for Email Cleanup instead of the guided walkthrough.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "emailInboundEnabled",
    "label": "Answer incoming email with the assistant",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Receives emails via a mail-inbox provider, processes them with the assistant and sends replies.",
    "summary": "Receives emails via a mail-inbox provider, processes them with the assistant and sends replies.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "emailInboundApprovedSenders",
    "label": "Approved senders for incoming email",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "list",
    "accepted": "a list, each item a string of at most 200 characters",
    "default": [],
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Allowlist of sender addresses permitted.",
    "summary": "Allowlist of sender addresses permitted.",
    "schema": {
      "type": "array",
      "items": {
        "type": "string",
        "maxLength": 200
      }
    }
  },
  {
    "key": "emailInboundInboxId",
    "label": "Incoming email inbox ID",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string of at most 200 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Identifier of the provider inbox receiving emails.",
    "summary": "Identifier of the provider inbox receiving emails.",
    "schema": {
      "type": "string",
      "maxLength": 200
    }
  },
  {
    "key": "emailInboundPrescreenPrompt",
    "label": "Incoming email screening prompt",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string of at most 16000 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Classifier prompt for inbound emails; default used when empty; JSON output format always enforced.",
    "summary": "Instructions that sort incoming email before the assistant reads it; empty uses the built-in ones. The form of the answer is fixed.",
    "schema": {
      "type": "string",
      "maxLength": 16000
    }
  },
  {
    "key": "emailSummarizerEnabled",
    "label": "Summarize forwarded email",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Auto-summarizes forwarded emails.",
    "summary": "Auto-summarizes forwarded emails.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "emailSummarizerGmailEnabled",
    "label": "Summarize tagged web mail threads",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Auto-summarizes web-mail threads tagged with the user's label.",
    "summary": "Auto-summarizes web-mail threads tagged with the user's label.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "emailSummarizerInboxId",
    "label": "Summarizer inbox",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Inbox watched for summarizable emails.",
    "summary": "Inbox watched for summarizable emails.",
    "schema": {
      "type": "string"
    }
  },
  {
    "key": "emailSummarizerArchiveEnabled",
    "label": "Archive email once summarized",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Archives in the provider inbox after a successful summary.",
    "summary": "Archives in the provider inbox after a successful summary.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "emailSummarizerDailyCostCapUsd",
    "label": "Summarizer daily limit (USD)",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "number",
    "accepted": "a number from 0.1 to 20",
    "default": 1,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Combined daily spend limit of the summarizer.",
    "summary": "Combined daily spend limit of the summarizer.",
    "schema": {
      "type": "number",
      "minimum": 0.1,
      "maximum": 20
    }
  },
  {
    "key": "emailSummarizerDefaultPrompt",
    "label": "Summarizer fallback prompt",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string of at most 20000 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Generic prompt when no rule matches.",
    "summary": "Generic prompt when no rule matches.",
    "schema": {
      "type": "string",
      "maxLength": 20000
    }
  },
  {
    "key": "driveEnabled",
    "label": "Cloud drive",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Browse, upload and manage cloud-drive files from the sidebar.",
    "summary": "Browse, upload and manage cloud-drive files from the sidebar.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "filesyncAEnabled",
    "label": "File-sync service A",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Same for file-sync service A.",
    "summary": "Same for file-sync service A.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "filesyncBEnabled",
    "label": "File-sync service B",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Same for file-sync service B.",
    "summary": "Same for file-sync service B.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "sheetsEnabled",
    "label": "Spreadsheets",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Browse and edit spreadsheets from the sidebar.",
    "summary": "Browse and edit spreadsheets from the sidebar.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "trustedSheets",
    "label": "Editable spreadsheets and columns",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "list",
    "accepted": "a list, each item an object with only the fields editableColumns (a list, each item an integer from 0 to 702), label (a string of at most 100 characters), spreadsheetId (a string of at most 256 characters), taskView (an object with only the fields categoriesCol, completionCol, dueDateCol, sectionCol, subjectCol, urlCol (each an integer from 0 to 702), categoriesTab, sheetTitle (each a string of at most 100 characters))",
    "default": [],
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Which spreadsheets may be edited and which columns are editable.",
    "summary": "Which spreadsheets may be edited and which columns are editable.",
    "schema": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "editableColumns": {
            "type": "array",
            "items": {
              "type": "integer",
              "minimum": 0,
              "maximum": 702
            }
          },
          "label": {
            "type": "string",
            "maxLength": 100
          },
          "spreadsheetId": {
            "type": "string",
            "maxLength": 256
          },
          "taskView": {
            "type": "object",
            "properties": {
              "categoriesCol": {
                "type": "integer",
                "minimum": 0,
                "maximum": 702
              },
              "completionCol": {
                "type": "integer",
                "minimum": 0,
                "maximum": 702
              },
              "dueDateCol": {
                "type": "integer",
                "minimum": 0,
                "maximum": 702
              },
              "sectionCol": {
                "type": "integer",
                "minimum": 0,
                "maximum": 702
              },
              "subjectCol": {
                "type": "integer",
                "minimum": 0,
                "maximum": 702
              },
              "urlCol": {
                "type": "integer",
                "minimum": 0,
                "maximum": 702
              },
              "categoriesTab": {
                "type": "string",
                "maxLength": 100
              },
              "sheetTitle": {
                "type": "string",
                "maxLength": 100
              }
            },
            "additionalProperties": false
          }
        },
        "additionalProperties": false
      }
    }
  },
  {
    "key": "docImportEnabled",
    "label": "Import pasted document links",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Pasting a document or slides URL into chat fetches its contents; Shift while pasting bypasses.",
    "summary": "Pasting a document or slides URL into chat fetches its contents; Shift while pasting bypasses.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "docsExportEnabled",
    "label": "Publish Markdown to documents",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Right-click a project doc, scratchpad or agent message to publish its Markdown to a document.",
    "summary": "Right-click a project doc, scratchpad or agent message to publish its Markdown to a document.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "docsDestFolderId",
    "label": "Folder for published documents",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When set and no template configured, new documents are created in this folder.",
    "summary": "When set and no template configured, new documents are created in this folder.",
    "schema": {
      "type": "string"
    }
  },
  {
    "key": "docsTemplateId",
    "label": "Document to add published tabs to",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When set, each publish appends a new tab to this document instead of creating one.",
    "summary": "When set, each publish appends a new tab to this document instead of creating one.",
    "schema": {
      "type": "string"
    }
  },
  {
    "key": "pasteRichTextAsMarkdown",
    "label": "Convert pasted rich text to Markdown",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Pasting rich text into the composer converts HTML formatting to Markdown; off behaves like Ctrl+Shift+V.",
    "summary": "Pasting rich text into the composer converts HTML formatting to Markdown; off behaves like Ctrl+Shift+V.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "rssEnabled",
    "label": "RSS and Atom feeds",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Subscribe to RSS and Atom feeds in the sidebar.",
    "summary": "Subscribe to RSS and Atom feeds in the sidebar.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "rssDigestEnabled",
    "label": "Morning feed briefing",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "AI-curated morning briefing of feeds.",
    "summary": "AI-curated morning briefing of feeds.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "rssDigestInterests",
    "label": "Feed briefing topics",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string of at most 1000 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Topics of interest for the digest.",
    "summary": "Topics of interest for the digest.",
    "schema": {
      "type": "string",
      "maxLength": 1000
    }
  },
  {
    "key": "rssDigestTime",
    "label": "Feed briefing time",
    "area": "Inbox & Notifications",
    "section": "mail, files, documents and feeds",
    "type": "text",
    "accepted": "a string",
    "default": "08:00",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Time of day of delivery.",
    "summary": "Time of day of delivery.",
    "schema": {
      "type": "string"
    }
  },
  {
    "key": "chatAppEnabled",
    "label": "Team chat",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Monitor team chat channels and DMs in the sidebar.",
    "summary": "Lets Switchboard and its agents write in team chat (messages, reactions, edits, pins, scheduled messages, invites) through the connection set up in teamchat.toml; off refuses every such write. There is no team chat panel in this version.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "chatAppPersonalEnabled",
    "label": "Send team chat as yourself",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Send as the user via OAuth instead of as the bot; requires bot setup first.",
    "summary": "Sends team chat messages as you (signed in with your own account) instead of as the bot; set up the bot first.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "smsEnabled",
    "label": "Text messages",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Send and receive text messages.",
    "summary": "Send and receive text messages.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "smsHealthAlertsEnabled",
    "label": "Alert when text messaging stops working",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Inbox alert and one notification when SMS is on but not working (missing or expired token, sustained disconnect); clears on reconnect.",
    "summary": "Inbox alert and one notification when SMS is on but not working (missing or expired token, sustained disconnect); clears on reconnect.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "smsProvider",
    "label": "How text messages are sent",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "select",
    "accepted": "one of \"relay\", \"native\"",
    "default": "relay",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "relay routes texts through the relay service's cloud; native sends over the user's own phone SIM through a self-hosted gateway app.",
    "summary": "relay routes texts through the relay service's cloud; native sends over the user's own phone SIM through a self-hosted gateway app.",
    "schema": {
      "type": "string",
      "enum": [
        "relay",
        "native"
      ]
    }
  },
  {
    "key": "messengerEnabled",
    "label": "Messenger",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "View and reply to messenger messages via its client protocol.",
    "summary": "View and reply to messenger messages via its client protocol.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "messengerEngine",
    "label": "Messenger protocol engine",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "select",
    "accepted": "one of \"engine_maintained\", \"engine_legacy\"",
    "default": "engine_maintained",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Protocol engine: maintained (recommended) or legacy. Switching signs the user out until reconnect.",
    "summary": "Protocol engine: maintained (recommended) or legacy. Switching signs the user out until reconnect.",
    "schema": {
      "type": "string",
      "enum": [
        "engine_maintained",
        "engine_legacy"
      ]
    }
  },
  {
    "key": "messengerBotEnabled",
    "label": "Messenger bot for agents",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Talk to agents from the messenger through a bot; each chat or forum topic becomes its own agent session.",
    "summary": "Talk to agents from the messenger through a bot; each chat or forum topic becomes its own agent session.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "messengerBotAllowedGroupIds",
    "label": "Groups the bot answers in",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "list",
    "accepted": "a list, each item a string of at most 32 characters",
    "default": [],
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Numeric group ids the bot answers in; empty means the bot ignores all groups.",
    "summary": "Numeric group ids the bot answers in; empty means the bot ignores all groups.",
    "schema": {
      "type": "array",
      "items": {
        "type": "string",
        "maxLength": 32
      }
    }
  },
  {
    "key": "messengerBotAllowedUserIds",
    "label": "Users allowed to talk to the bot",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "list",
    "accepted": "a list, each item a string of at most 32 characters",
    "default": [],
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Numeric user ids allowed to talk to the bot; approving a pairing request adds one.",
    "summary": "Numeric user ids allowed to talk to the bot; approving a pairing request adds one.",
    "schema": {
      "type": "array",
      "items": {
        "type": "string",
        "maxLength": 32
      }
    }
  },
  {
    "key": "messengerBotDmPolicy",
    "label": "Who may message the bot directly",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "select",
    "accepted": "one of \"pairing\", \"allowlist\", \"disabled\"",
    "default": "pairing",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Who may message the bot directly: pairing (unknown senders get a code to approve), allowlist only, or disabled.",
    "summary": "Who may message the bot directly: pairing (unknown senders get a code to approve), allowlist only, or disabled.",
    "schema": {
      "type": "string",
      "enum": [
        "pairing",
        "allowlist",
        "disabled"
      ]
    }
  },
  {
    "key": "messengerBotGroupRequireMention",
    "label": "Bot answers only mentions in groups",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "In groups, respond only to @mentions of the bot or replies to it.",
    "summary": "In groups, respond only to @mentions of the bot or replies to it.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "spamFilterEnabled",
    "label": "Spam filter",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Checks messages from unknown people and keeps junk in Spam; known people never checked.",
    "summary": "Checks messages from unknown people and keeps junk in Spam; known people never checked.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "spamFilterAgentEmailEnabled",
    "label": "Filter spam sent to the agent's address",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Filters new email from strangers to the agent address and the public support address; caught mail starts no session and gets no reply.",
    "summary": "Filters new email from strangers to the agent address and the public support address; caught mail starts no session and gets no reply.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "spamFilterCalendarEnabled",
    "label": "Filter spam calendar invites",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Filters invites from organizers outside the user's organization; a caught invite gets no notice.",
    "summary": "Filters invites from organizers outside the user's organization; a caught invite gets no notice.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "spamFilterCalendarDeleteEvent",
    "label": "Delete invites from spam senders",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Also deletes an invite from the calendar when the sender was marked spam; automatically caught invites are only hidden. Deleted invites stay in the calendar trash for 30 days.",
    "summary": "Also deletes an invite from the calendar when the sender was marked spam; automatically caught invites are only hidden. Deleted invites stay in the calendar trash for 30 days.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "spamFilterSmsEnabled",
    "label": "Filter spam text messages",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Filters texts from numbers not saved as contacts and never texted; short-code senders are never checked.",
    "summary": "Filters texts from numbers not saved as contacts and never texted; short-code senders are never checked.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "mailclientEnabled",
    "label": "Mail client (preview)",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Shows the mail client panel in the sidebar (folders, compose, snooze) over web mail or IMAP. Default off while in preview.",
    "summary": "Shows the mail client panel in the sidebar (folders, compose, snooze) over web mail or IMAP. Default off while in preview.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "mailclientUseAppWebmail",
    "label": "Mail client reads the connected account",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Reads the inbox through the already-connected account without a separate sign-in.",
    "summary": "Reads the inbox through the already-connected account without a separate sign-in.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "mailclientEmailsInInbox",
    "label": "Mail client email as inbox cards",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Each incoming mail client email becomes an inbox card with an inline reply box.",
    "summary": "Each incoming mail client email becomes an inbox card with an inline reply box.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "mailclientDensity",
    "label": "Mail list spacing",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "select",
    "accepted": "one of \"tight\", \"compact\", \"comfortable\", \"spacious\", \"roomy\"",
    "default": "comfortable",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Spacing between emails in the list.",
    "summary": "Spacing between emails in the list.",
    "schema": {
      "type": "string",
      "enum": [
        "tight",
        "compact",
        "comfortable",
        "spacious",
        "roomy"
      ]
    }
  },
  {
    "key": "mailclientHeaderLayout",
    "label": "Mail header layout",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "select",
    "accepted": "one of \"current\", \"unified\", \"rail\"",
    "default": "current",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Arrangement of the Mail/Sessions switch and toolbar.",
    "summary": "Arrangement of the Mail/Sessions switch and toolbar.",
    "schema": {
      "type": "string",
      "enum": [
        "current",
        "unified",
        "rail"
      ]
    }
  },
  {
    "key": "mailclientInboxBadgeMode",
    "label": "Mail sidebar count",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "select",
    "accepted": "one of \"unread\", \"total\"",
    "default": "unread",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "What the sidebar number counts: unread or total in inbox.",
    "summary": "What the sidebar number counts: unread or total in inbox.",
    "schema": {
      "type": "string",
      "enum": [
        "unread",
        "total"
      ]
    }
  },
  {
    "key": "mailclientAiSummaryTrigger",
    "label": "When Catch me up summaries run",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "select",
    "accepted": "one of \"manual\", \"auto\", \"selective\"",
    "default": "manual",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Whether the Catch me up AI summary runs on a button, automatically on every thread, or only for chosen senders.",
    "summary": "Whether the Catch me up AI summary runs on a button, automatically on every thread, or only for chosen senders.",
    "schema": {
      "type": "string",
      "enum": [
        "manual",
        "auto",
        "selective"
      ]
    }
  },
  {
    "key": "mailclientAiSummaryAutoSenders",
    "label": "Senders summarized automatically",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "list",
    "accepted": "a list, each item a string of at most 320 characters",
    "default": [],
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Senders and domains whose threads are summarized automatically on open (selective mode).",
    "summary": "Senders and domains whose threads are summarized automatically on open (selective mode).",
    "schema": {
      "type": "array",
      "items": {
        "type": "string",
        "maxLength": 320
      }
    }
  },
  {
    "key": "mailclientAiSummaryModel",
    "label": "AI summary model",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "text",
    "accepted": "a string of at most 120 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Model writing the summary; default is the built-in fast low-cost model.",
    "summary": "Model writing the summary; default is the built-in fast low-cost model.",
    "schema": {
      "type": "string",
      "maxLength": 120
    }
  },
  {
    "key": "mailclientAiSummaryPrompt",
    "label": "AI summary prompt",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "text",
    "accepted": "a string of at most 4000 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Summary prompt; blank uses the built-in default.",
    "summary": "Summary prompt; blank uses the built-in default.",
    "schema": {
      "type": "string",
      "maxLength": 4000
    }
  },
  {
    "key": "webhooksEnabled",
    "label": "Incoming webhooks",
    "area": "Inbox & Notifications",
    "section": "messaging, spam and mail client",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Receives messages from external services (CI/CD, monitoring, custom apps) at a URL given to them.",
    "summary": "Receives messages from external services (CI/CD, monitoring, custom apps) at a URL given to them.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "bugIntakeEnabled",
    "label": "Bug Intake",
    "area": "Inbox & Notifications",
    "section": "diagnostics and bugs",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Shows the Bug Intake sidebar entry collecting reports from an error tracker, a code host, bug-report emails and in-app reports, triaged by spawned agents. Off: no report from any source starts a session.",
    "summary": "Shows the Bug Intake sidebar entry collecting reports from an error tracker, a code host, bug-report emails and in-app reports, triaged by spawned agents. Off: no report from any source starts a session.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "bugIntakeAppendPrompt",
    "label": "Extra Bug Intake instructions",
    "area": "Inbox & Notifications",
    "section": "diagnostics and bugs",
    "type": "text",
    "accepted": "a string of at most 10000 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": true,
    "description": "Extra instructions for the investigation prompt of every bug report routed to the project; after the global Bug Intake instructions.",
    "summary": "Extra instructions for the investigation prompt of every bug report routed to the project; after the global Bug Intake instructions.",
    "schema": {
      "type": "string",
      "maxLength": 10000
    }
  },
  {
    "key": "bugReportEmailEnabled",
    "label": "Send bug reports to the makers",
    "area": "Inbox & Notifications",
    "section": "diagnostics and bugs",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Sends bug reports and feedback to the maker's team by email and to the report database. Off keeps reports local until turned on.",
    "summary": "Sends bug reports and feedback to the maker's team by email and to the report database. Off keeps reports local until turned on.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "telemetryEmailEnabled",
    "label": "Diagnostic emails",
    "area": "Inbox & Notifications",
    "section": "diagnostics and bugs",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Master switch for diagnostic emails: weekly usage digest plus each crash unless crashAlertEmailEnabled is off. Off silences both.",
    "summary": "Diagnostic emails to the address email.toml's [reports] names: a weekly digest of counts (sessions and turns by engine kind, crashes) and, unless \"Email each crash\" is off, each crash. Off sends neither. No address is assumed.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "crashAlertEmailEnabled",
    "label": "Email each crash",
    "area": "Inbox & Notifications",
    "section": "diagnostics and bugs",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When diagnostics email is on, also emails each crash; off emails only the weekly digest.",
    "summary": "When diagnostics email is on, also emails each crash; off emails only the weekly digest.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "autoCapitalizeTasks",
    "label": "Capitalize tasks as you type",
    "area": "Projects & Tasks",
    "section": "general",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Capitalizes the first word and each sentence start while typing a task; skips URLs, file paths and abbreviations.",
    "summary": "Capitalizes the first word and each sentence start while typing a task; skips URLs, file paths and abbreviations.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "tasksEnabled",
    "label": "Tasks",
    "area": "Projects & Tasks",
    "section": "general",
    "type": "toggle",
    "accepted": "true or false",
    "default": true,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Shows the Tasks sidebar entry: nested checklist with due dates, snoozes and a tasks.md mirror on disk.",
    "summary": "Shows the Tasks sidebar entry: nested checklist with due dates, snoozes and a tasks.md mirror on disk.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "tasksV2CatchesEnabled",
    "label": "Catch follow-up tasks from sessions",
    "area": "Projects & Tasks",
    "section": "general",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "When a session ends or is archived, a cheap AI pass reads its transcript for follow-up tasks and stages them in the Caught view. Off skips the scan entirely.",
    "summary": "When a session ends or is archived, a cheap AI pass reads its transcript for follow-up tasks and stages them in the Caught view. Off skips the scan entirely.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "tasksV2CatchesGuidance",
    "label": "Guidance for caught tasks",
    "area": "Projects & Tasks",
    "section": "general",
    "type": "text",
    "accepted": "a string of at most 2000 characters",
    "default": "",
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Optional wording steering which follow-ups are kept; returned format is fixed. Empty means standard behavior.",
    "summary": "Optional wording steering which follow-ups are kept; returned format is fixed. Empty means standard behavior.",
    "schema": {
      "type": "string",
      "maxLength": 2000
    }
  },
  {
    "key": "tasksV2CheckboxSelects",
    "label": "Checkbox selects instead of finishing",
    "area": "Projects & Tasks",
    "section": "general",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Checking a box selects the task instead of finishing it; an action bar with Done and Dropped appears once one is checked. Default off. Ctrl or Shift while clicking always selects.",
    "summary": "Checking a box selects the task instead of finishing it; an action bar with Done and Dropped appears once one is checked. Default off. Ctrl or Shift while clicking always selects.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "tasksV2CompactDensity",
    "label": "Compact task rows",
    "area": "Projects & Tasks",
    "section": "general",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Tighter vertical spacing of task rows in the All-Hubs view and each hub outliner. Default off.",
    "summary": "Tighter vertical spacing of task rows in the All-Hubs view and each hub outliner. Default off.",
    "schema": {
      "type": "boolean"
    }
  },
  {
    "key": "tasksV2HideCompleted",
    "label": "Hide completed tasks",
    "area": "Projects & Tasks",
    "section": "general",
    "type": "toggle",
    "accepted": "true or false",
    "default": false,
    "takesEffect": "immediately",
    "inEffect": true,
    "noEffect": null,
    "readOnly": false,
    "guarded": false,
    "description": "Hides completed tasks from task lists.",
    "summary": "Hides completed tasks from task lists.",
    "schema": {
      "type": "boolean"
    }
  }
];

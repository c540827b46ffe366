//! The name the settings page shows for every key, written by a person beside
//! the catalog. A key is an identifier for code and scripts; derived from it
//! ("Ai coaching cli enabled") it reads badly and cannot say what the switch
//! does, so each label is human text, kept here rather than in the catalog
//! rows so that the rows stay one spec line each.
//!
//! The table is in catalog order. The tests below fail when a key has no
//! label, a label names a key the catalog does not have, or a label is only
//! the key re-cased.

/// `(key, label)` for every catalog key, in catalog order. Labels are in
/// sentence case with no closing period, at most 50 characters, and unique
/// within their section.
#[rustfmt::skip]
pub(crate) static LABELS: &[(&str, &str)] = &[
    ("heardAboutUs", "Where you heard about Switchboard"),
    ("agentAlertsEnabled", "Agents may post inbox alerts"),
    ("agentDrivenMaxConcurrent", "Most agent-driven sessions at once"),
    ("agentDrivenMaxDollarsPerSession", "Cost limit per agent-driven session (USD)"),
    ("agentDrivenMaxTurnsPerSession", "Turn limit per agent-driven session"),
    ("agentDrivenSessionsEnabled", "Scripts may start and drive sessions"),
    ("agentFindBatchingEnabled", "Batch agents' find commands"),
    ("agentInputRequestsEnabled", "Sessions may ask you to type a value"),
    ("agentKeyProposalsEnabled", "Sessions may offer keys for you to save"),
    ("agentPermissionLevel", "How much agents do before asking"),
    ("agentStatusBoardEnabled", "Agent board"),
    ("aiCoachingCliEnabled", "AI coaching over the control server"),
    ("bookmarksCliEnabled", "Bookmarks over the control server"),
    ("allowAgentAppRestart", "Agents may restart Switchboard"),
    ("allowAgentDirectNavigation", "Agents may switch your view at once"),
    ("allowAgentForegroundFromBackground", "Agents may bring the window to the front"),
    ("allowAgentTokenSpawn", "Agent tokens may start sessions"),
    ("allowAgentTokenTeamChat", "Agent tokens may write in team chat"),
    ("requireSpawnSourceSession", "Spawns must name the session asking"),
    ("cliServerEnabled", "Control server"),
    ("cliSpawnSpacingSeconds", "Wait between agent-started sessions (seconds)"),
    ("defaultAgentInstructionsCustom", "Your own instructions for every session"),
    ("defaultAgentInstructionsEnabled", "Built-in instruction presets"),
    ("agentInstructionsSyncEnabled", "Copy the instructions file for other AI tools"),
    ("agentInstructionsSyncCanonical", "Instructions file that is the source of truth"),
    ("agentInstructionsSyncGitMode", "Instruction copies in git"),
    ("agentInstructionsSyncMirrors", "Filenames the instructions are copied to"),
    ("autoApproveConfigFiles", "Auto-approve engine config changes"),
    ("autoApprovePlans", "Auto-approve plans"),
    ("autoDetectQuestions", "Spot questions in agent replies"),
    ("sessionSelfArchiveWithoutApproval", "Finished sessions may archive themselves"),
    ("readLoopBreakerEnabled", "Break repeating-action loops"),
    ("shellCwdPersistNudgeEnabled", "Tell sessions their shell keeps its folder"),
    ("skillSlashAutocomplete", "Skill menu on typing /"),
    ("appAwarenessPromptEnabled", "Tell sessions they run in Switchboard"),
    ("askAppEnabled", "Ask project with a tutor agent"),
    ("audienceStylePromptEnabled", "Write for a non-technical reader"),
    ("engineeringPrinciplesPromptEnabled", "Engineering principles note"),
    ("executionBiasPromptEnabled", "Act now and finish the work note"),
    ("keyRemindersPromptEnabled", "Reminders on every turn"),
    ("personaPromptEnabled", "Agent persona"),
    ("finalMessageCliBoundaryWins", "Final message: engine boundary wins over marker"),
    ("finalMessageMarkerAlwaysHide", "Final message: always hide text before marker"),
    ("finalMessageMarkerDebug", "Final message: show a divider at the marker"),
    ("finalMessageMarkerShowAllBlocks", "Final message: show every marked answer"),
    ("finalMessageStructuralFloor", "Final message: keep what follows the last tool"),
    ("sessionTitleStyle", "How session titles are written"),
    ("initialTitleModel", "Model for a session's first title"),
    ("refreshTitleModel", "Model for title refreshes"),
    ("imageBridgeMode", "Image descriptions for text-only models"),
    ("sessionAutoFocusInput", "Focus the message box on switching sessions"),
    ("isolatedSessionViewEnabled", "Draw the open session in its own process"),
    ("contextWarning75Enabled", "Warn at 75% of the context window"),
    ("contextWarning90Enabled", "Warn at 90% of the context window"),
    ("contextStallAutoRecoverEnabled", "Recover sessions stalled on a full context"),
    ("meetingRoomsEnabled", "Meeting rooms"),
    ("projectBoardsEnabled", "Project boards"),
    ("runningAppsEnabled", "Running apps"),
    ("showBookmarksInToolbar", "Bookmarks in the toolbar"),
    ("stickyNotesEnabled", "Sticky notes"),
    ("teamTimeEnabled", "Team time"),
    ("wheresMyWorkEnabled", "Where's my work"),
    ("dripEnabled", "Drip project"),
    ("dripGlobalPause", "Pause all drips"),
    ("dripHtmlPreviewEnabled", "Preview HTML drip items"),
    ("scheduledMessagesEnabled", "Scheduled messages"),
    ("pmBoardDensity", "Board density"),
    ("pmCalendarBoardIds", "Boards on the calendar overlay"),
    ("pmCalendarOverlayEnabled", "Due dates on a calendar overlay"),
    ("pmColorMode", "Board theme"),
    ("pmInboxBoardPreferences", "Inbox events per board"),
    ("pmInboxDigestMode", "Batch project events into a digest"),
    ("pmInboxEnabled", "Project events in the inbox"),
    ("pmInboxQuietHoursEnabled", "Quiet hours for project notifications"),
    ("pmInboxQuietHoursStart", "Quiet hours start"),
    ("pmInboxQuietHoursEnd", "Quiet hours end"),
    ("pmInboxQuietHoursTimeZone", "Quiet hours time zone"),
    ("pmSetupPreset", "Setup preset"),
    ("autoRestartUnresponsiveSessions", "Restart turns stuck thinking"),
    ("autoResumeOnCrash", "Resume sessions after a crash or close"),
    ("relentlessSessionRelaunch", "Keep retrying launches through overloads"),
    ("sessionStoreV2Enabled", "Session engine V2"),
    ("sessionRestartSpacingSeconds", "Spacing between restarts (seconds)"),
    ("sessionRestartSpacingAfterWarmupSeconds", "Spacing after the warm-up (seconds)"),
    ("sessionRestartSpacingWarmupMinutes", "Warm-up time (minutes)"),
    ("sessionMemoryGuardEnabled", "Hold new sessions when memory is low"),
    ("sessionMemoryGuardPercent", "Memory use that starts holding (%)"),
    ("sessionRefillTargetCount", "Keep this many sessions running"),
    ("sessionRefillBatch", "Sessions revived per check"),
    ("sessionRefillCooldownMinutes", "Wait before reviving a session again (minutes)"),
    ("sessionRefillDailySpendCapUSD", "Daily revive spending limit (USD)"),
    ("sessionRefillIncludePaused", "Revive paused sessions"),
    ("sessionRefillAllowReopenUserClosed", "Revive sessions you closed"),
    ("sessionRefillMaxCandidateAgeHours", "Skip sessions idle for longer than (hours)"),
    ("sessionRefillMaxRevivesPerSessionPerDay", "Revives per session per day"),
    ("cloudControlPlaneEnabled", "Cloud sessions (developer preview)"),
    ("cloudHardenedSessionEnabled", "Locked-down machine per cloud session"),
    ("cloudSessionReviewsEnabled", "Review cloud work when it returns"),
    ("cloudStartedSessionsEnabled", "Cloud sessions may start helpers"),
    ("boostAppProcessPriority", "Higher priority while the window is in front"),
    ("keepAppResidentInMemory", "Keep the database in RAM"),
    ("keepAwakeWhileSessionsRunning", "Keep the computer awake while sessions run"),
    ("mergePriorityBoostEnabled", "Put the merge session first for the CPU"),
    ("reserveUiCoreEnabled", "Reserve a CPU core for the window"),
    ("sessionAdaptiveEcoreAffinity", "Move busy sessions to efficiency cores"),
    ("sessionAdaptiveMemoryPaging", "Ask sessions to use less RAM when memory is low"),
    ("sessionCpuCapEnabled", "Cap sessions' CPU when contended"),
    ("sessionCpuCapPercent", "CPU cap (%)"),
    ("sessionCpuCapStrict", "Hard CPU cap"),
    ("sessionMaxProcessesEnabled", "Limit processes per session"),
    ("sessionStrictMcpConfig", "Only the MCP servers set up for the session"),
    ("sessionTreeBelowNormalPriority", "Run sessions at below-normal priority"),
    ("sessionTreeLowIoPriority", "Low disk priority for sessions"),
    ("frictionTriageCostCapUsd", "Friction triage limit per 24 hours (USD)"),
    ("sessionForensicsAutoWeeklyEnabled", "Weekly deep session analysis"),
    ("sessionForensicsDailyCostCapUsd", "Deep analysis daily limit (USD)"),
    ("sessionForensicsScanIntervalHours", "Friction scan interval (hours)"),
    ("alarmsEnabled", "Alarms"),
    ("alarmsAssertiveness", "How alarms appear"),
    ("alarmsBringToForeground", "Raise the window when an alarm fires"),
    ("alarmsPierceFocusMode", "Alarms break through Focus Mode"),
    ("alarmsDefaultMaxSnoozes", "Snoozes allowed"),
    ("alarmsDefaultSnoozeMinutes", "Snooze length (minutes)"),
    ("alarmsDefaultSound", "Alarm sound"),
    ("alarmsDefaultSoundDurationSeconds", "Sound duration (seconds)"),
    ("alarmsDefaultSoundFadeInSeconds", "Sound fade-in (seconds)"),
    ("alarmsDefaultSoundPlayMode", "Play the sound once or in a loop"),
    ("alarmsDefaultSpeakLabel", "Read the alarm label aloud"),
    ("alarmsMaxRingingMinutes", "Stop ringing after (minutes)"),
    ("alarmNlpDailyCostCap", "Alarm text parsing daily limit (USD)"),
    ("alertSessionDefaultProjectId", "Hub for sessions started from alerts"),
    ("archiveDigestCadence", "Archive Insights digest"),
    ("autoFocusOnNeedsYou", "Bring the app forward when a session needs you"),
    ("autoSwitchToInbox", "Go to the inbox when a session needs you"),
    ("contentFreeMobilePush", "Phone notifications without content"),
    ("desktopIconBadgeEnabled", "Count of sessions needing you in the tab"),
    ("developerMessagesEnabled", "Messages from the makers"),
    ("focusModeFeatureEnabled", "Focus Mode"),
    ("helpfulHintsEnabled", "Tips and hints"),
    ("hideRoutineUpdatesFromInbox", "Keep routine updates out of the inbox"),
    ("inboxAnalyticsEnabled", "Inbox statistics"),
    ("loadBalancingNoticeEnabled", "Notice when one login carries most sessions"),
    ("mobileReliabilityAlertsEnabled", "Alert when the mobile app fails to load"),
    ("notificationBehavior", "When to show system notifications"),
    ("notificationHistoryEnabled", "Notification history"),
    ("postSendNavigation", "After sending a message"),
    ("toastDisplayDurationSeconds", "How long toasts stay (seconds)"),
    ("traySystemNotificationsEnabled", "Notices from the tray icon"),
    ("watchingRunningAgentNudgeEnabled", "Hint after watching an agent for long"),
    ("watchingTimeRecapCardEnabled", "Weekly agent-watching recap"),
    ("inboxShowAutomations", "Inbox: automations awaiting approval"),
    ("inboxShowCalendar", "Inbox: calendar reminders"),
    ("inboxShowCliPending", "Inbox: pending CLI approvals"),
    ("inboxShowCron", "Inbox: cron jobs awaiting approval"),
    ("inboxShowDigest", "Inbox: daily briefings"),
    ("inboxShowRecipes", "Inbox: recipe approvals and failures"),
    ("inboxShowSessions", "Inbox: sessions needing attention"),
    ("inboxShowSms", "Inbox: text messages"),
    ("inboxShowMessenger", "Inbox: messenger messages"),
    ("dailyDigestEnabled", "Daily briefing"),
    ("dailyDigestSources", "Daily briefing sources"),
    ("weeklySummaryEnabled", "Weekly summary"),
    ("weeklySummaryScheduleHour", "Weekly summary hour (Mondays)"),
    ("weeklySummaryDailyCostCapUsd", "Weekly summary daily limit (USD)"),
    ("vendorABalanceAlertLeadHours", "Vendor A balance warning lead (hours)"),
    ("vendorBBalanceMonitorEnabled", "Watch the vendor B balance"),
    ("vendorBBalanceThresholdUSD", "Vendor B low-balance alert (USD)"),
    ("calendarEnabled", "Calendar"),
    ("calendarDailyAgendaEnabled", "Today's agenda card"),
    ("calendarNotificationDelivery", "Where calendar notifications go"),
    ("calendarReminderMinutes", "Remind before events (minutes)"),
    ("calendarWeekStartDay", "First day of the week"),
    ("pomodoroAutoEnableFocusModeDefault", "Pomodoro focus blocks silence notifications"),
    ("pomodoroPhaseForeground", "Raise the window on Pomodoro phase changes"),
    ("pomodoroScheduleEnabled", "Pomodoro schedule"),
    ("webmailEnabled", "Web mail"),
    ("webmailAutoFocusReply", "Focus the reply box on opening mail"),
    ("webmailAutoMarkRead", "Mark threads read on open"),
    ("webmailDefaultQuery", "Web mail inbox query"),
    ("webmailInboxZeroCelebration", "Celebrate an empty inbox"),
    ("webmailPageSize", "Threads loaded at a time"),
    ("emailBlockRemoteImages", "Block remote images in email"),
    ("emailCleanupClassicLayout", "Classic Email Cleanup layout"),
    ("emailInboundEnabled", "Answer incoming email with the assistant"),
    ("emailInboundApprovedSenders", "Approved senders for incoming email"),
    ("emailInboundInboxId", "Incoming email inbox ID"),
    ("emailInboundPrescreenPrompt", "Incoming email screening prompt"),
    ("emailSummarizerEnabled", "Summarize forwarded email"),
    ("emailSummarizerGmailEnabled", "Summarize tagged web mail threads"),
    ("emailSummarizerInboxId", "Summarizer inbox"),
    ("emailSummarizerArchiveEnabled", "Archive email once summarized"),
    ("emailSummarizerDailyCostCapUsd", "Summarizer daily limit (USD)"),
    ("emailSummarizerDefaultPrompt", "Summarizer fallback prompt"),
    ("driveEnabled", "Cloud drive"),
    ("filesyncAEnabled", "File-sync service A"),
    ("filesyncBEnabled", "File-sync service B"),
    ("sheetsEnabled", "Spreadsheets"),
    ("trustedSheets", "Editable spreadsheets and columns"),
    ("docImportEnabled", "Import pasted document links"),
    ("docsExportEnabled", "Publish Markdown to documents"),
    ("docsDestFolderId", "Folder for published documents"),
    ("docsTemplateId", "Document to add published tabs to"),
    ("pasteRichTextAsMarkdown", "Convert pasted rich text to Markdown"),
    ("rssEnabled", "RSS and Atom feeds"),
    ("rssDigestEnabled", "Morning feed briefing"),
    ("rssDigestInterests", "Feed briefing topics"),
    ("rssDigestTime", "Feed briefing time"),
    ("chatAppEnabled", "Team chat"),
    ("chatAppPersonalEnabled", "Send team chat as yourself"),
    ("smsEnabled", "Text messages"),
    ("smsHealthAlertsEnabled", "Alert when text messaging stops working"),
    ("smsProvider", "How text messages are sent"),
    ("messengerEnabled", "Messenger"),
    ("messengerEngine", "Messenger protocol engine"),
    ("messengerBotEnabled", "Messenger bot for agents"),
    ("messengerBotAllowedGroupIds", "Groups the bot answers in"),
    ("messengerBotAllowedUserIds", "Users allowed to talk to the bot"),
    ("messengerBotDmPolicy", "Who may message the bot directly"),
    ("messengerBotGroupRequireMention", "Bot answers only mentions in groups"),
    ("spamFilterEnabled", "Spam filter"),
    ("spamFilterAgentEmailEnabled", "Filter spam sent to the agent's address"),
    ("spamFilterCalendarEnabled", "Filter spam calendar invites"),
    ("spamFilterCalendarDeleteEvent", "Delete invites from spam senders"),
    ("spamFilterSmsEnabled", "Filter spam text messages"),
    ("mailclientEnabled", "Mail client (preview)"),
    ("mailclientUseAppWebmail", "Mail client reads the connected account"),
    ("mailclientEmailsInInbox", "Mail client email as inbox cards"),
    ("mailclientDensity", "Mail list spacing"),
    ("mailclientHeaderLayout", "Mail header layout"),
    ("mailclientInboxBadgeMode", "Mail sidebar count"),
    ("mailclientAiSummaryTrigger", "When Catch me up summaries run"),
    ("mailclientAiSummaryAutoSenders", "Senders summarized automatically"),
    ("mailclientAiSummaryModel", "AI summary model"),
    ("mailclientAiSummaryPrompt", "AI summary prompt"),
    ("webhooksEnabled", "Incoming webhooks"),
    ("bugIntakeEnabled", "Bug Intake"),
    ("bugIntakeAppendPrompt", "Extra Bug Intake instructions"),
    ("bugReportEmailEnabled", "Send bug reports to the makers"),
    ("telemetryEmailEnabled", "Diagnostic emails"),
    ("crashAlertEmailEnabled", "Email each crash"),
    ("autoCapitalizeTasks", "Capitalize tasks as you type"),
    ("tasksEnabled", "Tasks"),
    ("tasksV2CatchesEnabled", "Catch follow-up tasks from sessions"),
    ("tasksV2CatchesGuidance", "Guidance for caught tasks"),
    ("tasksV2CheckboxSelects", "Checkbox selects instead of finishing"),
    ("tasksV2CompactDensity", "Compact task rows"),
    ("tasksV2HideCompleted", "Hide completed tasks"),
];

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::LABELS;
    use crate::catalog::DEFINITIONS;

    /// What a page without labels would show: the key split into words, as
    /// the settings page once did ("pmBoardDensity" gives "pm board density").
    fn derived(key: &str) -> String {
        let chars: Vec<char> = key.chars().collect();
        let mut words = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let after_lower = i > 0 && !chars[i - 1].is_ascii_uppercase();
            let ends_acronym = i > 0
                && chars[i - 1].is_ascii_uppercase()
                && chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if c.is_ascii_uppercase() && (after_lower || ends_acronym) {
                words.push(' ');
            }
            words.push(c.to_ascii_lowercase());
        }
        words
    }

    #[test]
    fn derived_text_splits_words_and_acronyms() {
        assert_eq!(derived("pmBoardDensity"), "pm board density");
        assert_eq!(derived("enableHTTPServer"), "enable http server");
        assert_eq!(
            derived("contextWarning75Enabled"),
            "context warning75 enabled"
        );
    }

    #[test]
    fn every_key_has_one_label_and_every_label_a_key() {
        let keys: HashSet<&str> = DEFINITIONS.iter().map(|def| def.key).collect();
        let labelled: HashSet<&str> = LABELS.iter().map(|(key, _)| *key).collect();
        let mut missing: Vec<&str> = keys.difference(&labelled).copied().collect();
        let mut unknown: Vec<&str> = labelled.difference(&keys).copied().collect();
        missing.sort_unstable();
        unknown.sort_unstable();
        assert!(missing.is_empty(), "keys without a label: {missing:?}");
        assert!(
            unknown.is_empty(),
            "labels for keys the catalog does not have: {unknown:?}"
        );
        assert_eq!(LABELS.len(), labelled.len(), "a key is labelled twice");
        // Catalog order lets `SettingDef::label` find a label by the key's position.
        let catalog: Vec<&str> = DEFINITIONS.iter().map(|def| def.key).collect();
        let table: Vec<&str> = LABELS.iter().map(|(key, _)| *key).collect();
        assert_eq!(table, catalog, "labels are not in catalog order");
        for def in DEFINITIONS {
            assert_ne!(def.label(), def.key, "{} has no label", def.key);
        }
    }

    #[test]
    fn labels_are_short_human_text() {
        for (key, label) in LABELS {
            assert!(!label.trim().is_empty(), "{key}: empty label");
            assert_eq!(label.trim(), *label, "{key}: spaces around {label:?}");
            assert!(!label.ends_with('.'), "{key}: {label:?} ends with a period");
            assert!(
                label.chars().count() <= 50,
                "{key}: {label:?} is over 50 characters"
            );
            assert!(
                label.starts_with(|c: char| c.is_uppercase()),
                "{key}: {label:?} must start with a capital"
            );
            assert_ne!(
                label.to_lowercase(),
                derived(key),
                "{key}: {label:?} is the key re-cased; say what the setting does"
            );
        }
    }

    #[test]
    fn labels_are_unique_within_their_section() {
        let mut seen: HashMap<(&str, &str, String), &str> = HashMap::new();
        for def in DEFINITIONS {
            let label = def.label();
            let place = (def.area.title(), def.section, label.to_lowercase());
            if let Some(other) = seen.insert(place, def.key) {
                panic!("{} and {other} are both labelled {label:?}", def.key);
            }
        }
    }
}

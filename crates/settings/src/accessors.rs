//! Generated from the catalog by `cargo test -p settings`: one typed accessor per
//! setting and an enum per select. Do not edit: change `catalog.rs`, then run the
//! tests to regenerate.

use crate::SettingsStore;

/// The values of `agentPermissionLevel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentPermissionLevel {
    /// `read_only`
    ReadOnly,
    /// `guarded`
    Guarded,
    /// `autonomous`
    Autonomous,
    /// `full`
    Full,
}

impl AgentPermissionLevel {
    pub const ALL: [Self; 4] = [Self::ReadOnly, Self::Guarded, Self::Autonomous, Self::Full];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReadOnly => "read_only",
            Self::Guarded => "guarded",
            Self::Autonomous => "autonomous",
            Self::Full => "full",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `agentInstructionsSyncCanonical`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentInstructionsSyncCanonical {
    /// `PRIMARY.md`
    PrimaryMd,
    /// `AGENTS.md`
    AgentsMd,
}

impl AgentInstructionsSyncCanonical {
    pub const ALL: [Self; 2] = [Self::PrimaryMd, Self::AgentsMd];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PrimaryMd => "PRIMARY.md",
            Self::AgentsMd => "AGENTS.md",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `agentInstructionsSyncGitMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AgentInstructionsSyncGitMode {
    /// `local`
    Local,
    /// `committed`
    Committed,
}

impl AgentInstructionsSyncGitMode {
    pub const ALL: [Self; 2] = [Self::Local, Self::Committed];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Local => "local",
            Self::Committed => "committed",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `sessionTitleStyle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SessionTitleStyle {
    /// `brief`
    Brief,
    /// `descriptive`
    Descriptive,
    /// `journey`
    Journey,
    /// `latest_topic`
    LatestTopic,
    /// `custom`
    Custom,
}

impl SessionTitleStyle {
    pub const ALL: [Self; 5] = [Self::Brief, Self::Descriptive, Self::Journey, Self::LatestTopic, Self::Custom];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Brief => "brief",
            Self::Descriptive => "descriptive",
            Self::Journey => "journey",
            Self::LatestTopic => "latest_topic",
            Self::Custom => "custom",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `imageBridgeMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageBridgeMode {
    /// `off`
    Off,
    /// `auto`
    Auto,
}

impl ImageBridgeMode {
    pub const ALL: [Self; 2] = [Self::Off, Self::Auto];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Off => "off",
            Self::Auto => "auto",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `pmBoardDensity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PmBoardDensity {
    /// `dense`
    Dense,
    /// `compact`
    Compact,
    /// `comfortable`
    Comfortable,
    /// `spacious`
    Spacious,
}

impl PmBoardDensity {
    pub const ALL: [Self; 4] = [Self::Dense, Self::Compact, Self::Comfortable, Self::Spacious];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Dense => "dense",
            Self::Compact => "compact",
            Self::Comfortable => "comfortable",
            Self::Spacious => "spacious",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `pmColorMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PmColorMode {
    /// `system`
    System,
    /// `light`
    Light,
    /// `dark`
    Dark,
}

impl PmColorMode {
    pub const ALL: [Self; 3] = [Self::System, Self::Light, Self::Dark];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::Light => "light",
            Self::Dark => "dark",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `pmSetupPreset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PmSetupPreset {
    /// `tasks`
    Tasks,
    /// `projects`
    Projects,
    /// `operations`
    Operations,
    /// `first-agent-board`
    FirstAgentBoard,
    /// `trello`
    Trello,
    /// `jira`
    Jira,
    /// `asana`
    Asana,
    /// `linear`
    Linear,
    /// `notion`
    Notion,
    /// `clickup`
    Clickup,
    /// `airtable`
    Airtable,
    /// `engineering-linear`
    EngineeringLinear,
    /// `engineering-jira`
    EngineeringJira,
}

impl PmSetupPreset {
    pub const ALL: [Self; 13] = [Self::Tasks, Self::Projects, Self::Operations, Self::FirstAgentBoard, Self::Trello, Self::Jira, Self::Asana, Self::Linear, Self::Notion, Self::Clickup, Self::Airtable, Self::EngineeringLinear, Self::EngineeringJira];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tasks => "tasks",
            Self::Projects => "projects",
            Self::Operations => "operations",
            Self::FirstAgentBoard => "first-agent-board",
            Self::Trello => "trello",
            Self::Jira => "jira",
            Self::Asana => "asana",
            Self::Linear => "linear",
            Self::Notion => "notion",
            Self::Clickup => "clickup",
            Self::Airtable => "airtable",
            Self::EngineeringLinear => "engineering-linear",
            Self::EngineeringJira => "engineering-jira",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `alarmsAssertiveness`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlarmsAssertiveness {
    /// `modal`
    Modal,
    /// `banner`
    Banner,
    /// `silent-banner`
    SilentBanner,
}

impl AlarmsAssertiveness {
    pub const ALL: [Self; 3] = [Self::Modal, Self::Banner, Self::SilentBanner];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Modal => "modal",
            Self::Banner => "banner",
            Self::SilentBanner => "silent-banner",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `alarmsDefaultSoundPlayMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlarmsDefaultSoundPlayMode {
    /// `once`
    Once,
    /// `loop`
    Loop,
}

impl AlarmsDefaultSoundPlayMode {
    pub const ALL: [Self; 2] = [Self::Once, Self::Loop];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Once => "once",
            Self::Loop => "loop",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `archiveDigestCadence`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArchiveDigestCadence {
    /// `off`
    Off,
    /// `daily`
    Daily,
    /// `weekly`
    Weekly,
}

impl ArchiveDigestCadence {
    pub const ALL: [Self; 3] = [Self::Off, Self::Daily, Self::Weekly];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Off => "off",
            Self::Daily => "daily",
            Self::Weekly => "weekly",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `notificationBehavior`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotificationBehavior {
    /// `always`
    Always,
    /// `backgrounded`
    Backgrounded,
    /// `never`
    Never,
}

impl NotificationBehavior {
    pub const ALL: [Self; 3] = [Self::Always, Self::Backgrounded, Self::Never];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Always => "always",
            Self::Backgrounded => "backgrounded",
            Self::Never => "never",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `calendarNotificationDelivery`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CalendarNotificationDelivery {
    /// `inbox`
    Inbox,
    /// `toast`
    Toast,
    /// `both`
    Both,
}

impl CalendarNotificationDelivery {
    pub const ALL: [Self; 3] = [Self::Inbox, Self::Toast, Self::Both];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Inbox => "inbox",
            Self::Toast => "toast",
            Self::Both => "both",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `calendarWeekStartDay`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CalendarWeekStartDay {
    /// `sunday`
    Sunday,
    /// `monday`
    Monday,
}

impl CalendarWeekStartDay {
    pub const ALL: [Self; 2] = [Self::Sunday, Self::Monday];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sunday => "sunday",
            Self::Monday => "monday",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `smsProvider`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SmsProvider {
    /// `relay`
    Relay,
    /// `native`
    Native,
}

impl SmsProvider {
    pub const ALL: [Self; 2] = [Self::Relay, Self::Native];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Relay => "relay",
            Self::Native => "native",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `messengerEngine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessengerEngine {
    /// `engine_maintained`
    EngineMaintained,
    /// `engine_legacy`
    EngineLegacy,
}

impl MessengerEngine {
    pub const ALL: [Self; 2] = [Self::EngineMaintained, Self::EngineLegacy];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::EngineMaintained => "engine_maintained",
            Self::EngineLegacy => "engine_legacy",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `messengerBotDmPolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessengerBotDmPolicy {
    /// `pairing`
    Pairing,
    /// `allowlist`
    Allowlist,
    /// `disabled`
    Disabled,
}

impl MessengerBotDmPolicy {
    pub const ALL: [Self; 3] = [Self::Pairing, Self::Allowlist, Self::Disabled];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pairing => "pairing",
            Self::Allowlist => "allowlist",
            Self::Disabled => "disabled",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `mailclientDensity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailclientDensity {
    /// `tight`
    Tight,
    /// `compact`
    Compact,
    /// `comfortable`
    Comfortable,
    /// `spacious`
    Spacious,
    /// `roomy`
    Roomy,
}

impl MailclientDensity {
    pub const ALL: [Self; 5] = [Self::Tight, Self::Compact, Self::Comfortable, Self::Spacious, Self::Roomy];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tight => "tight",
            Self::Compact => "compact",
            Self::Comfortable => "comfortable",
            Self::Spacious => "spacious",
            Self::Roomy => "roomy",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `mailclientHeaderLayout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailclientHeaderLayout {
    /// `current`
    Current,
    /// `unified`
    Unified,
    /// `rail`
    Rail,
}

impl MailclientHeaderLayout {
    pub const ALL: [Self; 3] = [Self::Current, Self::Unified, Self::Rail];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Current => "current",
            Self::Unified => "unified",
            Self::Rail => "rail",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `mailclientInboxBadgeMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailclientInboxBadgeMode {
    /// `unread`
    Unread,
    /// `total`
    Total,
}

impl MailclientInboxBadgeMode {
    pub const ALL: [Self; 2] = [Self::Unread, Self::Total];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unread => "unread",
            Self::Total => "total",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

/// The values of `mailclientAiSummaryTrigger`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailclientAiSummaryTrigger {
    /// `manual`
    Manual,
    /// `auto`
    Auto,
    /// `selective`
    Selective,
}

impl MailclientAiSummaryTrigger {
    pub const ALL: [Self; 3] = [Self::Manual, Self::Auto, Self::Selective];

    /// The value as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Manual => "manual",
            Self::Auto => "auto",
            Self::Selective => "selective",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|value| value.as_str() == name)
    }
}

impl SettingsStore {
    /// Where the user first found the application.
    pub fn heard_about_us(&self) -> String {
        self.text_at(0)
    }

    /// Agents may drop persistent inbox rows via POST /alert.
    pub fn agent_alerts_enabled(&self) -> bool {
        self.toggle_at(1)
    }

    /// Global concurrency limit across active agent-driven sessions; new spawns beyond the count are refused.
    pub fn agent_driven_max_concurrent(&self) -> u32 {
        self.count_at(2)
    }

    /// USD ceiling on cumulative cost of one agent-driven session. Not enforced: value is stored and returned only.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn agent_driven_max_dollars_per_session(&self) -> f64 {
        self.number_at(3)
    }

    /// Ceiling on follow-up turns of one agent-driven session. Not enforced: value is stored and returned only.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn agent_driven_max_turns_per_session(&self) -> u32 {
        self.count_at(4)
    }

    /// Lets external scripts spawn sessions and send follow-up messages on their own. Default off.
    pub fn agent_driven_sessions_enabled(&self) -> bool {
        self.toggle_at(5)
    }

    /// Rewrites agents' find commands to run per-file work in batches instead of one process per file. Default on. Takes effect on the next new session.
    pub fn agent_find_batching_enabled(&self) -> bool {
        self.toggle_at(6)
    }

    /// A session may ask the user to type a value it cannot set itself (for example an API key). The AI never sees the typed value.
    pub fn agent_input_requests_enabled(&self) -> bool {
        self.toggle_at(7)
    }

    /// A session may offer a key it holds for the user to review, edit and save. Nothing is saved without the user pressing Save.
    pub fn agent_key_proposals_enabled(&self) -> bool {
        self.toggle_at(8)
    }

    /// How much an agent does before the application asks the user. Below full, protection of sensitive files (SSH keys, credentials, system files) always asks; full auto-approves them too. On external engines a sensitive file is refused at every level, full included. Email-triggered sessions stay locked down at every level. Applies to primary-engine sessions, to new second-engine sessions unless that engine has its own level under Accounts, and to external engines.
    pub fn agent_permission_level(&self) -> AgentPermissionLevel {
        AgentPermissionLevel::from_name(&self.text_at(9)).unwrap_or(AgentPermissionLevel::Guarded)
    }

    /// Live board of every launched agent (workspace, status, dev-pipeline phase, to-do checklist) with one-click jump to the session; adds an Agent Board toolbar icon.
    pub fn agent_status_board_enabled(&self) -> bool {
        self.toggle_at(10)
    }

    /// Lets external agents read AI coaching artifacts and start coaching interviews over the local control server. Default on; off disables all coaching CLI access.
    pub fn ai_coaching_cli_enabled(&self) -> bool {
        self.toggle_at(11)
    }

    /// Lets external agents list, create, update, delete, reorder and launch bookmarks over the control server. Default on.
    pub fn bookmarks_cli_enabled(&self) -> bool {
        self.toggle_at(12)
    }

    /// Default off: the control-server restart route is disabled for every caller, even with the global CLI token. The user's own Restart button is unaffected.
    pub fn allow_agent_app_restart(&self) -> bool {
        self.toggle_at(13)
    }

    /// Default off: an agent's request to switch the user's view (hub, inbox, settings pane, note, mind map, mail thread) yields a click-to-go toast. On: the view switches immediately. The user's own clicks and notification clicks always navigate. If the user is in another app, the request cannot move the view and a dismissible inbox note appears.
    pub fn allow_agent_direct_navigation(&self) -> bool {
        self.toggle_at(14)
    }

    /// Default off: an agent's request to bring the window to front is ignored while the user is in another app, and a dismissible inbox note names the session. On: agents may pull the window to front. Agents can still drive the UI while the user is already in the application.
    pub fn allow_agent_foreground_from_background(&self) -> bool {
        self.toggle_at(15)
    }

    /// Default off: a command-line session spawn presenting only an agent's scoped token ($APP_CLI_TOKEN) is rejected. The global CLI token still spawns. On: agents spawn with their scoped token.
    pub fn allow_agent_token_spawn(&self) -> bool {
        self.toggle_at(16)
    }

    /// Default off: a team chat write over the CLI (direct or channel message, reaction, edit, delete, pin, scheduled direct message, guest invite) presenting only a scoped agent token is rejected. On: allowed; each message is labeled as the user's agent.
    pub fn allow_agent_token_team_chat(&self) -> bool {
        self.toggle_at(17)
    }

    /// Default on: a session spawned over the command-line API is rejected unless the header X-App-Source-Session-Id names the requesting session (spawned agents have it in $APP_SESSION_ID). Off allows anonymous spawns.
    pub fn require_spawn_source_session(&self) -> bool {
        self.toggle_at(18)
    }

    /// Control server on the loopback address, port 19519. Default on. Off stops it binding at launch; takes effect on next start; while off, tooling that talks to the application cannot connect, including the switches that govern the server's routes.
    pub fn cli_server_enabled(&self) -> bool {
        self.toggle_at(19)
    }

    /// Wait between brand-new sessions created by an agent or automation in a burst. 0 starts immediately. Sessions opened by the user are unaffected. Immediate effect.
    pub fn cli_spawn_spacing_seconds(&self) -> u32 {
        self.count_at(20)
    }

    /// Custom text appended to every spawned session beside preset instructions.
    pub fn default_agent_instructions_custom(&self) -> String {
        self.text_at(21)
    }

    /// Injects curated instruction presets into every primary-engine session (attribution removal, cloud safety, private repos, README standards).
    pub fn default_agent_instructions_enabled(&self) -> bool {
        self.toggle_at(22)
    }

    /// Mirrors the canonical instructions file into the filenames other AI coding tools read. Default off.
    pub fn agent_instructions_sync_enabled(&self) -> bool {
        self.toggle_at(23)
    }

    /// Which filename is the source of truth for sync. Default PRIMARY.md.
    pub fn agent_instructions_sync_canonical(&self) -> AgentInstructionsSyncCanonical {
        AgentInstructionsSyncCanonical::from_name(&self.text_at(24)).unwrap_or(AgentInstructionsSyncCanonical::PrimaryMd)
    }

    /// Whether generated copies are committed to git (committed) or kept out of it (local).
    pub fn agent_instructions_sync_git_mode(&self) -> AgentInstructionsSyncGitMode {
        AgentInstructionsSyncGitMode::from_name(&self.text_at(25)).unwrap_or(AgentInstructionsSyncGitMode::Local)
    }

    /// Filenames written alongside the canonical file. The canonical file itself is hidden (no self-copies).
    pub fn agent_instructions_sync_mirrors(&self) -> Vec<String> {
        self.strings_at(26)
    }

    /// Automatically approves the primary engine modifying its own config files. Off asks for each change.
    pub fn auto_approve_config_files(&self) -> bool {
        self.toggle_at(27)
    }

    /// Automatically approves a plan the primary engine proposes before writing code.
    pub fn auto_approve_plans(&self) -> bool {
        self.toggle_at(28)
    }

    /// Detects questions in an agent reply even when the agent did not explicitly ask.
    pub fn auto_detect_questions(&self) -> bool {
        self.toggle_at(29)
    }

    /// On: a finished session may archive itself immediately even when the pause/snooze/archive approval requirement is on, with nothing in the inbox. Only self-archiving is exempt; archiving another session over the CLI still asks. Default off.
    pub fn session_self_archive_without_approval(&self) -> bool {
        self.toggle_at(30)
    }

    /// Breaks a loop of repeating the same action (re-reading an unchanged file, repeating a command) and relaunches the agent.
    pub fn read_loop_breaker_enabled(&self) -> bool {
        self.toggle_at(31)
    }

    /// Tells each session its command line keeps its folder, so the agent changes folder once.
    pub fn shell_cwd_persist_nudge_enabled(&self) -> bool {
        self.toggle_at(32)
    }

    /// Typing / in the composer opens a filtering menu of skills.
    pub fn skill_slash_autocomplete(&self) -> bool {
        self.toggle_at(33)
    }

    /// Adds a note to every session saying it runs in the application and how to reach it.
    pub fn app_awareness_prompt_enabled(&self) -> bool {
        self.toggle_at(34)
    }

    /// Adds an Ask virtual project: a tutor agent loaded with the docs and live state.
    pub fn ask_app_enabled(&self) -> bool {
        self.toggle_at(35)
    }

    /// Assume a non-technical reader: plain language, brief start, clean headers, tight bullets.
    pub fn audience_style_prompt_enabled(&self) -> bool {
        self.toggle_at(36)
    }

    /// Adds a note for senior-engineer habits (simplicity, root-cause fixes, believing bug reports, real tests, performance and security).
    pub fn engineering_principles_prompt_enabled(&self) -> bool {
        self.toggle_at(37)
    }

    /// Adds a note: act right away on actionable requests, push to a real finish, back completion claims with evidence.
    pub fn execution_bias_prompt_enabled(&self) -> bool {
        self.toggle_at(38)
    }

    /// Adds a reminders block to every turn.
    pub fn key_reminders_prompt_enabled(&self) -> bool {
        self.toggle_at(39)
    }

    /// Gives every agent a warm, resourceful, action-biased character.
    pub fn persona_prompt_enabled(&self) -> bool {
        self.toggle_at(40)
    }

    /// Sub-option of Show only the final message: the engine's boundary of the real answer wins over the agent's printed marker. Default off.
    pub fn final_message_cli_boundary_wins(&self) -> bool {
        self.toggle_at(41)
    }

    /// Sub-option: when the final-answer marker is present, hide everything before it, even on plain answers, folded into an expandable row. Default on.
    pub fn final_message_marker_always_hide(&self) -> bool {
        self.toggle_at(42)
    }

    /// Sub-option: draw a divider at the marker instead of hiding. Default off.
    pub fn final_message_marker_debug(&self) -> bool {
        self.toggle_at(43)
    }

    /// Sub-option: when several final messages are marked in one turn, show all of them. Default on.
    pub fn final_message_marker_show_all_blocks(&self) -> bool {
        self.toggle_at(44)
    }

    /// Sub-option: on a turn that used tools, the marker never hides the answer or live question written after the last tool step; only tool calls and thinking collapse. Default on.
    pub fn final_message_structural_floor(&self) -> bool {
        self.toggle_at(45)
    }

    /// How AI session titles are written. journey and latest_topic auto-refresh.
    pub fn session_title_style(&self) -> SessionTitleStyle {
        SessionTitleStyle::from_name(&self.text_at(46)).unwrap_or(SessionTitleStyle::Brief)
    }

    /// Per-feature model override for first naming of a session; null inherits the global utility model.
    pub fn initial_title_model(&self) -> Option<String> {
        self.optional_text_at(47)
    }

    /// Model override for staleness checks and title refreshes.
    pub fn refresh_title_model(&self) -> String {
        self.text_at(48)
    }

    /// When the selected model cannot see images, send attachments to a vision-capable model first and pass a text brief. Extra model call. Default off.
    pub fn image_bridge_mode(&self) -> ImageBridgeMode {
        ImageBridgeMode::from_name(&self.text_at(49)).unwrap_or(ImageBridgeMode::Off)
    }

    /// Places the cursor in the text box when switching sessions. Off: press R to focus.
    pub fn session_auto_focus_input(&self) -> bool {
        self.toggle_at(50)
    }

    /// Renders the active session in its own background process; effect on the next session clicked.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn isolated_session_view_enabled(&self) -> bool {
        self.toggle_at(51)
    }

    /// In-chat note at about 75% of the context window. Default off.
    pub fn context_warning75_enabled(&self) -> bool {
        self.toggle_at(52)
    }

    /// In-chat note at about 90%. Default off.
    pub fn context_warning90_enabled(&self) -> bool {
        self.toggle_at(53)
    }

    /// When a session fills its context and stops mid-task, frees space and continues it.
    pub fn context_stall_auto_recover_enabled(&self) -> bool {
        self.toggle_at(54)
    }

    /// Shows Meeting Rooms in the sidebar and enables the Ctrl+Shift+Z palette shortcut. Saved rooms are preserved when off.
    pub fn meeting_rooms_enabled(&self) -> bool {
        self.toggle_at(55)
    }

    /// Shows the project-board module in the sidebar (projects, groups, items, views).
    pub fn project_boards_enabled(&self) -> bool {
        self.toggle_at(56)
    }

    /// Shows the Running Apps entry: live list of dev servers the application launched through its bundled proxy at .localhost addresses.
    pub fn running_apps_enabled(&self) -> bool {
        self.toggle_at(57)
    }

    /// Shows the bookmarks toolbar button and popover. Default off; bookmark rows are preserved.
    pub fn show_bookmarks_in_toolbar(&self) -> bool {
        self.toggle_at(58)
    }

    /// Floating sticky notes on the desktop.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn sticky_notes_enabled(&self) -> bool {
        self.toggle_at(59)
    }

    /// World-clock dashboard with working-hours status and a meeting planner.
    pub fn team_time_enabled(&self) -> bool {
        self.toggle_at(60)
    }

    /// One screen showing landed, waiting-on-review, turned-down and stranded changes.
    pub fn wheres_my_work_enabled(&self) -> bool {
        self.toggle_at(61)
    }

    /// Surfaces the Drip virtual project (queues releasing content to the inbox on a chosen cadence).
    pub fn drip_enabled(&self) -> bool {
        self.toggle_at(62)
    }

    /// Master pause: drips keep cadence but skip every release.
    pub fn drip_global_pause(&self) -> bool {
        self.toggle_at(63)
    }

    /// Renders .html drip items in a sandboxed preview (no network, no app access). Off shows a plain chip.
    pub fn drip_html_preview_enabled(&self) -> bool {
        self.toggle_at(64)
    }

    /// Surfaces the Scheduled Messages virtual project (rich-markdown note dropped into the inbox once or recurring).
    pub fn scheduled_messages_enabled(&self) -> bool {
        self.toggle_at(65)
    }

    /// How tightly items are packed on boards.
    pub fn pm_board_density(&self) -> PmBoardDensity {
        PmBoardDensity::from_name(&self.text_at(66)).unwrap_or(PmBoardDensity::Comfortable)
    }

    /// Boards shown on the calendar overlay; empty means all.
    pub fn pm_calendar_board_ids(&self) -> Vec<String> {
        self.strings_at(67)
    }

    /// Shows item due dates and sprint timelines as a calendar overlay, color-coded by project.
    pub fn pm_calendar_overlay_enabled(&self) -> bool {
        self.toggle_at(68)
    }

    /// Board appearance.
    pub fn pm_color_mode(&self) -> PmColorMode {
        PmColorMode::from_name(&self.text_at(69)).unwrap_or(PmColorMode::System)
    }

    /// Which events each board sends to the inbox.
    pub fn pm_inbox_board_preferences(&self) -> serde_json::Value {
        self.json_at(70)
    }

    /// Batches project events into one digest notification; overdue items always notify immediately.
    pub fn pm_inbox_digest_mode(&self) -> bool {
        self.toggle_at(71)
    }

    /// Surfaces project events (assignments, status changes, due dates) as inbox rows.
    pub fn pm_inbox_enabled(&self) -> bool {
        self.toggle_at(72)
    }

    /// Pauses project notifications in a daily window; overdue items always notify immediately.
    pub fn pm_inbox_quiet_hours_enabled(&self) -> bool {
        self.toggle_at(73)
    }

    /// Time of day notifications pause.
    pub fn pm_inbox_quiet_hours_start(&self) -> String {
        self.text_at(74)
    }

    /// Time of day notifications resume.
    pub fn pm_inbox_quiet_hours_end(&self) -> String {
        self.text_at(75)
    }

    /// Timezone of quiet hours; defaults to the system timezone when unset.
    pub fn pm_inbox_quiet_hours_time_zone(&self) -> String {
        self.text_at(76)
    }

    /// Active setup preset chosen in the wizard; controls which columns, views and features appear.
    pub fn pm_setup_preset(&self) -> PmSetupPreset {
        PmSetupPreset::from_name(&self.text_at(77)).unwrap_or(PmSetupPreset::Tasks)
    }

    /// Restarts a turn stuck on thinking with no reply.
    pub fn auto_restart_unresponsive_sessions(&self) -> bool {
        self.toggle_at(78)
    }

    /// Restarts sessions active at app close or crash; running ones get a continue nudge, ones waiting for input are restored.
    pub fn auto_resume_on_crash(&self) -> bool {
        self.toggle_at(79)
    }

    /// Keeps retrying with growing gaps when a running session fails to launch due to a transient overload; genuine errors still stop and turn red.
    pub fn relentless_session_relaunch(&self) -> bool {
        self.toggle_at(80)
    }

    /// Runs the rebuilt session engine V2. Default on. Chosen at app start: restart to apply.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn session_store_v2_enabled(&self) -> bool {
        self.toggle_at(81)
    }

    /// Spacing between starts when several sessions return together (restore, rate-limit recovery, batch restart). 0 falls back to built-in spacing. Manual single starts are never delayed. Immediate effect.
    pub fn session_restart_spacing_seconds(&self) -> f64 {
        self.number_at(82)
    }

    /// Spacing used after the warm-up time has passed; 0 keeps the earlier spacing for the whole batch. Immediate effect.
    pub fn session_restart_spacing_after_warmup_seconds(&self) -> f64 {
        self.number_at(83)
    }

    /// How long the first spacing applies, counted from when the batch starts returning; 0 skips the warm-up. Immediate effect.
    pub fn session_restart_spacing_warmup_minutes(&self) -> u32 {
        self.count_at(84)
    }

    /// When memory is low, holds new burst-started sessions (auto-created bug/feature sessions, recipe runs, mass restarts) until memory frees; a held session starts within a few seconds; manual sessions never delayed; sessions resuming after restart are always paced. All platforms.
    pub fn session_memory_guard_enabled(&self) -> bool {
        self.toggle_at(85)
    }

    /// Memory-in-use percentage at which holding starts. Range step 5.
    pub fn session_memory_guard_percent(&self) -> u32 {
        self.count_at(86)
    }

    /// When fewer sessions than this run, the governor restarts recently active interrupted work sessions up to this count. Never restarts a session that finished cleanly, waits on the user, was stopped by the user, or recovers by itself.
    pub fn session_refill_target_count(&self) -> u32 {
        self.count_at(87)
    }

    /// Maximum sessions revived per 5-minute check.
    pub fn session_refill_batch(&self) -> u32 {
        self.count_at(88)
    }

    /// The same session is not re-poked within this many minutes.
    pub fn session_refill_cooldown_minutes(&self) -> u32 {
        self.count_at(89)
    }

    /// Maximum daily revive spend; only pay-per-use sessions count. At the cap, pauses until the next day. 0 turns the dollar cap off; the daily revive-count limit still applies.
    pub fn session_refill_daily_spend_cap_usd(&self) -> f64 {
        self.number_at(90)
    }

    /// Default off: on, paused sessions count as restartable and are un-paused.
    pub fn session_refill_include_paused(&self) -> bool {
        self.toggle_at(91)
    }

    /// Default off: on, sessions the user closed count as restartable. A session stopped with Stop is never touched.
    pub fn session_refill_allow_reopen_user_closed(&self) -> bool {
        self.toggle_at(92)
    }

    /// Sessions whose last activity is older are skipped.
    pub fn session_refill_max_candidate_age_hours(&self) -> u32 {
        self.count_at(93)
    }

    /// Revive budget per session per day.
    pub fn session_refill_max_revives_per_session_per_day(&self) -> u32 {
        self.count_at(94)
    }

    /// Developer preview: reflects live cloud-session status and starts paid cloud machines. Default off; the relay only runs in an unpackaged build with cloud sessions enabled. Effect at next app start.
    pub fn cloud_control_plane_enabled(&self) -> bool {
        self.toggle_at(95)
    }

    /// Runs each cloud session on its own locked-down machine (separate VM, restrictive firewall, short-lived key). Paid; default off; applies to the next cloud launch.
    pub fn cloud_hardened_session_enabled(&self) -> bool {
        self.toggle_at(96)
    }

    /// When cloud work returns to this computer, runs the configured code reviewers against the returned branch and records findings. Default on. A review does not hold the branch back.
    pub fn cloud_session_reviews_enabled(&self) -> bool {
        self.toggle_at(97)
    }

    /// A cloud session may start helper cloud sessions, each approved from a card; one click stops the whole tree. Default off.
    pub fn cloud_started_sessions_enabled(&self) -> bool {
        self.toggle_at(98)
    }

    /// While an application window is foreground, raises the application's processes to Above-Normal priority. No effect on platforms M and L.
    pub fn boost_app_process_priority(&self) -> bool {
        self.toggle_at(99)
    }

    /// Locks the application database in physical RAM. Platform W only. Default on; auto-sizes, self-caps, turns itself off on low-memory machines.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn keep_app_resident_in_memory(&self) -> bool {
        self.toggle_at(100)
    }

    /// Prevents system sleep while sessions run; display may sleep. Default on. Works on platforms W and M; on L depends on the desktop environment.
    pub fn keep_awake_while_sessions_running(&self) -> bool {
        self.toggle_at(101)
    }

    /// While merge all ready branches runs, gives that session Above-Normal CPU priority and drops other sessions to Below-Normal. Reverts at merge end, after 30 minutes, or when turned off. Platform M can only lower others; no effect on platform L.
    pub fn merge_priority_boost_enabled(&self) -> bool {
        self.toggle_at(102)
    }

    /// Reserves one performance core of a hybrid CPU for the application window; sessions kept off it. No effect on non-hybrid CPUs or non-W platforms. Default off.
    pub fn reserve_ui_core_enabled(&self) -> bool {
        self.toggle_at(103)
    }

    /// On hybrid CPUs, confines engine sessions to efficiency cores when host CPU averages above 85% and releases them below 60%. No effect on non-hybrid CPUs or non-W platforms.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn session_adaptive_ecore_affinity(&self) -> bool {
        self.toggle_at(104)
    }

    /// When memory is low, tells busy sessions to keep less in RAM. Starts above about 85% RAM use, lifts below about 70%. Platform W only.
    pub fn session_adaptive_memory_paging(&self) -> bool {
        self.toggle_at(105)
    }

    /// Soft-caps combined CPU of all engine processes when the host is contended; also applies below-normal priority. No effect on platforms M and L.
    pub fn session_cpu_cap_enabled(&self) -> bool {
        self.toggle_at(106)
    }

    /// Maximum combined CPU percentage when contended. Range step 5.
    pub fn session_cpu_cap_percent(&self) -> u32 {
        self.count_at(107)
    }

    /// Makes the cap a hard ceiling even when nothing else runs. No effect on platforms M and L.
    pub fn session_cpu_cap_strict(&self) -> bool {
        self.toggle_at(108)
    }

    /// Kernel-level ceiling on processes per session; new processes past it fail until some finish; nothing running is killed. Platform W only.
    pub fn session_max_processes_enabled(&self) -> bool {
        self.toggle_at(109)
    }

    /// Each session loads only tool servers the application set up for it instead of every server in the global config. Applies to primary-engine sessions. Default on.
    pub fn session_strict_mcp_config(&self) -> bool {
        self.toggle_at(110)
    }

    /// Runs each session and everything it spawns at Below-Normal priority. Works on platforms W and M.
    pub fn session_tree_below_normal_priority(&self) -> bool {
        self.toggle_at(111)
    }

    /// Runs each session tree at low disk priority and below-normal memory priority. Platform W only.
    pub fn session_tree_low_io_priority(&self) -> bool {
        self.toggle_at(112)
    }

    /// Most the friction triage loop may spend in a rolling 24 hours; 0 means no limit. At the cap the next triage run does not start; already-started fixer sessions are not recalled.
    pub fn friction_triage_cost_cap_usd(&self) -> f64 {
        self.number_at(113)
    }

    /// Runs the deep analysis once a week (Monday morning); spawns a paid session and respects the daily spend cap.
    pub fn session_forensics_auto_weekly_enabled(&self) -> bool {
        self.toggle_at(114)
    }

    /// Maximum spend per calendar day of the deep analysis run; beyond it the run is refused.
    pub fn session_forensics_daily_cost_cap_usd(&self) -> f64 {
        self.number_at(115)
    }

    /// How often the free deterministic friction scan runs.
    pub fn session_forensics_scan_interval_hours(&self) -> u32 {
        self.count_at(116)
    }

    /// Master switch for Alarms.
    pub fn alarms_enabled(&self) -> bool {
        self.toggle_at(117)
    }

    /// How alarms surface when firing.
    pub fn alarms_assertiveness(&self) -> AlarmsAssertiveness {
        AlarmsAssertiveness::from_name(&self.text_at(118)).unwrap_or(AlarmsAssertiveness::Modal)
    }

    /// Raises the window above other apps when an alarm fires.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn alarms_bring_to_foreground(&self) -> bool {
        self.toggle_at(119)
    }

    /// Fires alarms immediately even during Focus Mode batching.
    pub fn alarms_pierce_focus_mode(&self) -> bool {
        self.toggle_at(120)
    }

    /// Maximum snoozes before only Dismiss remains.
    pub fn alarms_default_max_snoozes(&self) -> i64 {
        self.integer_at(121)
    }

    /// Default snooze length.
    pub fn alarms_default_snooze_minutes(&self) -> u32 {
        self.count_at(122)
    }

    /// Sound played when an alarm fires.
    pub fn alarms_default_sound(&self) -> String {
        self.text_at(123)
    }

    /// How long the sound plays before stopping (or forever).
    pub fn alarms_default_sound_duration_seconds(&self) -> i64 {
        self.integer_at(124)
    }

    /// Ramp from silent to full over this many seconds.
    pub fn alarms_default_sound_fade_in_seconds(&self) -> u32 {
        self.count_at(125)
    }

    /// Play once, or loop until dismissed.
    pub fn alarms_default_sound_play_mode(&self) -> AlarmsDefaultSoundPlayMode {
        AlarmsDefaultSoundPlayMode::from_name(&self.text_at(126)).unwrap_or(AlarmsDefaultSoundPlayMode::Loop)
    }

    /// Reads the alarm label aloud (text-to-speech).
    pub fn alarms_default_speak_label(&self) -> bool {
        self.toggle_at(127)
    }

    /// Auto-dismisses alarms to the inbox after this many minutes.
    pub fn alarms_max_ringing_minutes(&self) -> u32 {
        self.count_at(128)
    }

    /// Maximum daily spend on small-model natural-language alarm parsing.
    pub fn alarm_nlp_daily_cost_cap(&self) -> f64 {
        self.number_at(129)
    }

    /// Hub the Start session button on an alert opens in when the alert names none. Automatic uses the hub with this app's own code if present, otherwise the primary engine's hub.
    pub fn alert_session_default_project_id(&self) -> String {
        self.text_at(130)
    }

    /// How often an Archive Insights AI digest is posted to the inbox.
    pub fn archive_digest_cadence(&self) -> ArchiveDigestCadence {
        ArchiveDigestCadence::from_name(&self.text_at(131)).unwrap_or(ArchiveDigestCadence::Off)
    }

    /// Brings the app to the foreground when a session needs attention.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn auto_focus_on_needs_you(&self) -> bool {
        self.toggle_at(132)
    }

    /// Navigates to the inbox when another session needs attention, only if the user was idle at least 5 seconds.
    pub fn auto_switch_to_inbox(&self) -> bool {
        self.toggle_at(133)
    }

    /// Phone push notifications without sender, subject or message text.
    pub fn content_free_mobile_push(&self) -> bool {
        self.toggle_at(134)
    }

    /// Count badge on the taskbar or dock icon for sessions that need the user.
    pub fn desktop_icon_badge_enabled(&self) -> bool {
        self.toggle_at(135)
    }

    /// Off stops announcements, surveys and read receipts from the maker's team.
    pub fn developer_messages_enabled(&self) -> bool {
        self.toggle_at(136)
    }

    /// Master kill-switch for Focus Mode; off hides the toolbar pill and alerts always fire individually.
    pub fn focus_mode_feature_enabled(&self) -> bool {
        self.toggle_at(137)
    }

    /// Master switch for optional tips, nudges and coaching cards; real alerts are unaffected.
    pub fn helpful_hints_enabled(&self) -> bool {
        self.toggle_at(138)
    }

    /// A turn that the session calls a routine update stays out of the inbox; a turn asking a question is never hidden. Default on.
    pub fn hide_routine_updates_from_inbox(&self) -> bool {
        self.toggle_at(139)
    }

    /// Records how inbox items behave (wait time, pile-up, looks without action, time spent) for the Stats Inbox tab; stays on the device, no message content, phone numbers or ids.
    pub fn inbox_analytics_enabled(&self) -> bool {
        self.toggle_at(140)
    }

    /// Inbox card when one login carries far more running sessions than others and is near its limit.
    pub fn load_balancing_notice_enabled(&self) -> bool {
        self.toggle_at(141)
    }

    /// One inbox alert if a device opens the mobile web app but never finishes loading; clears itself.
    pub fn mobile_reliability_alerts_enabled(&self) -> bool {
        self.toggle_at(142)
    }

    /// When system notifications show.
    pub fn notification_behavior(&self) -> NotificationBehavior {
        NotificationBehavior::from_name(&self.text_at(143)).unwrap_or(NotificationBehavior::Backgrounded)
    }

    /// Keeps a log of recent chimes (which session, played or not, why suppressed).
    pub fn notification_history_enabled(&self) -> bool {
        self.toggle_at(144)
    }

    /// What happens after sending a message.
    pub fn post_send_navigation(&self) -> Vec<String> {
        self.strings_at(145)
    }

    /// How long error and warning toasts stay.
    pub fn toast_display_duration_seconds(&self) -> u32 {
        self.count_at(146)
    }

    /// Sends the application's own notices (outage, failed scheduled job, budget or balance warning) from the tray icon.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn tray_system_notifications_enabled(&self) -> bool {
        self.toggle_at(147)
    }

    /// Hint in a session after long watching a running agent. Desktop only.
    ///
    /// Stored only: this version does not act on it yet.
    pub fn watching_running_agent_nudge_enabled(&self) -> bool {
        self.toggle_at(148)
    }

    /// Inbox card at most once a week after heavy agent-watching time.
    pub fn watching_time_recap_card_enabled(&self) -> bool {
        self.toggle_at(149)
    }

    /// Automation rules waiting for approval.
    pub fn inbox_show_automations(&self) -> bool {
        self.toggle_at(150)
    }

    /// Calendar reminders and agenda.
    pub fn inbox_show_calendar(&self) -> bool {
        self.toggle_at(151)
    }

    /// Pending CLI approval requests.
    pub fn inbox_show_cli_pending(&self) -> bool {
        self.toggle_at(152)
    }

    /// Cron jobs waiting for approval.
    pub fn inbox_show_cron(&self) -> bool {
        self.toggle_at(153)
    }

    /// Daily briefing summaries.
    pub fn inbox_show_digest(&self) -> bool {
        self.toggle_at(154)
    }

    /// Recipe approvals and failed, stalled or incomplete runs.
    pub fn inbox_show_recipes(&self) -> bool {
        self.toggle_at(155)
    }

    /// Sessions needing attention.
    pub fn inbox_show_sessions(&self) -> bool {
        self.toggle_at(156)
    }

    /// Incoming text messages via the text relay.
    pub fn inbox_show_sms(&self) -> bool {
        self.toggle_at(157)
    }

    /// Messenger messages via its client protocol.
    pub fn inbox_show_messenger(&self) -> bool {
        self.toggle_at(158)
    }

    /// Daily briefing summarising session activity across hubs.
    pub fn daily_digest_enabled(&self) -> bool {
        self.toggle_at(159)
    }

    /// Which sources the daily briefing includes.
    pub fn daily_digest_sources(&self) -> serde_json::Value {
        self.json_at(160)
    }

    /// Generates a summary every Monday at the scheduled hour; existing summaries stay when off.
    pub fn weekly_summary_enabled(&self) -> bool {
        self.toggle_at(161)
    }

    /// Local hour (Monday only) of generation.
    pub fn weekly_summary_schedule_hour(&self) -> u32 {
        self.count_at(162)
    }

    /// Maximum daily spend on weekly summary small-model calls before generation pauses.
    pub fn weekly_summary_daily_cost_cap_usd(&self) -> f64 {
        self.number_at(163)
    }

    /// Hours before the projected run-out at which the model-vendor-A balance forecast alert fires.
    pub fn vendor_a_balance_alert_lead_hours(&self) -> f64 {
        self.number_at(164)
    }

    /// Watches the model-vendor-B API balance; raises an inbox card with a one-click Recharge button before it runs out.
    pub fn vendor_b_balance_monitor_enabled(&self) -> bool {
        self.toggle_at(165)
    }

    /// Dollar amount under which the low-balance alert fires.
    pub fn vendor_b_balance_threshold_usd(&self) -> f64 {
        self.number_at(166)
    }

    /// Upcoming events and meeting reminders in the sidebar.
    pub fn calendar_enabled(&self) -> bool {
        self.toggle_at(167)
    }

    /// Today's Agenda card in the inbox each morning.
    pub fn calendar_daily_agenda_enabled(&self) -> bool {
        self.toggle_at(168)
    }

    /// How calendar notifications are delivered.
    pub fn calendar_notification_delivery(&self) -> CalendarNotificationDelivery {
        CalendarNotificationDelivery::from_name(&self.text_at(169)).unwrap_or(CalendarNotificationDelivery::Inbox)
    }

    /// Minutes before an event for the starting-soon reminder.
    pub fn calendar_reminder_minutes(&self) -> u32 {
        self.count_at(170)
    }

    /// First day of the calendar week.
    pub fn calendar_week_start_day(&self) -> CalendarWeekStartDay {
        CalendarWeekStartDay::from_name(&self.text_at(171)).unwrap_or(CalendarWeekStartDay::Monday)
    }

    /// Starting a focus block silences notifications via Focus Mode; breaks release them. Toggling the bell manually during a run stops Pomodoro managing it for that run. Per-preset overrides win.
    pub fn pomodoro_auto_enable_focus_mode_default(&self) -> bool {
        self.toggle_at(172)
    }

    /// Raises the window on each Pomodoro phase change. Default off.
    pub fn pomodoro_phase_foreground(&self) -> bool {
        self.toggle_at(173)
    }

    /// Weekday rules may auto-start Pomodoro runs; off silences the scheduler without deleting rules.
    pub fn pomodoro_schedule_enabled(&self) -> bool {
        self.toggle_at(174)
    }

    /// Web mail in the sidebar.
    pub fn webmail_enabled(&self) -> bool {
        self.toggle_at(175)
    }

    /// Puts the cursor in the reply box when opening an email. Off keeps focus on the body so triage shortcuts work (E archive, S star, U unread, ! spam, X select, H snooze); R starts a reply.
    pub fn webmail_auto_focus_reply(&self) -> bool {
        self.toggle_at(176)
    }

    /// Marks threads read on open.
    pub fn webmail_auto_mark_read(&self) -> bool {
        self.toggle_at(177)
    }

    /// Default search query for loading the inbox.
    pub fn webmail_default_query(&self) -> String {
        self.text_at(178)
    }

    /// Brief animation when the inbox is cleared.
    pub fn webmail_inbox_zero_celebration(&self) -> bool {
        self.toggle_at(179)
    }

    /// Email threads loaded at a time (labelled 10-100).
    pub fn webmail_page_size(&self) -> u32 {
        self.count_at(180)
    }

    /// Stops senders loading external images on opening a message; inline and attached images still show. Default off.
    pub fn email_block_remote_images(&self) -> bool {
        self.toggle_at(181)
    }

    /// Original flat sender list for Email Cleanup instead of the guided walkthrough.
    pub fn email_cleanup_classic_layout(&self) -> bool {
        self.toggle_at(182)
    }

    /// Receives emails via a mail-inbox provider, processes them with the assistant and sends replies.
    pub fn email_inbound_enabled(&self) -> bool {
        self.toggle_at(183)
    }

    /// Allowlist of sender addresses permitted.
    pub fn email_inbound_approved_senders(&self) -> Vec<String> {
        self.strings_at(184)
    }

    /// Identifier of the provider inbox receiving emails.
    pub fn email_inbound_inbox_id(&self) -> String {
        self.text_at(185)
    }

    /// Classifier prompt for inbound emails; default used when empty; JSON output format always enforced.
    pub fn email_inbound_prescreen_prompt(&self) -> String {
        self.text_at(186)
    }

    /// Auto-summarizes forwarded emails.
    pub fn email_summarizer_enabled(&self) -> bool {
        self.toggle_at(187)
    }

    /// Auto-summarizes web-mail threads tagged with the user's label.
    pub fn email_summarizer_gmail_enabled(&self) -> bool {
        self.toggle_at(188)
    }

    /// Inbox watched for summarizable emails.
    pub fn email_summarizer_inbox_id(&self) -> String {
        self.text_at(189)
    }

    /// Archives in the provider inbox after a successful summary.
    pub fn email_summarizer_archive_enabled(&self) -> bool {
        self.toggle_at(190)
    }

    /// Combined daily spend limit of the summarizer.
    pub fn email_summarizer_daily_cost_cap_usd(&self) -> f64 {
        self.number_at(191)
    }

    /// Generic prompt when no rule matches.
    pub fn email_summarizer_default_prompt(&self) -> String {
        self.text_at(192)
    }

    /// Browse, upload and manage cloud-drive files from the sidebar.
    pub fn drive_enabled(&self) -> bool {
        self.toggle_at(193)
    }

    /// Same for file-sync service A.
    pub fn filesync_a_enabled(&self) -> bool {
        self.toggle_at(194)
    }

    /// Same for file-sync service B.
    pub fn filesync_b_enabled(&self) -> bool {
        self.toggle_at(195)
    }

    /// Browse and edit spreadsheets from the sidebar.
    pub fn sheets_enabled(&self) -> bool {
        self.toggle_at(196)
    }

    /// Which spreadsheets may be edited and which columns are editable.
    pub fn trusted_sheets(&self) -> serde_json::Value {
        self.json_at(197)
    }

    /// Pasting a document or slides URL into chat fetches its contents; Shift while pasting bypasses.
    pub fn doc_import_enabled(&self) -> bool {
        self.toggle_at(198)
    }

    /// Right-click a project doc, scratchpad or agent message to publish its Markdown to a document.
    pub fn docs_export_enabled(&self) -> bool {
        self.toggle_at(199)
    }

    /// When set and no template configured, new documents are created in this folder.
    pub fn docs_dest_folder_id(&self) -> String {
        self.text_at(200)
    }

    /// When set, each publish appends a new tab to this document instead of creating one.
    pub fn docs_template_id(&self) -> String {
        self.text_at(201)
    }

    /// Pasting rich text into the composer converts HTML formatting to Markdown; off behaves like Ctrl+Shift+V.
    pub fn paste_rich_text_as_markdown(&self) -> bool {
        self.toggle_at(202)
    }

    /// Subscribe to RSS and Atom feeds in the sidebar.
    pub fn rss_enabled(&self) -> bool {
        self.toggle_at(203)
    }

    /// AI-curated morning briefing of feeds.
    pub fn rss_digest_enabled(&self) -> bool {
        self.toggle_at(204)
    }

    /// Topics of interest for the digest.
    pub fn rss_digest_interests(&self) -> String {
        self.text_at(205)
    }

    /// Time of day of delivery.
    pub fn rss_digest_time(&self) -> String {
        self.text_at(206)
    }

    /// Monitor team chat channels and DMs in the sidebar.
    pub fn chat_app_enabled(&self) -> bool {
        self.toggle_at(207)
    }

    /// Send as the user via OAuth instead of as the bot; requires bot setup first.
    pub fn chat_app_personal_enabled(&self) -> bool {
        self.toggle_at(208)
    }

    /// Send and receive text messages.
    pub fn sms_enabled(&self) -> bool {
        self.toggle_at(209)
    }

    /// Inbox alert and one notification when SMS is on but not working (missing or expired token, sustained disconnect); clears on reconnect.
    pub fn sms_health_alerts_enabled(&self) -> bool {
        self.toggle_at(210)
    }

    /// relay routes texts through the relay service's cloud; native sends over the user's own phone SIM through a self-hosted gateway app.
    pub fn sms_provider(&self) -> SmsProvider {
        SmsProvider::from_name(&self.text_at(211)).unwrap_or(SmsProvider::Relay)
    }

    /// View and reply to messenger messages via its client protocol.
    pub fn messenger_enabled(&self) -> bool {
        self.toggle_at(212)
    }

    /// Protocol engine: maintained (recommended) or legacy. Switching signs the user out until reconnect.
    pub fn messenger_engine(&self) -> MessengerEngine {
        MessengerEngine::from_name(&self.text_at(213)).unwrap_or(MessengerEngine::EngineMaintained)
    }

    /// Talk to agents from the messenger through a bot; each chat or forum topic becomes its own agent session.
    pub fn messenger_bot_enabled(&self) -> bool {
        self.toggle_at(214)
    }

    /// Numeric group ids the bot answers in; empty means the bot ignores all groups.
    pub fn messenger_bot_allowed_group_ids(&self) -> Vec<String> {
        self.strings_at(215)
    }

    /// Numeric user ids allowed to talk to the bot; approving a pairing request adds one.
    pub fn messenger_bot_allowed_user_ids(&self) -> Vec<String> {
        self.strings_at(216)
    }

    /// Who may message the bot directly: pairing (unknown senders get a code to approve), allowlist only, or disabled.
    pub fn messenger_bot_dm_policy(&self) -> MessengerBotDmPolicy {
        MessengerBotDmPolicy::from_name(&self.text_at(217)).unwrap_or(MessengerBotDmPolicy::Pairing)
    }

    /// In groups, respond only to @mentions of the bot or replies to it.
    pub fn messenger_bot_group_require_mention(&self) -> bool {
        self.toggle_at(218)
    }

    /// Checks messages from unknown people and keeps junk in Spam; known people never checked.
    pub fn spam_filter_enabled(&self) -> bool {
        self.toggle_at(219)
    }

    /// Filters new email from strangers to the agent address and the public support address; caught mail starts no session and gets no reply.
    pub fn spam_filter_agent_email_enabled(&self) -> bool {
        self.toggle_at(220)
    }

    /// Filters invites from organizers outside the user's organization; a caught invite gets no notice.
    pub fn spam_filter_calendar_enabled(&self) -> bool {
        self.toggle_at(221)
    }

    /// Also deletes an invite from the calendar when the sender was marked spam; automatically caught invites are only hidden. Deleted invites stay in the calendar trash for 30 days.
    pub fn spam_filter_calendar_delete_event(&self) -> bool {
        self.toggle_at(222)
    }

    /// Filters texts from numbers not saved as contacts and never texted; short-code senders are never checked.
    pub fn spam_filter_sms_enabled(&self) -> bool {
        self.toggle_at(223)
    }

    /// Shows the mail client panel in the sidebar (folders, compose, snooze) over web mail or IMAP. Default off while in preview.
    pub fn mailclient_enabled(&self) -> bool {
        self.toggle_at(224)
    }

    /// Reads the inbox through the already-connected account without a separate sign-in.
    pub fn mailclient_use_app_webmail(&self) -> bool {
        self.toggle_at(225)
    }

    /// Each incoming mail client email becomes an inbox card with an inline reply box.
    pub fn mailclient_emails_in_inbox(&self) -> bool {
        self.toggle_at(226)
    }

    /// Spacing between emails in the list.
    pub fn mailclient_density(&self) -> MailclientDensity {
        MailclientDensity::from_name(&self.text_at(227)).unwrap_or(MailclientDensity::Comfortable)
    }

    /// Arrangement of the Mail/Sessions switch and toolbar.
    pub fn mailclient_header_layout(&self) -> MailclientHeaderLayout {
        MailclientHeaderLayout::from_name(&self.text_at(228)).unwrap_or(MailclientHeaderLayout::Current)
    }

    /// What the sidebar number counts: unread or total in inbox.
    pub fn mailclient_inbox_badge_mode(&self) -> MailclientInboxBadgeMode {
        MailclientInboxBadgeMode::from_name(&self.text_at(229)).unwrap_or(MailclientInboxBadgeMode::Unread)
    }

    /// Whether the Catch me up AI summary runs on a button, automatically on every thread, or only for chosen senders.
    pub fn mailclient_ai_summary_trigger(&self) -> MailclientAiSummaryTrigger {
        MailclientAiSummaryTrigger::from_name(&self.text_at(230)).unwrap_or(MailclientAiSummaryTrigger::Manual)
    }

    /// Senders and domains whose threads are summarized automatically on open (selective mode).
    pub fn mailclient_ai_summary_auto_senders(&self) -> Vec<String> {
        self.strings_at(231)
    }

    /// Model writing the summary; default is the built-in fast low-cost model.
    pub fn mailclient_ai_summary_model(&self) -> String {
        self.text_at(232)
    }

    /// Summary prompt; blank uses the built-in default.
    pub fn mailclient_ai_summary_prompt(&self) -> String {
        self.text_at(233)
    }

    /// Receives messages from external services (CI/CD, monitoring, custom apps) at a URL given to them.
    pub fn webhooks_enabled(&self) -> bool {
        self.toggle_at(234)
    }

    /// Shows the Bug Intake sidebar entry collecting reports from an error tracker, a code host, bug-report emails and in-app reports, triaged by spawned agents. Off: no report from any source starts a session.
    pub fn bug_intake_enabled(&self) -> bool {
        self.toggle_at(235)
    }

    /// Extra instructions for the investigation prompt of every bug report routed to the project; after the global Bug Intake instructions.
    pub fn bug_intake_append_prompt(&self) -> String {
        self.text_at(236)
    }

    /// Sends bug reports and feedback to the maker's team by email and to the report database. Off keeps reports local until turned on.
    pub fn bug_report_email_enabled(&self) -> bool {
        self.toggle_at(237)
    }

    /// Master switch for diagnostic emails: weekly usage digest plus each crash unless crashAlertEmailEnabled is off. Off silences both.
    pub fn telemetry_email_enabled(&self) -> bool {
        self.toggle_at(238)
    }

    /// When diagnostics email is on, also emails each crash; off emails only the weekly digest.
    pub fn crash_alert_email_enabled(&self) -> bool {
        self.toggle_at(239)
    }

    /// Capitalizes the first word and each sentence start while typing a task; skips URLs, file paths and abbreviations.
    pub fn auto_capitalize_tasks(&self) -> bool {
        self.toggle_at(240)
    }

    /// Shows the Tasks sidebar entry: nested checklist with due dates, snoozes and a tasks.md mirror on disk.
    pub fn tasks_enabled(&self) -> bool {
        self.toggle_at(241)
    }

    /// When a session ends or is archived, a cheap AI pass reads its transcript for follow-up tasks and stages them in the Caught view. Off skips the scan entirely.
    pub fn tasks_v2_catches_enabled(&self) -> bool {
        self.toggle_at(242)
    }

    /// Optional wording steering which follow-ups are kept; returned format is fixed. Empty means standard behavior.
    pub fn tasks_v2_catches_guidance(&self) -> String {
        self.text_at(243)
    }

    /// Checking a box selects the task instead of finishing it; an action bar with Done and Dropped appears once one is checked. Default off. Ctrl or Shift while clicking always selects.
    pub fn tasks_v2_checkbox_selects(&self) -> bool {
        self.toggle_at(244)
    }

    /// Tighter vertical spacing of task rows in the All-Hubs view and each hub outliner. Default off.
    pub fn tasks_v2_compact_density(&self) -> bool {
        self.toggle_at(245)
    }

    /// Hides completed tasks from task lists.
    pub fn tasks_v2_hide_completed(&self) -> bool {
        self.toggle_at(246)
    }
}

//! The running application: every service one clone away, and its life's
//! two ends that concern the world outside (`server.json` written once the
//! application can be reached, removed when it stops).

use std::path::PathBuf;
use std::sync::Arc;

use accounts::Accounts;
use clock::{Clock, ManualClock};
use inbox::Inbox;
use settings::SettingsStore;
use store::Db;
use tokio::sync::{Notify, watch};
use webhooks::Webhooks;

/// The file that says a server runs on this data directory, and where.
const SERVER_FILE: &str = "server.json";

#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}")]
pub struct AnnounceError {
    path: PathBuf,
    source: std::io::Error,
}

/// Why the application is asked to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    Shutdown,
    Restart,
}

/// The running application: every service, one clone away.
#[derive(Clone)]
pub struct App {
    pub db: Arc<Db>,
    pub settings: Arc<SettingsStore>,
    pub accounts: Arc<Accounts>,
    /// Tokens that only connect a pool runner or read `/metrics`.
    pub scoped_tokens: Arc<accounts::scoped::ScopedTokens>,
    /// What `GET /metrics` counts as it happens (turns, requests, refused
    /// runner connections); the rest of a scrape is read when it comes.
    pub metrics: Arc<metrics::Metrics>,
    pub inbox: Arc<Inbox>,
    /// The inbox's Stats (`inbox_stats_watch.rs` feeds and clears them).
    pub inbox_stats: Arc<inbox_stats::InboxStats>,
    /// The maker's announcements and which versions each account has seen.
    pub announcements: Arc<announcements::Announcements>,
    pub webhooks: Arc<Webhooks>,
    pub alarms: Arc<alarms::Alarms>,
    /// Recipes, their schedules and their runs (`recipes.rs` runs them).
    pub automations: Arc<automations::Automations>,
    /// Scheduled messages and drips (`drips.rs` delivers them).
    pub drips: Arc<drips::Drips>,
    /// Wakes the delivery loop of `drips.rs` ([`App::wake_drips`]).
    pub(crate) drips_wake: Arc<Notify>,
    /// The user's CalDAV accounts and ICS subscriptions
    /// (`calendar_sync.rs` synchronises them).
    pub calendars: Arc<calendar::Calendars>,
    /// The person's own mail client: accounts and the local store
    /// (`mail_sync.rs` keeps it in step with the servers).
    pub mail: Arc<crate::mail_accounts::MailClient>,
    /// Feed subscriptions and their entries (`feeds_poll.rs` polls them).
    pub feeds: Arc<feeds::Feeds>,
    /// The WebDAV drives of `drives.toml` and their clients (`drive_files.rs`).
    pub drives: Arc<drives::Drives>,
    /// Spreadsheet files kept by ETag between pages (`sheet_edits.rs`).
    pub(crate) sheet_files: Arc<sheets::cache::FileCache>,
    /// Wakes the feeds' poll loop ([`App::wake_feeds`]).
    pub(crate) feeds_wake: Arc<Notify>,
    /// The owner's text messages (`phone_texts.rs`).
    pub sms: Arc<sms::Sms>,
    /// The owner's own Matrix account, the messenger (`messenger_rooms.rs`).
    pub matrix: Arc<matrix::Matrix>,
    /// The devices that get Web Push, and what was pushed to them
    /// (`push_delivery.rs` sends and retries).
    pub push: Arc<push::Push>,
    /// Wakes the push retry loop ([`App::wake_push`]).
    pub(crate) push_wake: Arc<Notify>,
    /// The devices' app loads in flight (`device_loads.rs`).
    pub(crate) device_loads: Arc<crate::load_reports::DeviceLoads>,
    /// Wakes the calendars' sync loop ([`App::wake_calendars`]).
    pub(crate) calendars_wake: Arc<Notify>,
    /// Focus mode and pomodoro runs (`pomodoro.rs` moves the runs on).
    pub focus: Arc<focus::Focus>,
    /// Wakes the pomodoro loop ([`App::wake_pomodoro`]).
    pub(crate) pomodoro_wake: Arc<Notify>,
    /// The one clock of this application (the system's, unless a test asked
    /// for a manual one).
    pub clock: Arc<dyn Clock>,
    /// The same clock when `serve --manual-clock` made it a manual one: then,
    /// and only then, `POST /test/clock` exists to move it.
    pub manual_clock: Option<Arc<ManualClock>>,
    pub sessions: sessions::Supervisor,
    /// `local` and the runners of `runners.toml`, with their connections.
    pub runners: runners::Runners,
    /// The dev servers sessions run, their ports and names (docs/apps.md).
    pub apps: Arc<crate::running_apps::RunningApps>,
    /// The runner listener, while pool runners may connect.
    pub(crate) runner_listener: crate::listener_slot::Shared,
    pub bookmarks: Arc<bookmarks::Bookmarks>,
    /// Team time's people (zones, working hours) and the saved meeting rooms.
    pub team: Arc<team::People>,
    pub meeting_rooms: Arc<team::Rooms>,
    /// Where's my work: the facts of every piece, cached behind their refs.
    pub work: Arc<work::Index>,
    /// The utility model: short questions on the primary engine's CLI, each
    /// call recorded and kept inside its feature's cap.
    pub utility: utility::Utility,
    /// Task lists, caught follow-ups and the tasks.md mirrors' state.
    pub tasks: Arc<tasks::Tasks>,
    /// Coaching interviews and their write-ups.
    pub coaching: Arc<coaching::Coaching>,
    /// Which of each account's web apps are open, and in front.
    pub presence: Arc<navigation::Presence>,
    /// The fleet governor: refill checks and their record.
    pub governor: Arc<governor::Governor>,
    /// The permission broker's approvals, grants and decisions on record.
    pub permissions: permissions::Broker,
    /// Input requests, key proposals and saved keys.
    pub secrets: Arc<secrets::Secrets>,
    /// Wakes the requests waiting on an answer (`GET /input-requests/<id>?wait=true`).
    pub secrets_answered: Arc<Notify>,
    /// Wakes the project-event notifier after a board write recorded events
    /// (`notifier.rs`; it watches `settings_changed` itself).
    pub pm_wake: Arc<Notify>,
    /// The columns form of the boards read lately, built and compressed,
    /// while their version holds (`GET /boards/<id>/full`).
    pub built_boards: Arc<boards::BuiltBoards>,
    /// Wakes the automation rules' reader of board events after a write.
    pub rules_wake: Arc<Notify>,
    /// The live event stream's hub (`GET /stream`).
    pub events: Arc<events::Hub>,
    /// The `/` menu's lists, kept per engine, folder and version.
    pub skills: Arc<skills::Catalog>,
    /// Counts the settings' changes, so a loop that acts on one wakes at once
    /// (the messenger bot turned off ends its poll).
    pub(crate) settings_changed: watch::Sender<u64>,
    /// The messenger bot's connection, while it has one.
    pub(crate) messenger: Arc<crate::links::Link<crate::links::Bot>>,
    /// The inbound email watcher, while it watches.
    pub(crate) email: Arc<crate::links::Link<crate::links::Inbox>>,
    /// The email summarizer's inbox, while it is watched.
    pub(crate) summarizer: Arc<crate::links::Link<crate::links::Summarizer>>,
    /// Set once, by [`App::request_stop`], to stop every loop (and the
    /// listeners, which watch it through [`App::watch_stop`]).
    pub(crate) stop: watch::Sender<Option<StopReason>>,
    /// Where the application keeps its files (`teamchat.toml` among them).
    pub data_dir: PathBuf,
    /// The UI server's base URL, for links the API hands out.
    pub ui_url: String,
    /// The control server's base URL, for webhook addresses (`None` when it is off).
    pub control_url: Option<String>,
    /// The link that logs a browser in as the owner (it holds the token).
    pub login_url: String,
}

impl App {
    /// The inbox categories the `inboxShow*` settings hide. The other
    /// `inboxShow*` keys name sources this version does not have; they are
    /// stored, not acted on.
    pub fn hidden_inbox_categories(&self) -> Vec<inbox::Category> {
        let settings = &self.settings;
        [
            (settings.inbox_show_sessions(), inbox::Category::Session),
            (
                settings.inbox_show_cli_pending(),
                inbox::Category::CliPending,
            ),
            (settings.inbox_show_digest(), inbox::Category::Digest),
            (settings.inbox_show_recipes(), inbox::Category::Recipes),
            (settings.inbox_show_cron(), inbox::Category::Cron),
            (
                settings.inbox_show_automations(),
                inbox::Category::Automations,
            ),
            (settings.inbox_show_calendar(), inbox::Category::Calendar),
            (settings.inbox_show_sms(), inbox::Category::Sms),
            (settings.inbox_show_messenger(), inbox::Category::Messenger),
        ]
        .into_iter()
        .filter_map(|(shown, category)| (!shown).then_some(category))
        .collect()
    }

    /// Asks every loop and listener to stop; the first reason given wins.
    /// The event streams end here too: they never end on their own, and a
    /// listener's drain would otherwise wait for them.
    pub fn request_stop(&self, reason: StopReason) {
        let first = self.stop.send_if_modified(|current| {
            let first = current.is_none();
            if first {
                *current = Some(reason);
            }
            first
        });
        if first {
            self.events.close();
        }
    }

    /// True once a stop is asked for.
    pub fn stop_requested(&self) -> bool {
        self.stop.borrow().is_some()
    }

    /// The stop request, for a listener that ends with the application.
    pub fn watch_stop(&self) -> watch::Receiver<Option<StopReason>> {
        self.stop.subscribe()
    }

    /// Resolves once a stop is asked for, with its reason.
    pub async fn stopped(&self) -> StopReason {
        let mut requested = self.stop.subscribe();
        let reason = requested
            .wait_for(Option::is_some)
            .await
            .ok()
            .and_then(|reason| *reason);
        reason.unwrap_or(StopReason::Shutdown)
    }

    /// Writes `server.json` (pid, both URLs and the apps proxy's): call it once the listeners
    /// serve and a stop signal would drain rather than kill, since whoever
    /// finds the file may signal at once.
    pub fn announce(&self) -> Result<(), AnnounceError> {
        let path = self.data_dir.join(SERVER_FILE);
        let error = |source| AnnounceError {
            path: path.clone(),
            source,
        };
        let body = serde_json::json!({
            "pid": std::process::id(),
            "controlUrl": self.control_url,
            "uiUrl": self.ui_url,
            "appsUrl": self.apps.proxy_url(),
        });
        let temp = self.data_dir.join("server.json.tmp");
        std::fs::write(&temp, body.to_string()).map_err(error)?;
        std::fs::rename(&temp, &path).map_err(error)
    }

    /// After the listeners have drained: stops the sessions and removes
    /// `server.json`, so a client finding no file knows nobody is serving.
    pub async fn shutdown(&self) {
        // A runner's apps are its keeper's and stay.
        self.apps.registry.stop_all().await;
        self.sessions.shutdown().await;
        if let Err(error) = std::fs::remove_file(self.data_dir.join(SERVER_FILE)) {
            tracing::warn!(%error, "could not remove server.json");
        }
    }
}

//! The state every handler shares: the domain services, one clone away.

use std::sync::Arc;
use std::time::Duration;

use accounts::Accounts;
use clock::{Clock, ManualClock};
use inbox::Inbox;
use settings::SettingsStore;
use store::Db;
use tokio::sync::{Notify, watch};
use webhooks::Webhooks;

/// Why the listeners are asked to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    Shutdown,
    Restart,
}

#[derive(Clone)]
pub struct AppState {
    pub db: Arc<Db>,
    pub settings: Arc<SettingsStore>,
    pub accounts: Arc<Accounts>,
    pub inbox: Arc<Inbox>,
    pub webhooks: Arc<Webhooks>,
    pub alarms: Arc<alarms::Alarms>,
    /// The one clock of this server (the system's, unless a test asked for
    /// a manual one).
    pub clock: Arc<dyn Clock>,
    /// The same clock when `serve --manual-clock` made it a manual one: then,
    /// and only then, `POST /test/clock` exists to move it.
    pub manual_clock: Option<Arc<ManualClock>>,
    pub sessions: sessions::Supervisor,
    pub bookmarks: Arc<bookmarks::Bookmarks>,
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
    /// Wakes the project-event notifier: a board write recorded events, or a
    /// setting changed (`notifier.rs`).
    pub pm_wake: Arc<Notify>,
    /// The live event stream's hub (`GET /stream`).
    pub events: Arc<events::Hub>,
    /// How often an idle stream sends a comment line, so proxies keep it open.
    pub stream_keep_alive: Duration,
    pub stop: watch::Sender<Option<StopReason>>,
    /// Where the server keeps its files (`teamchat.toml` among them).
    pub data_dir: std::path::PathBuf,
    /// The UI server's base URL, for links the API hands out.
    pub ui_url: String,
    /// The control server's base URL, for webhook addresses (`None` when it is off).
    pub control_url: Option<String>,
}

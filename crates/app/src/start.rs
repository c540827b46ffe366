//! Bringing the application up in two steps around the listeners: the data
//! directory first (so a bad directory or token file fails before any port
//! is taken), every service and loop once the listeners' addresses are known
//! (the sessions' engines are handed the control server's URL), and
//! `server.json` last, when there is something to find.
//!
//! `--demo` seeds an account without boards in the first step: the demo
//! sessions (in git repositories of their own, some in worktrees), then
//! the workspace whose agent tasks link to them (`boards` knows nothing of
//! sessions, so their ids pass through here), then a dashboard, tasks, bug
//! reports, bookmarks and automations (`demo_automations`), all laid out
//! around today as the inbox counts days, in the zone of its notices. It
//! also registers the built-in demo engine (this binary's hidden
//! `demo-engine`, no model), which the demo sessions run on and the New
//! session dialog offers, with or without `engines.toml`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::watch;

mod demo_automations;

use crate::engine_args::{AgentTokens, BrokerArgs, hook_program};
use crate::services::App;
use crate::{
    bug_intake, catches, coaching_watch, email_in, email_summarizer, fair_share, forensics,
    governor_loop, instruction_sync, keep_awake, messenger_bot, metrics_watch, notifier, publish,
    recipes, rss_digest, runner_hosts, runner_listener, session_inbox, summaries, task_reminders,
    tasks_mirror, titles, utility_model, work_hosts, work_origins, work_reviews, work_watch,
};

#[derive(Debug, Clone)]
pub struct Options {
    pub data_dir: PathBuf,
    /// Seed a demo workspace and its agent sessions when the owner has no boards yet.
    pub demo: bool,
    /// Run on a manual clock that only `POST /test/clock` moves (owner
    /// only, served only then), so integration tests control time: the
    /// webhook rate limit's minute, for one.
    pub manual_clock: bool,
    /// Where the manual clock starts, in Unix milliseconds (the system's
    /// now when `None`): a test that restarts a server can start the next
    /// one later than the last, as if it had been down that long.
    pub manual_clock_start_ms: Option<i64>,
    /// A file read in place of `/proc/meminfo` (and no cgroup limit), so
    /// tests can make memory short for the memory guard.
    pub meminfo_file: Option<PathBuf>,
    /// Engines stay in the server's own cgroup, as before session trees
    /// (a benchmark's baseline).
    pub without_session_trees: bool,
    /// Where the demo sessions' project folders are made; the user's cache
    /// when `None` (a test gives its scratch folder, not the machine's).
    pub demo_projects: Option<PathBuf>,
}

/// Where the listeners ended up: the UI server always, the control server
/// unless `cliServerEnabled` is off.
#[derive(Debug, Clone)]
pub struct Urls {
    pub ui: String,
    pub control: Option<String>,
    /// The apps proxy's port (docs/apps.md).
    pub apps_port: u16,
}

/// Why the application could not start. Each message says what failed and
/// leaves the cause to `source()`, so a printed chain (`{:#}`) names the
/// cause once.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("cannot use data directory {path}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read or create the token file {path}")]
    TokenFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the token file {path} is empty or malformed; delete it to have a new token made")]
    TokenFileMalformed { path: PathBuf },
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Accounts(#[from] accounts::AccountsError),
    #[error(transparent)]
    Settings(#[from] settings::SettingsError),
    #[error("cannot seed the demo workspace")]
    Demo(#[from] boards::BoardsError),
    #[error("cannot seed the demo sessions")]
    DemoSessions(#[source] sessions::SessionError),
    #[error("cannot start the alarm scheduler")]
    Alarms(#[from] alarms::AlarmError),
    #[error("cannot make the accounts' own members")]
    SelfMember(#[source] boards::BoardsError),
    #[error("cannot open the permission broker")]
    Permissions(#[from] permissions::PermissionError),
    #[error("cannot open the key store")]
    Secrets(#[from] secrets::SecretsError),
    #[error("cannot start the session supervisor")]
    Sessions(#[from] sessions::SessionError),
}

/// The data directory opened: the database migrated, the owner's token,
/// accounts and settings read. Nothing runs yet.
pub struct Prepared {
    options: Options,
    db: Arc<store::Db>,
    owner_token: String,
    accounts: Arc<accounts::Accounts>,
    settings: Arc<settings::SettingsStore>,
    clock: Arc<dyn clock::Clock>,
    manual_clock: Option<Arc<clock::ManualClock>>,
}

impl Prepared {
    pub fn open(options: Options) -> Result<Self, StartupError> {
        let data_dir = &options.data_dir;
        create_private_dir(data_dir)?;
        let db = Arc::new(store::Db::open(&data_dir.join("switchboard.db"))?);
        db.migrate(&all_migrations())?;
        let owner_token = read_or_create_owner_token(&data_dir.join("cli-token"))?;
        let accounts = Arc::new(accounts::Accounts::load(db.clone())?);
        let owner = accounts.ensure_owner(&owner_token)?;
        // Every account has its own member ("self"); accounts made before there
        // was one get it here, new ones when they are made.
        for account in accounts.list()? {
            let name = if account.is_owner {
                "Me"
            } else {
                &account.name
            };
            boards::ensure_self_member(&db, &account.id, name).map_err(StartupError::SelfMember)?;
        }
        let settings = Arc::new(settings::SettingsStore::load(db.clone())?);
        // Made here rather than at start, so the demo's today is the clock's.
        let manual_clock =
            (options.manual_clock || options.manual_clock_start_ms.is_some()).then(|| {
                Arc::new(match options.manual_clock_start_ms.and_then(unix_ms) {
                    Some(start) => clock::ManualClock::new(start),
                    None => clock::ManualClock::starting_now(),
                })
            });
        let clock: Arc<dyn clock::Clock> = match &manual_clock {
            Some(manual) => manual.clone(),
            None => Arc::new(clock::SystemClock),
        };
        if options.demo {
            let engine = sessions::engines::demo_spec(&hook_program());
            let projects = options
                .demo_projects
                .clone()
                .unwrap_or_else(|| demo_projects(data_dir));
            seed_demo(
                &db, data_dir, &projects, &owner.id, &settings, &engine, &clock,
            )?;
        }
        Ok(Self {
            options,
            db,
            owner_token,
            accounts,
            settings,
            clock,
            manual_clock,
        })
    }

    /// The settings as stored: whether the control server listens at all
    /// is one of them.
    pub fn settings(&self) -> &settings::SettingsStore {
        &self.settings
    }

    /// Builds every service and starts the background loops. Alarms that
    /// fell due while nothing ran are made missed before this returns, so
    /// they are missed rows by the time anyone can ask.
    pub async fn start(self, urls: Urls) -> Result<App, StartupError> {
        let Self {
            options,
            db,
            owner_token,
            accounts,
            settings,
            clock,
            manual_clock,
        } = self;
        let data_dir = options.data_dir;
        // Each start gets its own epoch, so a Last-Event-ID from an earlier run
        // is unknown here (a `reset`) rather than taken for one of this run's.
        let epoch = u64::try_from(clock.now().unix_timestamp_nanos()).unwrap_or_default();
        let (instructions, hand_edited) = instruction_sync::InstructionSync::new(
            settings.clone(),
            instructions::SqliteLedger::new(db.clone(), clock.clone()),
        );
        let runners = runner_hosts::open(&data_dir, clock.clone(), urls.control.as_deref());
        let trees = if options.without_session_trees {
            None
        } else {
            let place = data_dir.clone();
            let opened = tokio::task::spawn_blocking(move || fair_share::open(&place)).await;
            Some(opened.map_err(|e| StartupError::DataDir {
                path: data_dir.clone(),
                source: std::io::Error::other(e),
            })?)
        };
        let running_apps = Arc::new(crate::running_apps::RunningApps::new(
            settings.clone(),
            clock.clone(),
            urls.apps_port,
        ));
        let supervisor = sessions::Supervisor::start(
            db.clone(),
            clock.clone(),
            data_dir.clone(),
            urls.control.clone(),
            Arc::new(AgentTokens(accounts.clone())),
            sessions::Hooks {
                trees: trees.clone(),
                turn_args: Some(Arc::new(BrokerArgs {
                    settings: settings.clone(),
                    program: hook_program(),
                    control_url: urls.control.clone(),
                    find_batching_pins: Default::default(),
                })),
                before_turn: Some(instructions.clone()),
                governance: Some(Arc::new(governor_loop::FleetGovernance {
                    settings: settings.clone(),
                    memory: governor_loop::memory_source(options.meminfo_file.clone()),
                })),
                runners: Some(runners.clone()),
                app_env: Some(running_apps.clone()),
                builtin_engines: if options.demo {
                    let engine = sessions::engines::demo_spec(&hook_program());
                    [(sessions::engines::DEMO_ENGINE.to_owned(), engine)].into()
                } else {
                    Default::default()
                },
            },
            settings.auto_resume_on_crash(),
        )
        .await?;
        let permissions = permissions::Broker::open(db.clone(), clock.clone())?;
        let governor = Arc::new(governor::Governor::new(
            db.clone(),
            clock.clone(),
            supervisor.clone(),
            jiff::tz::TimeZone::system(),
        ));
        let cipher = secrets::Cipher::load_or_create(&data_dir.join(secrets::KEY_FILE))?;
        let (stop, _) = watch::channel(None);
        let scoped_tokens = Arc::new(accounts::scoped::ScopedTokens::load(db.clone())?);
        let secrets = Arc::new(secrets::Secrets::new(db.clone(), clock.clone(), cipher));
        let app = App {
            scoped_tokens,
            metrics: Arc::new(metrics::Metrics::new()),
            inbox: Arc::new(inbox::Inbox::new(db.clone(), clock.clone())),
            inbox_stats: Arc::new(inbox_stats::InboxStats::new(db.clone(), clock.clone())),
            announcements: Arc::new(announcements::Announcements::new(db.clone(), clock.clone())),
            webhooks: Arc::new(webhooks::Webhooks::new(db.clone(), clock.clone())),
            alarms: Arc::new(alarms::Alarms::in_system_zone(db.clone(), clock.clone())),
            automations: Arc::new(automations::Automations::new(db.clone(), clock.clone())),
            drips: Arc::new(drips::Drips::new(
                db.clone(),
                clock.clone(),
                vec![data_dir.clone()],
            )),
            drips_wake: Arc::new(tokio::sync::Notify::new()),
            focus: Arc::new(focus::Focus::new(db.clone(), clock.clone())),
            calendars_wake: Arc::new(tokio::sync::Notify::new()),
            feeds: Arc::new(feeds::Feeds::new(db.clone(), clock.clone())),
            drives: Arc::new(drives::Drives::new(&data_dir, secrets.clone())),
            sheet_files: Arc::new(sheets::cache::FileCache::default()),
            feeds_wake: Arc::new(tokio::sync::Notify::new()),
            sms: Arc::new(sms::Sms::new(db.clone(), clock.clone())),
            matrix: Arc::new(matrix::Matrix::new(db.clone(), clock.clone())),
            push: Arc::new(push::Push::new(
                db.clone(),
                clock.clone(),
                secrets.clone(),
                crate::push_delivery::VAPID_CONTACT,
            )),
            push_wake: Arc::new(tokio::sync::Notify::new()),
            device_loads: Arc::default(),
            pomodoro_wake: Arc::new(tokio::sync::Notify::new()),
            presence: Arc::new(navigation::Presence::new(clock.clone())),
            coaching: Arc::new(coaching::Coaching::new(db.clone(), clock.clone())),
            bookmarks: Arc::new(bookmarks::Bookmarks::new(db.clone(), clock.clone())),
            team: Arc::new(team::People::new(db.clone(), clock.clone())),
            meeting_rooms: Arc::new(team::Rooms::new(db.clone(), clock.clone())),
            work: Arc::new(work::Index::default()),
            utility: utility_model::open(db.clone(), clock.clone(), &data_dir),
            tasks: Arc::new(tasks::Tasks::new(db.clone(), clock.clone())),
            calendars: Arc::new(calendar::Calendars::new(
                db.clone(),
                clock.clone(),
                secrets.clone(),
            )),
            mail: Arc::new(crate::mail_accounts::MailClient::new(
                db.clone(),
                clock.clone(),
                secrets.clone(),
                data_dir.clone(),
            )),
            secrets,
            secrets_answered: Arc::new(tokio::sync::Notify::new()),
            pm_wake: Arc::new(tokio::sync::Notify::new()),
            built_boards: Arc::new(boards::BuiltBoards::new(BUILT_BOARDS_BUDGET)),
            rules_wake: Arc::new(tokio::sync::Notify::new()),
            events: Arc::new(events::Hub::new(events::Config::with_epoch(epoch))),
            skills: Arc::default(),
            settings_changed: watch::channel(0).0,
            messenger: Arc::default(),
            email: Arc::default(),
            summarizer: Arc::default(),
            clock,
            manual_clock,
            db,
            settings,
            accounts,
            sessions: supervisor,
            runners,
            apps: running_apps,
            runner_listener: Arc::default(),
            governor,
            permissions,
            stop,
            data_dir,
            login_url: format!("{}/login?token={owner_token}", urls.ui),
            ui_url: urls.ui,
            control_url: urls.control,
        };

        publish::forward_sessions(&app);
        session_inbox::watch_turn_ends(&app);
        crate::inbox_stats_watch::start(&app);
        metrics_watch::start(&app);
        publish::ring_alarms(&app, crate::push_delivery::push_ring).await?;
        notifier::start(&app);
        governor_loop::start(&app);
        instruction_sync::start(&app, instructions, hand_edited);
        coaching_watch::start(&app);
        titles::start(&app);
        summaries::start(&app);
        tasks_mirror::start(&app);
        task_reminders::start(&app);
        forensics::start(&app);
        catches::start(&app);
        messenger_bot::start(&app);
        bug_intake::start(&app);
        email_in::start(&app);
        email_summarizer::start(&app);
        rss_digest::start(&app);
        runner_hosts::start(&app);
        runner_listener::start(&app);
        keep_awake::start(&app);
        crate::daily_backup::start(&app);
        work_origins::start(&app);
        work_watch::start(&app);
        work_reviews::start(&app);
        work_hosts::start(&app);
        recipes::start(&app);
        crate::rule_events::start(&app);
        crate::drips::start(&app);
        crate::pomodoro::start(&app);
        crate::calendar_sync::start(&app);
        crate::feeds_poll::start(&app);
        crate::phone_texts::start(&app);
        crate::messenger_rooms::start(&app);
        crate::push_delivery::start(&app);
        crate::device_loads::start(&app);
        crate::mail_sync::start(&app);
        crate::app_loops::start(&app);
        crate::fleet_watch::start(&app);
        crate::report_mail::start(&app);
        if let Some(trees) = trees {
            let memory = governor_loop::memory_source(options.meminfo_file.clone());
            fair_share::start(&app, trees, memory);
        }
        Ok(app)
    }
}

/// Compressed bytes of built boards kept: about four million items' worth,
/// and nothing until a dashboard reads a board.
const BUILT_BOARDS_BUDGET: usize = 64 << 20;

/// Seeds the demo sessions and workspace of an account without boards, then
/// what builds on them: a dashboard over the sprint boards, tasks, bug
/// reports, bookmarks and automations. Those five are extras: one that
/// cannot be made is logged and the demo starts without it. The sessions'
/// project folders are made at every start (a follow-up needs its
/// session's folder, which a cleared cache takes away); their git
/// repositories only with the sessions.
fn seed_demo(
    db: &Arc<store::Db>,
    data_dir: &Path,
    projects: &Path,
    account_id: &str,
    settings: &settings::SettingsStore,
    engine: &sessions::EngineSpec,
    clock: &Arc<dyn clock::Clock>,
) -> Result<(), StartupError> {
    for folder in sessions::DemoSeed::folders(projects) {
        if let Err(error) = std::fs::create_dir_all(&folder) {
            tracing::warn!(folder = %folder.display(), %error, "cannot make a demo project folder; its sessions run in the home folder");
        }
    }
    if boards::has_boards(db, account_id)? {
        return Ok(());
    }
    let now = clock.now();
    let zone = pm_inbox::window::zone(&settings.pm_inbox_quiet_hours_time_zone());
    let made = sessions::DemoSeed {
        account_id,
        data_dir,
        engine,
        now,
        max_dollars_per_session: settings.agent_driven_max_dollars_per_session(),
        max_turns_per_session: settings.agent_driven_max_turns_per_session(),
    }
    .seed_in(db, projects)
    .map_err(StartupError::DemoSessions)?;
    let runs: Vec<boards::demo::DemoRun> = made
        .iter()
        .map(|session| boards::demo::DemoRun {
            run: boards::AgentRun {
                outcome: match session.status {
                    sessions::Status::Finished => boards::RunOutcome::Done,
                    sessions::Status::Failed => boards::RunOutcome::Failed,
                    // The waiting one, and the queued one, whose turn ends with a question.
                    _ => boards::RunOutcome::NeedsReview,
                },
                day: local_day(&zone, session.ended_at),
                session_id: session.id.clone(),
                title: session.title.clone(),
                prompt: session.prompt.clone(),
            },
            repository: Some(session.repository.clone()),
            running: session.status == sessions::Status::Queued,
        })
        .collect();
    let today = local_day(&zone, now);
    let Some(workspace) = boards::demo::seed_workspace(db, account_id, today, &runs)? else {
        return Ok(());
    };
    let folder = |repository: &str| Some(projects.join(repository)).filter(|f| f.is_dir());
    let web = folder("acme/web");
    let platform = folder("acme/platform");
    let demo_engine = Some(sessions::engines::DEMO_ENGINE);
    // The boards whose sprints are named alike, so their velocity lines up.
    let sprint_boards: Vec<&str> = workspace
        .boards
        .iter()
        .filter(|b| b.sprint_word.as_deref() == Some("Sprint"))
        .map(|b| b.id.as_str())
        .take(2)
        .collect();
    let dashboard =
        dashboards::demo::seed_demo(db, account_id, &workspace.workspace_id, &sprint_boards)
            .map(drop)
            .map_err(|e| e.to_string());
    let tasks = civil_day(today).map_or(Ok(()), |today| {
        let demo = tasks::demo::DemoTasks {
            account_id,
            workspace_id: Some(&workspace.workspace_id),
            from_session: made
                .iter()
                .find(|s| s.status == sessions::Status::Finished)
                .map(|s| s.id.as_str()),
            today,
        };
        let store = tasks::Tasks::new(db.clone(), clock.clone());
        tasks::demo::seed_demo(&store, &demo)
            .map(drop)
            .map_err(|e| e.to_string())
    });
    let reports = bugintake::demo::seed_demo(
        &bugintake::BugIntake::new(db.clone()),
        &bugintake::demo::DemoReports {
            account_id,
            folder: web.as_deref(),
            engine: demo_engine,
            enabled: settings.bug_intake_enabled(),
            now,
        },
    )
    .map(drop)
    .map_err(|e| e.to_string());
    let marks = bookmarks::demo::seed_demo(
        &bookmarks::Bookmarks::new(db.clone(), clock.clone()),
        account_id,
        demo_engine,
        platform.as_deref(),
    )
    .map(drop)
    .map_err(|e| e.to_string());
    let automations = match platform.as_deref() {
        Some(folder) => demo_automations::seed(
            db,
            clock,
            data_dir,
            &demo_automations::DemoAutomations {
                account_id,
                folder,
                board_id: workspace
                    .boards
                    .iter()
                    .find(|b| b.name == "Agent tasks")
                    .map(|b| b.id.as_str()),
                time_zone: zone.iana_name().unwrap_or("UTC"),
            },
        ),
        None => Err("its project folder could not be made".to_owned()),
    };
    for (what, outcome) in [
        ("dashboard", dashboard),
        ("tasks", tasks),
        ("bug reports", reports),
        ("bookmarks", marks),
        ("automations", automations),
    ] {
        if let Err(error) = outcome {
            tracing::warn!(%error, "the demo starts without its {what}");
        }
    }
    Ok(())
}

/// Where the demo sessions' project folders are (`acme/web` below it): the
/// user's cache, outside the data directory, which the sandbox hides from
/// every engine. One folder per data directory, since each demo's git
/// repositories hold the branches of its own sessions.
fn demo_projects(data_dir: &Path) -> PathBuf {
    let place = std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_path_buf());
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .filter(|p| p.is_absolute())
        .unwrap_or_else(std::env::temp_dir)
        .join("switchboard-demo")
        .join(format!(
            "{:016x}",
            fnv1a(place.as_os_str().as_encoded_bytes())
        ))
}

/// FNV-1a: a name for a path that stays the same from one build to the
/// next (std's hasher makes no such promise).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `day` as the tasks' calendar has it.
fn civil_day(day: time::Date) -> Option<jiff::civil::Date> {
    let month = i8::try_from(u8::from(day.month())).ok()?;
    let date = jiff::civil::Date::new(
        i16::try_from(day.year()).ok()?,
        month,
        i8::try_from(day.day()).ok()?,
    );
    date.ok()
}

/// The day `at` falls on in `zone`, else (for a moment no calendar places)
/// its day in UTC.
fn local_day(zone: &jiff::tz::TimeZone, at: time::OffsetDateTime) -> time::Date {
    let local = jiff::Timestamp::from_nanosecond(at.unix_timestamp_nanos())
        .map(|t| pm_inbox::window::local_day(zone, t));
    let converted = local.ok().and_then(|d| {
        let month = time::Month::try_from(u8::try_from(d.month()).ok()?).ok()?;
        time::Date::from_calendar_date(i32::from(d.year()), month, u8::try_from(d.day()).ok()?).ok()
    });
    converted.unwrap_or(at.date())
}

fn unix_ms(ms: i64) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()
}

/// Every feature's migrations, in the order they are applied: the whole schema.
pub fn all_migrations() -> Vec<store::Migration> {
    [
        accounts::MIGRATIONS,
        accounts::scoped::MIGRATIONS,
        settings::MIGRATIONS,
        inbox::MIGRATIONS,
        inbox_stats::MIGRATIONS,
        announcements::MIGRATIONS,
        webhooks::MIGRATIONS,
        alarms::MIGRATIONS,
        boards::MIGRATIONS,
        dashboards::MIGRATIONS,
        pm_inbox::MIGRATIONS,
        permissions::MIGRATIONS,
        secrets::MIGRATIONS,
        governor::MIGRATIONS,
        instructions::MIGRATIONS,
        coaching::MIGRATIONS,
        bookmarks::MIGRATIONS,
        team::MIGRATIONS,
        utility::MIGRATIONS,
        digests::MIGRATIONS,
        tasks::MIGRATIONS,
        friction::MIGRATIONS,
        messenger::MIGRATIONS,
        bugintake::MIGRATIONS,
        mail::MIGRATIONS,
        work::MIGRATIONS,
        automations::MIGRATIONS,
        automations::RULE_MIGRATIONS,
        drips::MIGRATIONS,
        focus::MIGRATIONS,
        calendar::MIGRATIONS,
        feeds::MIGRATIONS,
        sms::MIGRATIONS,
        matrix::MIGRATIONS,
        push::MIGRATIONS,
        briefings::MIGRATIONS,
        mailclient::MIGRATIONS,
        crate::mail_accounts::MIGRATIONS,
        fleet_cards::MIGRATIONS,
        diagnostics::MIGRATIONS,
        crate::message_publish::MIGRATIONS,
    ]
    .concat()
}

fn create_private_dir(dir: &Path) -> Result<(), StartupError> {
    use std::os::unix::fs::DirBuilderExt;
    let error = |source| StartupError::DataDir {
        path: dir.to_owned(),
        source,
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(error)?;
    let probe = dir.join(".write-probe");
    std::fs::write(&probe, b"").map_err(error)?;
    std::fs::remove_file(&probe).map_err(error)
}

/// Reads the owner's token, or creates the file with mode 0600 from the start
/// (never chmod after), so the token is never readable by others.
fn read_or_create_owner_token(path: &Path) -> Result<String, StartupError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let io_error = |source| StartupError::TokenFile {
        path: path.to_owned(),
        source,
    };
    match std::fs::read_to_string(path) {
        Ok(text) => {
            let token = text.trim();
            if token.len() < 22
                || !token
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(StartupError::TokenFileMalformed {
                    path: path.to_owned(),
                });
            }
            Ok(token.to_owned())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let token = accounts::new_token()?;
            let temp = path.with_extension("tmp");
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(&temp)
                .map_err(io_error)?;
            file.write_all(format!("{token}\n").as_bytes())
                .and_then(|()| file.sync_all())
                .map_err(io_error)?;
            std::fs::rename(&temp, path).map_err(io_error)?;
            Ok(token)
        }
        Err(e) => Err(io_error(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_demo(data_dir: &Path) -> Prepared {
        Prepared::open(Options {
            data_dir: data_dir.to_owned(),
            demo: true,
            manual_clock: true,
            // 2026-03-10T00:00:00Z
            manual_clock_start_ms: Some(1_773_100_800_000),
            meminfo_file: None,
            without_session_trees: false,
            demo_projects: Some(data_dir.join("projects")),
        })
        .unwrap()
    }

    fn column(db: &store::Db, sql: &str) -> Vec<String> {
        db.read(|tx| {
            let mut stmt = tx.prepare(sql)?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<Result<Vec<String>, _>>()
        })
        .unwrap()
    }

    #[test]
    fn the_demo_links_its_agent_tasks_to_sessions_the_sessions_page_can_open() {
        let dir = tempfile::tempdir().unwrap();
        let prepared = open_demo(dir.path());
        let mut ids = column(&prepared.db, "SELECT id FROM sessions");
        assert_eq!(ids.len(), 7);
        let mut links = column(
            &prepared.db,
            "SELECT json_extract(vals, '$.session') FROM items
             WHERE json_extract(vals, '$.session') IS NOT NULL",
        );
        ids.sort();
        links.sort();
        let expected: Vec<String> = ids.iter().map(|id| boards::session_link(id)).collect();
        assert_eq!(links, expected);
        drop(prepared);

        // A second start finds boards and seeds nothing.
        let again = open_demo(dir.path());
        assert_eq!(column(&again.db, "SELECT id FROM sessions").len(), 7);
    }

    #[test]
    fn the_demo_day_is_the_inbox_day() {
        let at = time::macros::datetime!(2026-03-10 23:30 UTC);
        let tokyo = jiff::tz::TimeZone::get("Asia/Tokyo").unwrap();
        assert_eq!(local_day(&tokyo, at), time::macros::date!(2026 - 03 - 11));
        assert_eq!(
            local_day(&jiff::tz::TimeZone::UTC, at),
            time::macros::date!(2026 - 03 - 10)
        );
    }
}

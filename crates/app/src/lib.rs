//! Switchboard's application layer: the running application between the
//! domain crates and HTTP.
//!
//! [`Prepared::open`] opens the data directory (the database and its
//! migrations, the owner's token, accounts and settings); once the listeners
//! are bound, [`Prepared::start`] builds every service, starts the background
//! loops (the session event forwarder, the inbox's turn-end rule, the alarm
//! scheduler, the project-event notifier, the fleet governor, instruction
//! sync, coaching) and hands back an [`App`]: the services one clone away,
//! and the operations the routes call that are more than one domain call
//! (the permission check, a governor check, what goes on the event stream).
//!
//! It knows nothing of HTTP (`crates/tidy` checks that it never depends on
//! axum or tower): a route extracts the caller, calls a domain crate or an
//! operation here, and maps the error. Every loop ends when [`App::request_stop`]
//! is asked to; [`App::shutdown`] then stops the sessions and removes
//! `server.json`.

pub mod agenda;
pub mod alarm_words;
mod app_loops;
mod app_places;
mod app_proxy_routes;
pub mod app_starts;
pub mod ask_tutor;
pub mod board_sheets;
mod briefing;
pub mod bug_intake;
mod calendar_agenda;
pub mod calendar_reminders;
mod calendar_spam;
mod calendar_sync;
mod calendar_words;
pub mod catches;
pub mod coaching_watch;
mod connections;
mod daily_backup;
pub mod developer_messages;
pub mod device_loads;
pub mod documents_publish;
mod drips;
pub mod drive_files;
pub mod email_in;
pub mod email_summarizer;
mod engine_args;
mod error;
mod fair_share;
mod feeds_poll;
pub mod fleet_watch;
pub mod forensics;
pub mod governor_loop;
pub mod image_turns;
pub mod inbox_stats_watch;
mod instruction_sync;
mod keep_awake;
pub mod lifecycle_approvals;
mod links;
mod listener_slot;
mod load_reports;
mod looking;
pub mod mail_accounts;
pub mod mail_actions;
mod mail_arrivals;
pub mod mail_cleanup;
pub mod mail_client;
pub mod mail_error;
mod mail_labels;
pub mod mail_reads;
pub mod mail_send;
pub mod mail_summary;
mod mail_sync;
pub mod message_publish;
mod messenger_approvals;
pub mod messenger_bot;
mod messenger_chat;
pub mod messenger_rooms;
mod metrics_scrape;
mod metrics_watch;
mod notifier;
pub mod office_error;
pub mod permission_check;
pub mod phone_texts;
pub mod pomodoro;
pub mod publish;
mod push_delivery;
mod recipes;
mod remote_starts;
mod report_mail;
mod rss_digest;
mod rule_events;
mod rule_items;
mod rules;
mod runner_hosts;
mod runner_listener;
mod runner_work;
pub mod running_apps;
mod services;
pub mod session_files;
mod session_inbox;
mod setting_watch;
pub mod sheet_edits;
mod skill_lists;
mod spawning;
mod start;
pub mod stream_events;
pub mod summaries;
pub mod task_reminders;
pub mod tasks_mirror;
pub mod titles;
pub mod utility_model;
mod work;
mod work_hosts;
mod work_origins;
mod work_reviews;
mod work_watch;

pub use app_proxy_routes::ProxyRoutes;
pub use ask_tutor::TutorError;
pub use engine_args::{SOURCE_SESSION_HEADER, mcp_engine_args};
pub use error::{AppError, AppResult, POLL_WAIT, blocking, poll_wait};
pub use listener_slot::ListenerState;
pub use recipes::RecipeStarted;
pub use services::{AnnounceError, App, StopReason};
pub use start::{Options, Prepared, StartupError, Urls, all_migrations};

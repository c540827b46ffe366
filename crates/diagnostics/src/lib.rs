//! What Switchboard tells about itself by email (docs/diagnostics.md):
//! feedback the user writes about the app (`bugReportEmailEnabled`), its
//! crashes and a weekly usage digest (`telemetryEmailEnabled`,
//! `crashAlertEmailEnabled`). Everything is kept in the database first
//! ([`Diagnostics`]), so a report written while sending is off, or while
//! the mail server is away, goes out later, once.
//!
//! - `reports.rs`: the kept reports and what is due to be sent.
//! - `crashes.rs`: the panic hook, which records a crash's message and
//!   place (never a prompt, a path under the home folder cut to `~`).
//! - `texts.rs`: each email's words, shown in docs/diagnostics.md as they
//!   are sent.
//!
//! Knows nothing of HTTP, settings or how mail is sent: the app decides
//! what is allowed and hands the due reports to the mail account.

mod crashes;
mod reports;
mod texts;

pub use crashes::{Crash, install_panic_hook, take_crashes, wait_for_crash};
pub use reports::{DIGEST_EVERY, Diagnostics, DiagnosticsError, Kind, MAX_FEEDBACK_CHARS, Report};
pub use texts::{EngineUse, Usage, crash_mail, digest_mail, feedback_mail};

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "diagnostics",
    sql: "CREATE TABLE diagnostic_reports (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            account_id TEXT,
            subject TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at TEXT NOT NULL,
            sendable INTEGER NOT NULL,
            sent_at TEXT,
            claimed_at TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_failure TEXT
          ) STRICT;
          CREATE INDEX diagnostic_reports_unsent ON diagnostic_reports (kind, sent_at);",
}];

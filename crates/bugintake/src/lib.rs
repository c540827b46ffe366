//! Bug Intake: bug reports that arrive from GitHub issues, Sentry, a
//! generic JSON webhook, mail and the app's form, each listed with its state
//! and, unless held, triaged by an agent session in the project it is
//! routed to.
//!
//! - `parse.rs`: a delivery, a mail or the form becomes a [`Report`]
//!   ([`parse_delivery`], [`from_mail`], [`from_form`]); deliveries that are
//!   not reports are [`Parsed::Ignored`] with the reason.
//! - `config.rs`: `DIR/bugintake.toml` ([`Config`]: the global
//!   instructions, the default folder, the routes; docs/bug-intake.md) and
//!   [`route`], where a report goes.
//! - `prompt.rs`: [`prompt`], the triage session's first prompt, with the
//!   report fenced as data.
//! - `intake.rs`: [`BugIntake`], the stored reports: [`BugIntake::receive`]
//!   deduplicates, routes and claims the report for triage in one write
//!   transaction and says what the app does next ([`Action`]); then hold,
//!   release, dismiss and the triage session's steps.
//!
//! Knows nothing of HTTP servers, settings or sessions: the app passes
//! `bugIntakeEnabled` and `bugIntakeAppendPrompt`, starts the session an
//! [`Action::StartTriage`] asks for and reports back its id.

mod config;
pub mod demo;
mod error;
mod intake;
mod limits;
mod parse;
mod prompt;
mod report;
mod schema;

pub use config::{
    CONFIG_FILE, Config, DEFAULT_INSTRUCTIONS, MAX_INSTRUCTIONS_CHARS, Route, RouteRule, route,
};
pub use error::{ConfigError, ParseError};
pub use intake::{
    Action, BugIntake, BugReport, DEDUP_WINDOW, IntakeError, Policy, Reason, Received, ReportState,
};
pub use limits::{MAX_BODY_BYTES, MAX_FIELD_CHARS, MAX_LABEL_CHARS, MAX_LABELS, MAX_TITLE_CHARS};
pub use parse::{Delivery, Form, Mail, Parsed, from_form, from_mail, parse_delivery};
pub use prompt::{PROMPT_BODY_CHARS, prompt};
pub use report::{Report, Source, normalized_title};
pub use schema::MIGRATIONS;

//! One route table per domain, merged in `api()` so every URL can be found by
//! grep. The same table serves both listeners: at the root of the control
//! server and under `/api` on the UI server, which adds [`ui_api`]'s few
//! browser-only routes.

use axum::Router;

use crate::state::AppState;

mod accounts;
mod alarms;
mod announcements;
mod app;
mod approvals;
mod apps;
mod ask;
mod attachments;
mod board_reads;
mod boards;
mod bookmarks;
mod briefings;
mod bug_reports;
mod calendars;
mod clock;
mod coaching;
mod dashboards;
mod digests;
mod doctor;
mod documents;
mod drips;
pub(crate) mod drives;
mod email_inbound;
mod feedback;
mod feeds;
mod fleet_cards;
mod focus;
mod forensics;
mod governor;
mod imports;
mod inbox;
mod inbox_stats;
mod mail;
mod messenger_bot;
mod messenger_rooms;
mod metrics;
pub(crate) mod navigation;
pub mod openapi;
mod push;
mod recipes;
mod rules;
mod runners;
mod secrets;
mod session_files;
mod sessions;
mod settings;
mod sheets;
mod skills;
mod sms;
mod stream;
mod task_lists;
mod team;
mod teamchat;
pub mod ui;
mod utility;
mod webhooks;
mod work;

pub fn api(state: &AppState) -> Router<AppState> {
    let lockdown =
        || axum::middleware::from_fn_with_state(state.clone(), crate::auth::email_lockdown);
    let switch = |switch: crate::auth::ControlSwitch| {
        axum::middleware::from_fn_with_state((state.clone(), switch), crate::auth::control_switch)
    };
    Router::new()
        .merge(settings::routes().route_layer(lockdown()))
        .merge(accounts::routes())
        .merge(inbox::routes())
        .merge(inbox_stats::routes())
        .merge(announcements::routes())
        .merge(alarms::routes())
        .merge(fleet_cards::routes())
        .merge(app::routes())
        .merge(apps::routes())
        .merge(skills::routes())
        .merge(imports::routes())
        .merge(attachments::routes())
        .merge(ask::routes())
        .merge(boards::routes(state).route_layer(lockdown()))
        .merge(dashboards::routes().route_layer(lockdown()))
        .merge(sessions::routes())
        .merge(approvals::routes())
        .merge(governor::routes())
        .merge(doctor::routes())
        .merge(runners::routes())
        .merge(teamchat::routes())
        .merge(team::routes())
        .merge(navigation::routes())
        .merge(coaching::routes().route_layer(switch(coaching::SWITCH)))
        .merge(bookmarks::routes().route_layer(switch(bookmarks::SWITCH)))
        .merge(secrets::routes())
        .merge(stream::routes())
        .merge(webhooks::routes())
        .merge(utility::routes())
        .merge(digests::routes())
        .merge(forensics::routes())
        .merge(task_lists::routes())
        .merge(messenger_bot::routes())
        .merge(bug_reports::routes())
        .merge(email_inbound::routes())
        .merge(metrics::routes())
        .merge(work::routes())
        .merge(recipes::routes())
        .merge(drips::routes())
        .merge(focus::routes())
        .merge(calendars::routes())
        .merge(feeds::routes())
        .merge(push::routes())
        .merge(feedback::routes())
        .merge(session_files::routes())
        .merge(sms::routes())
        .merge(messenger_rooms::routes())
        .merge(drives::routes())
        .merge(sheets::routes())
        .merge(documents::routes())
        .merge(briefings::routes())
        .merge(mail::routes())
        .merge(rules::routes())
        .merge(clock::routes(state))
        .merge(openapi::routes())
}

/// Routes of the control server alone: webhook deliveries, which carry no
/// token and which the UI server does not take, and the metrics scrape,
/// whose scrapers hold tokens, never a browser's cookie.
pub fn control_only() -> Router<AppState> {
    webhooks::delivery_routes().merge(metrics::scrape_routes())
}

/// The UI server's API: everything in [`api`] plus the routes that belong to
/// the browser session alone.
pub fn ui_api(state: &AppState) -> Router<AppState> {
    api(state)
        .merge(app::ui_routes())
        .merge(accounts::ui_routes())
        .merge(navigation::ui_routes())
        .merge(messenger_bot::ui_routes())
}

//! Calendars (docs/calendar.md): `/calendars`, the user's CalDAV accounts
//! and ICS subscriptions, and `GET /calendar/events`, their occurrences and
//! the boards' due dates and sprints in a range of days (`app::agenda`).
//! Any token reads the events; the accounts are the user's alone (a
//! subscription's URL often carries a secret of its own). The password goes
//! to the secrets store and no route returns it. The `/calendars` routes
//! answer 403 `calendar_disabled` while `calendarEnabled` is off; the
//! events only while `pmCalendarOverlayEnabled` is off too. Spam
//! invitations (`/calendar/spam`, `/calendar/trash`,
//! `/calendar/organization`) are the user's alone and follow
//! `calendarEnabled`; marking one spam answers 403
//! `calendar_spam_filter_off` while `spamFilterCalendarEnabled` is off.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use calendar::{Account, Marked, Occurrence, Organization, SpamSender, SyncReport, TrashedInvite};

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{
    CalendarEventsQuery, CalendarOrganizationEntries, CalendarSpamRequest, NewCalendar,
};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/calendars", get(list).post(add))
        .route("/calendars/{id}", axum::routing::delete(remove))
        .route("/calendars/{id}/sync", post(sync))
        .route("/calendar/events", get(events))
        .route("/calendar/spam", get(spam_senders).post(mark_spam))
        .route(
            "/calendar/spam/{address}",
            axum::routing::delete(unmark_spam),
        )
        .route("/calendar/trash", get(trash))
        .route("/calendar/trash/{id}/restore", post(restore))
        .route(
            "/calendar/organization",
            get(organization).put(set_organization),
        )
}

fn calendars_on(state: &AppState) -> ApiResult<()> {
    if state.settings.calendar_enabled() {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "calendar_disabled",
        "Calendars are turned off (setting calendarEnabled).",
    ))
}

/// The account's CalDAV accounts and ICS subscriptions, never a password.
///
/// Each with its status (`pending`, `ok`, `failing` and why) and calendars.
#[utoipa::path(get, path = "/calendars", responses((status = 200, body = Vec<Account>)))]
async fn list(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<Account>>> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    Ok(Json(blocking(move || service.accounts(&owner)).await?))
}

/// Adds a CalDAV account or an ICS subscription.
///
/// `{kind: "caldav" | "ics", url, username?, password?, name?}`. The
/// password (or token) is written to the secrets store and never returned;
/// the account is synchronised at once in the background (`status`
/// `pending` until then). A bad URL → 400.
#[utoipa::path(post, path = "/calendars", request_body = NewCalendar, responses((status = 201, body = Account)))]
async fn add(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewCalendar>,
) -> ApiResult<(StatusCode, Json<Account>)> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    let new = calendar::NewAccount {
        kind: body.kind,
        url: body.url,
        username: body.username,
        password: body.password,
        name: body.name,
    };
    let account = blocking(move || service.add(&owner, new)).await?;
    state.wake_calendars();
    Ok((StatusCode::CREATED, Json(account)))
}

/// Removes an account, its events and its saved password.
#[utoipa::path(delete, path = "/calendars/{id}", params(("id" = String, Path, description = "The account's id.")), responses((status = 204)))]
async fn remove(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    blocking(move || service.remove(&owner, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Synchronises one account now.
///
/// Only what changed on the server is downloaded. A server that fails
/// (401, 404, 5xx, malformed XML) → 409 `calendar_sync_failed` with the
/// reason; the account is marked failing and keeps its events.
#[utoipa::path(post, path = "/calendars/{id}/sync", params(("id" = String, Path, description = "The account's id.")), responses((status = 200, body = SyncReport)))]
async fn sync(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<SyncReport>> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    Ok(Json(blocking(move || service.sync(&owner, &id)).await?))
}

/// The calendar from `from` to `to` (days, both included): events, due dates and sprints.
///
/// The accounts' events while `calendarEnabled` is on, read in the server's
/// time zone (at most 400 days), recurring events expanded; the boards' items
/// on their due dates and sprints over their spans while
/// `pmCalendarOverlayEnabled` is on (the boards of `pmCalendarBoardIds`,
/// none listed meaning all), all-day. Each entry has its `source` (`caldav`,
/// `ics`, `item`, `sprint`); times in UTC. Ordered by start, all-day first,
/// then title. Both settings off → 403 `calendar_disabled`.
#[utoipa::path(get, path = "/calendar/events", params(CalendarEventsQuery), responses((status = 200, body = Vec<Occurrence>)))]
async fn events(
    caller: Caller,
    State(state): State<AppState>,
    Query(query): Query<CalendarEventsQuery>,
) -> ApiResult<Json<Vec<Occurrence>>> {
    state
        .calendar_events(caller.account_id(), &query.from, &query.to)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::forbidden("calendar_disabled", app::agenda::CALENDAR_OFF))
}

/// Marks an invitation's organizer spam: their invitations are hidden from then on.
///
/// `{accountId, uid}` of a CalDAV event organized by someone else (else
/// 400). With `spamFilterCalendarDeleteEvent` on, the sender's stored
/// invitations are also deleted on the server (DELETE with If-Match) into
/// the calendar trash; `failure` says why one was not (it is tried again
/// after the next sync). 403 `calendar_spam_filter_off` while
/// `spamFilterCalendarEnabled` is off.
#[utoipa::path(post, path = "/calendar/spam", request_body = CalendarSpamRequest, responses((status = 200, body = Marked)))]
async fn mark_spam(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<CalendarSpamRequest>,
) -> ApiResult<Json<Marked>> {
    calendars_on(&state)?;
    if !state.settings.spam_filter_calendar_enabled() {
        return Err(ApiError::forbidden(
            "calendar_spam_filter_off",
            "The calendar's spam filter is turned off (setting spamFilterCalendarEnabled).",
        ));
    }
    let delete = state.settings.spam_filter_calendar_delete_event();
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    let marked =
        blocking(move || service.mark_spam(&owner, &body.account_id, &body.uid, delete)).await?;
    Ok(Json(marked))
}

/// The senders marked spam, oldest first.
#[utoipa::path(get, path = "/calendar/spam", responses((status = 200, body = Vec<SpamSender>)))]
async fn spam_senders(
    user: User,
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<SpamSender>>> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    Ok(Json(blocking(move || service.spam_senders(&owner)).await?))
}

/// Takes a sender off the spam list: their invitations show again.
#[utoipa::path(delete, path = "/calendar/spam/{address}", params(("address" = String, Path, description = "The sender's address.")), responses((status = 204)))]
async fn unmark_spam(
    user: User,
    State(state): State<AppState>,
    Path(address): Path<String>,
) -> ApiResult<StatusCode> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    blocking(move || service.unmark_spam(&owner, &address)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The invitations deleted as spam on their server, kept 30 days, the latest first.
#[utoipa::path(get, path = "/calendar/trash", responses((status = 200, body = Vec<TrashedInvite>)))]
async fn trash(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<TrashedInvite>>> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    Ok(Json(blocking(move || service.trash(&owner)).await?))
}

/// Puts a trashed invitation back on its server and in the calendar.
///
/// PUT with If-None-Match; the sender leaves the spam list and their
/// address joins the user's organization, so it shows again. A server that
/// refuses → 409 `calendar_sync_failed` with its words.
#[utoipa::path(post, path = "/calendar/trash/{id}/restore", params(("id" = String, Path, description = "The trashed invitation's id.")), responses((status = 204)))]
async fn restore(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    blocking(move || service.restore(&owner, &id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The user's organization as the spam filter reads it.
///
/// The domains of the user's own addresses (CalDAV user names, the mail
/// client's and `email.toml`'s; free-mail ones stand for themselves
/// alone) and the domains and addresses the user added.
#[utoipa::path(get, path = "/calendar/organization", responses((status = 200, body = Organization)))]
async fn organization(user: User, State(state): State<AppState>) -> ApiResult<Json<Organization>> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    Ok(Json(blocking(move || service.organization(&owner)).await?))
}

/// Replaces the domains and addresses the user adds to their organization.
#[utoipa::path(put, path = "/calendar/organization", request_body = CalendarOrganizationEntries, responses((status = 200, body = Organization)))]
async fn set_organization(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<CalendarOrganizationEntries>,
) -> ApiResult<Json<Organization>> {
    calendars_on(&state)?;
    let (service, owner) = (state.calendars.clone(), user.account_id().to_owned());
    Ok(Json(
        blocking(move || service.set_organization(&owner, &body.added)).await?,
    ))
}

//! Scheduled messages and drips (docs/automations.md).
//!
//! `/scheduled-messages`: a Markdown note put in the inbox once or on a
//! rule. Any token may make and list them (an agent's, too: a note can do
//! nothing but land in its account's inbox, and its row names the agent's
//! session); pausing, resuming and deleting are the user's alone. Every
//! route answers 403 `scheduled_messages_disabled` while
//! `scheduledMessagesEnabled` is off.
//!
//! `/drips`: queues released to the inbox on a cadence, the user's alone
//! (a drip reads a folder on disk, so no agent token makes or reads one).
//! Every route answers 403 `drips_disabled` while `dripEnabled` is off.
//! An HTML item's preview is served with a content security policy that
//! sandboxes it into an opaque origin and allows it no network at all,
//! and answers 403 `drip_html_preview_disabled` while
//! `dripHtmlPreviewEnabled` is off.

use axum::extract::{Path, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware::map_response;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use drips::{
    Drip, Drips, Item, ItemContent, ItemKind, NewDrip, NewItem, NewMessage, ScheduledMessage,
};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::auth::{Caller, User};
use crate::blocking::blocking;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{DripItemList, DripList, ScheduledMessageList};

/// What a preview may do: nothing but show itself. `sandbox` (no
/// `allow-*`) gives the document an opaque origin with no scripts, forms,
/// popups or top navigation even when opened on its own; `default-src
/// 'none'` sends no request anywhere (fetch, images, styles, fonts,
/// frames), but for inline styles and `data:` images and fonts.
pub const PREVIEW_POLICY: &str = "sandbox; default-src 'none'; style-src 'unsafe-inline'; \
     img-src data:; font-src data:; base-uri 'none'; form-action 'none'";

/// The same policy for the document itself (a `<meta>` cannot carry
/// `sandbox`), first thing in it, in case the header is lost.
const PREVIEW_META: &str = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src \
     'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; \
     form-action 'none'\">";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/scheduled-messages",
            get(list_messages).post(create_message),
        )
        .route(
            "/scheduled-messages/{id}",
            get(read_message).delete(delete_message),
        )
        .route("/scheduled-messages/{id}/{change}", post(change_message))
        .route("/drips", get(list_drips).post(create_drip))
        .route("/drips/{id}", get(read_drip).delete(delete_drip))
        .route("/drips/{id}/release", post(release_next))
        .route("/drips/{id}/{change}", post(change_drip))
        .route("/drips/{id}/items", get(list_items).post(add_item))
        .route(
            "/drips/{id}/items/{item}",
            get(read_item).delete(delete_item),
        )
        .route(
            "/drips/{id}/items/{item}/preview",
            get(preview).layer(map_response(sandbox_headers)),
        )
}

/// A move the user makes on a message or a drip.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// Stops it: nothing is delivered until it is resumed, and nothing
    /// due meanwhile is caught up.
    Pause,
    /// Starts it again at its next tick (a one-off message whose time has
    /// passed: at once).
    Resume,
}

fn messages_on(state: &AppState) -> ApiResult<()> {
    if state.settings.scheduled_messages_enabled() {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "scheduled_messages_disabled",
        "Scheduled messages are turned off (setting scheduledMessagesEnabled).",
    ))
}

fn drips_on(state: &AppState) -> ApiResult<()> {
    if state.settings.drip_enabled() {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "drips_disabled",
        "Drips are turned off (setting dripEnabled).",
    ))
}

/// Runs one call of the `drips` crate for an account, off the async
/// workers, once the feature's setting allows it.
async fn with_drips<T: Send + 'static>(
    state: &AppState,
    allowed: fn(&AppState) -> ApiResult<()>,
    account: &str,
    call: impl FnOnce(&Drips, &str) -> Result<T, drips::DripError> + Send + 'static,
) -> ApiResult<T> {
    allowed(state)?;
    let (service, account) = (state.drips.clone(), account.to_owned());
    blocking(move || call(&service, &account)).await
}

/// The account's scheduled messages, oldest first.
#[utoipa::path(get, path = "/scheduled-messages", responses((status = 200, body = ScheduledMessageList)))]
async fn list_messages(
    caller: Caller,
    State(state): State<AppState>,
) -> ApiResult<Json<ScheduledMessageList>> {
    let messages = with_drips(&state, messages_on, caller.account_id(), |d, a| {
        d.list_messages(a)
    })
    .await?;
    Ok(Json(ScheduledMessageList { messages }))
}

/// Schedules a Markdown note for the inbox.
///
/// `markdown` (its first line is the row's title) and exactly one of `at`
/// (once: RFC 3339 with an offset, or a local `YYYY-MM-DDTHH:MM` read in
/// `timeZone`), `cron` (five fields) or `rrule` (RFC 5545), with an IANA
/// `timeZone` (optional only for an `at` with an offset). Each delivery is
/// one inbox row of category `note`. A bad field → 400 naming it in
/// `error.field`; an `at` more than a minute past is one. An agent token
/// may make one: it is active at once and its rows name the session (an
/// email-triggered session's → 403 `email_session_locked`).
#[utoipa::path(post, path = "/scheduled-messages", request_body = NewMessage, responses(
    (status = 201, description = "The message, active.", body = ScheduledMessage),
))]
async fn create_message(
    caller: Caller,
    State(state): State<AppState>,
    ApiJson(fields): ApiJson<NewMessage>,
) -> ApiResult<(StatusCode, Json<ScheduledMessage>)> {
    // A session an email started is locked down: it may not put notes in
    // the inbox that could pass for the user's own reminders.
    crate::auth::refuse_email_session(&state, &caller.0).await?;
    let session = caller.0.session_id.clone();
    let message = with_drips(&state, messages_on, caller.account_id(), move |d, a| {
        d.create_message(a, &fields, session.as_deref())
    })
    .await?;
    state.wake_drips();
    Ok((StatusCode::CREATED, Json(message)))
}

/// One scheduled message.
#[utoipa::path(get, path = "/scheduled-messages/{id}", params(("id" = String, Path, description = "The message's id.")),
    responses((status = 200, body = ScheduledMessage), (status = 404, description = "No such message.")))]
async fn read_message(
    caller: Caller,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<ScheduledMessage>> {
    let message = with_drips(&state, messages_on, caller.account_id(), move |d, a| {
        d.message(a, &id)
    });
    Ok(Json(message.await?))
}

/// Deletes a scheduled message.
///
/// A delivery already in the inbox stays there. The user's alone: an
/// agent token → 403.
#[utoipa::path(delete, path = "/scheduled-messages/{id}", params(("id" = String, Path, description = "The message's id.")),
    responses((status = 204, description = "Deleted."), (status = 404, description = "No such message.")))]
async fn delete_message(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    with_drips(&state, messages_on, user.account_id(), move |d, a| {
        d.delete_message(a, &id)
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Pauses or resumes a scheduled message.
///
/// `pause` an active message (nothing due meanwhile is caught up),
/// `resume` a paused one at its next tick; any other move → 409. The
/// user's alone: an agent token → 403.
#[utoipa::path(post, path = "/scheduled-messages/{id}/{change}", params(
        ("id" = String, Path, description = "The message's id."),
        ("change" = Change, Path, description = "`pause` or `resume`."),
    ),
    responses((status = 200, body = ScheduledMessage), (status = 404, description = "No such message.")))]
async fn change_message(
    user: User,
    State(state): State<AppState>,
    Path((id, change)): Path<(String, Change)>,
) -> ApiResult<Json<ScheduledMessage>> {
    let message = with_drips(
        &state,
        messages_on,
        user.account_id(),
        move |d, a| match change {
            Change::Pause => d.pause_message(a, &id),
            Change::Resume => d.resume_message(a, &id),
        },
    )
    .await?;
    state.wake_drips();
    Ok(Json(message))
}

/// The account's drips, each with its queue counted.
///
/// A folder drip's folder is read again: new files join its queue. The
/// user's alone: an agent token → 403.
#[utoipa::path(get, path = "/drips", responses((status = 200, body = DripList)))]
async fn list_drips(user: User, State(state): State<AppState>) -> ApiResult<Json<DripList>> {
    let drips = with_drips(&state, drips_on, user.account_id(), |d, a| d.list_drips(a)).await?;
    Ok(Json(DripList { drips }))
}

/// Makes a drip: a queue released one item at a time to the inbox.
///
/// `name`, exactly one of `cron` or `rrule`, an IANA `timeZone`, and
/// optionally `folder`: an absolute path to an existing folder whose
/// `.md`, `.html` and `.txt` files are the items, in name order (numbers
/// as numbers); without it, items are added with `POST
/// /drips/{id}/items`. A bad field → 400 naming it (`folder` for one that
/// does not exist). The user's alone: an agent token → 403.
#[utoipa::path(post, path = "/drips", request_body = NewDrip, responses(
    (status = 201, description = "The drip, active.", body = Drip),
))]
async fn create_drip(
    user: User,
    State(state): State<AppState>,
    ApiJson(fields): ApiJson<NewDrip>,
) -> ApiResult<(StatusCode, Json<Drip>)> {
    let drip = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.create_drip(a, &fields)
    })
    .await?;
    state.wake_drips();
    Ok((StatusCode::CREATED, Json(drip)))
}

/// One drip, with its queue counted.
#[utoipa::path(get, path = "/drips/{id}", params(("id" = String, Path, description = "The drip's id.")),
    responses((status = 200, body = Drip), (status = 404, description = "No such drip.")))]
async fn read_drip(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Drip>> {
    let drip = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.drip(a, &id)
    });
    Ok(Json(drip.await?))
}

/// Deletes a drip and its items' records.
///
/// A folder's files are never touched; released items stay in the inbox.
#[utoipa::path(delete, path = "/drips/{id}", params(("id" = String, Path, description = "The drip's id.")),
    responses((status = 204, description = "Deleted."), (status = 404, description = "No such drip.")))]
async fn delete_drip(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let deleted = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.delete_drip(a, &id)
    });
    deleted.await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Pauses or resumes a drip.
///
/// `pause` an active drip (its ticks release nothing and are not caught
/// up), `resume` a paused one at its next tick; any other move → 409.
#[utoipa::path(post, path = "/drips/{id}/{change}", params(
        ("id" = String, Path, description = "The drip's id."),
        ("change" = Change, Path, description = "`pause` or `resume`."),
    ),
    responses((status = 200, body = Drip), (status = 404, description = "No such drip.")))]
async fn change_drip(
    user: User,
    State(state): State<AppState>,
    Path((id, change)): Path<(String, Change)>,
) -> ApiResult<Json<Drip>> {
    let changed = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        if matches!(change, Change::Pause) {
            d.pause_drip(a, &id)
        } else {
            d.resume_drip(a, &id)
        }
    });
    let drip = changed.await?;
    state.wake_drips();
    Ok(Json(drip))
}

/// Releases a drip's next item now.
///
/// The same delivery a tick makes (a `note` row in the inbox), whatever the
/// drip's state; its ticks go on as they were, so the next one releases the
/// item after. Nothing waiting (or a folder item that cannot be read) →
/// 409 `nothing_waiting` (`item_unreadable`).
#[utoipa::path(post, path = "/drips/{id}/release", params(("id" = String, Path, description = "The drip's id.")),
    responses(
        (status = 200, description = "The drip, its item released.", body = Drip),
        (status = 404, description = "No such drip."),
        (status = 409, description = "No item waits to be released."),
    ))]
async fn release_next(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Drip>> {
    let released = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.release_next_now(a, &id)
    });
    let drip = released.await?;
    state.wake_drips();
    Ok(Json(drip))
}

/// A drip's items: released ones as they went, then the queue in order.
///
/// `position` 1 is released next. A folder drip's folder is read again.
#[utoipa::path(get, path = "/drips/{id}/items", params(("id" = String, Path, description = "The drip's id.")),
    responses((status = 200, body = DripItemList), (status = 404, description = "No such drip.")))]
async fn list_items(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<DripItemList>> {
    let items = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.items(a, &id)
    });
    Ok(Json(DripItemList {
        items: items.await?,
    }))
}

/// Adds an item at the end of a drip's queue.
///
/// `name` and `content` (at most 256 KiB); `kind` (`markdown`, `html`,
/// `text`) defaults to what the name's extension says, else `markdown`. A
/// drip fed by a folder takes no items here → 409 `folder_drip`.
#[utoipa::path(post, path = "/drips/{id}/items", params(("id" = String, Path, description = "The drip's id.")),
    request_body = NewItem,
    responses((status = 201, description = "The item, queued.", body = Item), (status = 404, description = "No such drip.")))]
async fn add_item(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(fields): ApiJson<NewItem>,
) -> ApiResult<(StatusCode, Json<Item>)> {
    let added = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.add_item(a, &id, &fields)
    });
    Ok((StatusCode::CREATED, Json(added.await?)))
}

/// One item with its content.
///
/// As it was released, or (a folder item still waiting) as its file reads
/// now; 409 `item_unreadable` when that file cannot be read.
#[utoipa::path(get, path = "/drips/{id}/items/{item}", params(
        ("id" = String, Path, description = "The drip's id."),
        ("item" = String, Path, description = "The item's id."),
    ),
    responses((status = 200, body = ItemContent), (status = 404, description = "No such drip or item.")))]
async fn read_item(
    user: User,
    State(state): State<AppState>,
    Path((id, item)): Path<(String, String)>,
) -> ApiResult<Json<ItemContent>> {
    let read = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.item(a, &id, &item)
    });
    Ok(Json(read.await?))
}

/// Removes a waiting item the app added.
///
/// A released item stays on the record (409); a folder drip's items are
/// its files (409 `folder_drip`).
#[utoipa::path(delete, path = "/drips/{id}/items/{item}", params(
        ("id" = String, Path, description = "The drip's id."),
        ("item" = String, Path, description = "The item's id."),
    ),
    responses((status = 204, description = "Removed."), (status = 404, description = "No such drip or item.")))]
async fn delete_item(
    user: User,
    State(state): State<AppState>,
    Path((id, item)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    let removed = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.delete_item(a, &id, &item)
    });
    removed.await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An HTML item as a sandboxed page with no network, for a frame.
///
/// The reply carries `Content-Security-Policy: sandbox; default-src 'none';
/// …`, so even opened on its own it runs no script, has an opaque origin
/// (no cookie, storage or page of the app) and loads nothing from
/// anywhere (inline styles and `data:` images aside); the same policy is
/// its first `<meta>`, and its frame elements are renamed (`<x-iframe>`);
/// a refusal carries the same headers. Not an HTML item → 409 `not_html`;
/// 403 `drip_html_preview_disabled` while `dripHtmlPreviewEnabled` is off.
#[utoipa::path(get, path = "/drips/{id}/items/{item}/preview", params(
        ("id" = String, Path, description = "The drip's id."),
        ("item" = String, Path, description = "The item's id."),
    ),
    responses((status = 200, description = "The item's HTML, sandboxed.", content_type = "text/html")))]
async fn preview(
    user: User,
    State(state): State<AppState>,
    Path((id, item)): Path<(String, String)>,
) -> ApiResult<Response> {
    if !state.settings.drip_html_preview_enabled() {
        return Err(ApiError::forbidden(
            "drip_html_preview_disabled",
            "HTML previews of drip items are turned off (setting dripHtmlPreviewEnabled).",
        ));
    }
    let read = with_drips(&state, drips_on, user.account_id(), move |d, a| {
        d.item(a, &id, &item)
    });
    let item = read.await?;
    if item.item.kind != ItemKind::Html {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "not_html",
            "Only an HTML item has a preview; read the others with GET /drips/{id}/items/{item}.",
        ));
    }
    let html = (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        sandboxed(&item.content),
    );
    Ok(html.into_response())
}

/// Every reply of the preview route, a refusal (of its extractors too)
/// included, carries the sandbox's policy and keeps from the network:
/// whatever a frame or a tab shows from this address is sandboxed.
async fn sandbox_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, PREVIEW_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
        (HeaderName::from_static("x-dns-prefetch-control"), "off"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// The elements that open a frame: the policy stops the frame's request,
/// but Chromium opens a connection to its host first, which would tell
/// that host the item was looked at. The preview renames them (`<x-iframe>`),
/// so no frame is made; without scripts no element can be made later.
const FRAME_TAGS: [&str; 6] = [
    "iframe",
    "frame",
    "object",
    "embed",
    "portal",
    "fencedframe",
];

/// `html` with every start and end tag of a [`FRAME_TAGS`] element renamed
/// `x-<name>` (letter case aside, as the HTML parser reads tag names).
fn without_frames(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        let (before, tag) = rest.split_at(at);
        out.push_str(before);
        let name_at = if tag.starts_with("</") { 2 } else { 1 };
        let after = &tag[name_at..];
        let framing = FRAME_TAGS.iter().any(|name| {
            after.len() >= name.len()
                && after.as_bytes()[..name.len()].eq_ignore_ascii_case(name.as_bytes())
                && after[name.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c.is_ascii_whitespace() || c == '/' || c == '>')
        });
        out.push_str(&tag[..name_at]);
        if framing {
            out.push_str("x-");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The item's HTML, without frames, with the policy as its first `<meta>`,
/// after its doctype when it has one (so the page keeps its standards
/// mode).
fn sandboxed(html: &str) -> String {
    let html = without_frames(html);
    let trimmed = html.trim_start();
    let has_doctype = trimmed
        .get(..9)
        .is_some_and(|start| start.eq_ignore_ascii_case("<!doctype"));
    match trimmed.find('>').filter(|_| has_doctype) {
        Some(end) => format!("{}{PREVIEW_META}{}", &trimmed[..=end], &trimmed[end + 1..]),
        None => format!("<!doctype html>{PREVIEW_META}{trimmed}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_comes_first_after_any_doctype() {
        assert_eq!(
            sandboxed("<p>hi</p>"),
            format!("<!doctype html>{PREVIEW_META}<p>hi</p>")
        );
        assert_eq!(
            sandboxed("\n<!DOCTYPE html><html><p>x</p>"),
            format!("<!DOCTYPE html>{PREVIEW_META}<html><p>x</p>")
        );
        assert!(sandboxed("<!doctyp").starts_with("<!doctype html><meta"));
        assert!(PREVIEW_POLICY.starts_with("sandbox;"));
    }

    #[test]
    fn frames_are_renamed_whatever_their_letter_case() {
        assert_eq!(
            without_frames("<p>a<IFRAME src=x></IFRAME><iframe/><frame\tsrc=y><embed>"),
            "<p>a<x-IFRAME src=x></x-IFRAME><x-iframe/><x-frame\tsrc=y><x-embed>"
        );
        assert_eq!(
            without_frames("<frameset><iframes><objection>< iframe>a < b<object"),
            "<frameset><iframes><objection>< iframe>a < b<x-object"
        );
        assert_eq!(without_frames("é<ıframe>"), "é<ıframe>");
    }
}

//! The person's mail client (docs/email.md, "Your own mail"): `/mail/…`,
//! the accounts, folders, threads, a thread's actions, a message's parts
//! and its sandboxed frame. Every route is the user's alone: an agent's
//! scoped token is refused (403 `agent_token_forbidden`), since no
//! setting lets agents read the person's mail. While `mailclientEnabled`
//! is off every route answers 409 `mailclient_disabled`.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use app::mail_accounts::{MailAccount, NewMailAccount};
use app::mail_cleanup::{MailCleanup, MailCleanupDone};
use app::mail_client::{MAIL_OFF, MailThread};
use app::mail_reads::{MailFolder, MailThreadPage};
use app::mail_send::{MailSent, Outgoing};
use app::mail_summary::MailCatchUp;

use crate::auth::User;
use crate::error::{ApiError, ApiResult};
use crate::json::ApiJson;
use crate::state::AppState;
use crate::wire::{
    MailActionBody, MailCleanupBody, MailCleanupQuery, MailFoldersQuery, MailFrameQuery,
    MailSendBody, MailThreadsQuery, NewMailAccountBody,
};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/mail/accounts", get(accounts).post(add_account))
        .route("/mail/accounts/{id}", axum::routing::delete(remove_account))
        .route("/mail/folders", get(folders))
        .route("/mail/threads", get(threads))
        .route("/mail/threads/{id}", get(thread))
        .route("/mail/threads/{id}/actions", post(act))
        .route("/mail/threads/{id}/summary", post(summary))
        .route("/mail/messages/{id}/parts/{part}", get(part))
        .route("/mail/messages/{id}/frame", get(frame))
        .route("/mail/send", post(send))
        .route("/mail/cleanup", get(cleanup))
        .route("/mail/cleanup/actions", post(cleanup_act))
}

fn mail_on(state: &AppState) -> ApiResult<()> {
    if state.mail_enabled() {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::CONFLICT,
        "mailclient_disabled",
        MAIL_OFF,
    ))
}

/// The mail client's accounts: `email.toml`'s and the ones added here.
///
/// Never a password. `email.toml`'s are listed (as `toml:<address>`,
/// `source: "toml"`) while `mailclientUseAppWebmail` is on. Each has its
/// `status`: `pending` until its login was checked, `ok`, or `failing`
/// with the server's words in `failure`.
#[utoipa::path(get, path = "/mail/accounts", responses((status = 200, body = Vec<MailAccount>)))]
async fn accounts(user: User, State(state): State<AppState>) -> ApiResult<Json<Vec<MailAccount>>> {
    mail_on(&state)?;
    Ok(Json(state.mail_accounts(user.account_id()).await?))
}

/// Adds an IMAP and SMTP account.
///
/// The password goes to the saved keys and is never returned; the login
/// is checked in the background (`status: "pending"` until then). A wrong
/// field → 400 naming it, and nothing is kept.
#[utoipa::path(post, path = "/mail/accounts", request_body = NewMailAccountBody, responses((status = 201, body = MailAccount)))]
async fn add_account(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<NewMailAccountBody>,
) -> ApiResult<(StatusCode, Json<MailAccount>)> {
    mail_on(&state)?;
    let new = NewMailAccount {
        name: body.name,
        address: body.address,
        username: body.username,
        password: body.password,
        imap: body.imap,
        smtp: body.smtp,
    };
    let account = state.add_mail_account(user.account_id(), new).await?;
    Ok((StatusCode::CREATED, Json(account)))
}

/// Removes an added account, its saved password and its synced mail.
///
/// An `email.toml` account → 409 `read_only` (edit that file).
#[utoipa::path(delete, path = "/mail/accounts/{id}", params(("id" = String, Path, description = "The account's id.")), responses((status = 204)))]
async fn remove_account(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    mail_on(&state)?;
    state.remove_mail_account(user.account_id(), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// An account's folders with their roles and counts, as last synced.
///
/// Inbox, Drafts, Sent, Archive, Spam, Trash first (their `role`), then the
/// rest by name; `total` and `unread` messages each.
#[utoipa::path(get, path = "/mail/folders", params(MailFoldersQuery), responses((status = 200, body = Vec<MailFolder>)))]
async fn folders(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<MailFoldersQuery>,
) -> ApiResult<Json<Vec<MailFolder>>> {
    mail_on(&state)?;
    Ok(Json(
        state
            .mail_folders(user.account_id(), &query.account_id)
            .await?,
    ))
}

/// A page of a folder's threads, newest activity first.
///
/// `webmailPageSize` at a time; `q` defaults to `webmailDefaultQuery`
/// (`in:<folder>` in it picks the folder; its other words search the
/// local index, and the server for bodies not downloaded yet). `next` is
/// the cursor of the following page.
#[utoipa::path(get, path = "/mail/threads", params(MailThreadsQuery), responses((status = 200, body = MailThreadPage)))]
async fn threads(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<MailThreadsQuery>,
) -> ApiResult<Json<MailThreadPage>> {
    mail_on(&state)?;
    Ok(Json(
        state
            .mail_threads(
                user.account_id(),
                &query.account_id,
                query.folder,
                query.q,
                query.cursor,
            )
            .await?,
    ))
}

/// A thread's messages, oldest first, with sanitized HTML and text.
///
/// Bodies are downloaded on first open. With `webmailAutoMarkRead` the
/// thread is marked read on the server. With `emailBlockRemoteImages` no
/// remote image is left in `html` (`remoteImages` counts them).
#[utoipa::path(get, path = "/mail/threads/{id}", params(("id" = String, Path, description = "The thread's id.")), responses((status = 200, body = MailThread)))]
async fn thread(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<MailThread>> {
    mail_on(&state)?;
    Ok(Json(state.mail_thread(user.account_id(), &id).await?))
}

/// "Catch me up": the utility model's few lines over a thread.
///
/// With `mailclientAiSummaryPrompt` and `mailclientAiSummaryModel` when
/// set; the newest messages are read first when the thread is long. No
/// utility engine → 409 `no_utility_engine`; the model failing → 502
/// `utility_model_failed`; nothing is stored.
#[utoipa::path(post, path = "/mail/threads/{id}/summary", params(("id" = String, Path, description = "The thread's id.")), responses((status = 200, body = MailCatchUp)))]
async fn summary(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<MailCatchUp>> {
    mail_on(&state)?;
    Ok(Json(
        state.mail_thread_summary(user.account_id(), &id).await?,
    ))
}

/// Applies an action to a thread on the server, then in the store.
///
/// `archive`, `star`, `unstar`, `read`, `unread`, `spam`, `not_spam`,
/// `snooze` (with `until`, in the future by the server's clock), `move`
/// (with `folder`). A server that refuses → 502 with its words, nothing
/// changed; a missing Archive or Spam folder → 409 `no_such_folder`.
#[utoipa::path(post, path = "/mail/threads/{id}/actions", params(("id" = String, Path, description = "The thread's id.")), request_body = MailActionBody, responses((status = 204)))]
async fn act(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<MailActionBody>,
) -> ApiResult<StatusCode> {
    mail_on(&state)?;
    let action = app::mail_actions::MailAction {
        kind: body.action,
        until: body.until,
        folder: body.folder,
    };
    state.mail_act(user.account_id(), &id, action).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// One part of a message: an inline `cid:` image or an attachment's bytes.
///
/// Served as a download (`Content-Disposition: attachment`, `nosniff`) so
/// a part never runs as a page of this origin; images the frame shows
/// inline are fetched by the frame all the same.
#[utoipa::path(get, path = "/mail/messages/{id}/parts/{part}", params(("id" = String, Path, description = "The message's id."), ("part" = String, Path, description = "The part's id.")), responses((status = 200, content_type = "application/octet-stream")))]
async fn part(
    user: User,
    State(state): State<AppState>,
    Path((id, part)): Path<(String, String)>,
) -> ApiResult<Response> {
    mail_on(&state)?;
    let raw = state.mail_message_raw(user.account_id(), &id).await?;
    let found = mailclient::part(&raw, &part).ok_or_else(|| {
        ApiError::not_found("not_found", format!("No part `{part}` in this message."))
    })?;
    let name: String = found
        .name
        .unwrap_or_else(|| format!("part-{part}"))
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let content_type = HeaderValue::from_str(&found.content_type)
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .unwrap_or(HeaderValue::from_static("attachment"));
    let mut response = found.bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, content_type);
    headers.insert(header::CONTENT_DISPOSITION, disposition);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    Ok(response)
}

/// A message's sanitized HTML as a page for a sandboxed frame.
///
/// With its Content-Security-Policy: no script, no form, and remote images
/// only when `emailBlockRemoteImages` is off or `images=1` asks for them.
#[utoipa::path(get, path = "/mail/messages/{id}/frame", params(("id" = String, Path, description = "The message's id."), MailFrameQuery), responses((status = 200, content_type = "text/html")))]
async fn frame(
    user: User,
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<MailFrameQuery>,
) -> ApiResult<Response> {
    mail_on(&state)?;
    let raw = state.mail_message_raw(user.account_id(), &id).await?;
    let allowed = query.images == Some(1) || !state.settings.email_block_remote_images();
    let template = format!("/mail/messages/{id}/parts/{{part}}");
    let rendered = mailclient::render(
        &raw,
        &mailclient::RenderOptions {
            block_remote_images: !allowed,
            part_url: &template,
        },
    );
    let policy = HeaderValue::from_str(&mailclient::content_security_policy(allowed))
        .unwrap_or(HeaderValue::from_static("default-src 'none'; sandbox"));
    let mut response = rendered.html.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        HeaderName::from_static("x-dns-prefetch-control"),
        HeaderValue::from_static("off"),
    );
    Ok(response)
}

/// Sends a mail from an account: Markdown as text and HTML.
///
/// Threaded (In-Reply-To, References) when `inReplyTo` names a thread's
/// message; attachments as base64 (25 MiB each, 35 MiB in all). A copy goes
/// to Sent unless the server files it itself. A send that fails → 502 with
/// the server's words, the message kept in Drafts.
#[utoipa::path(post, path = "/mail/send", request_body = MailSendBody, responses((status = 201, body = MailSent)))]
async fn send(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<MailSendBody>,
) -> ApiResult<(StatusCode, Json<MailSent>)> {
    use base64::Engine as _;
    mail_on(&state)?;
    let mut attachments = Vec::new();
    for file in body.attachments.unwrap_or_default() {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(file.content.as_bytes())
            .map_err(|_| {
                ApiError::bad_request("invalid_request", "An attachment's content is not base64.")
                    .on_field(Some("attachments"))
            })?;
        attachments.push(mailclient::OutgoingAttachment {
            name: file.name,
            content_type: file.content_type,
            bytes,
        });
    }
    let out = Outgoing {
        account: body.account_id,
        to: body.to.into_list(),
        cc: body.cc.map(|c| c.into_list()).unwrap_or_default(),
        bcc: body.bcc.map(|c| c.into_list()).unwrap_or_default(),
        subject: body.subject,
        markdown: body.markdown,
        in_reply_to: body.in_reply_to,
        attachments,
    };
    let sent = state.mail_send(user.account_id(), out).await?;
    Ok((StatusCode::CREATED, Json(sent)))
}

/// Email Cleanup: the inbox's senders by volume, with how to unsubscribe.
///
/// Senders the person kept are left out.
#[utoipa::path(get, path = "/mail/cleanup", params(MailCleanupQuery), responses((status = 200, body = MailCleanup)))]
async fn cleanup(
    user: User,
    State(state): State<AppState>,
    Query(query): Query<MailCleanupQuery>,
) -> ApiResult<Json<MailCleanup>> {
    mail_on(&state)?;
    Ok(Json(
        state
            .mail_cleanup(user.account_id(), &query.account_id)
            .await?,
    ))
}

/// Archives all of a sender's inbox mail, unsubscribes, or keeps them.
///
/// `unsubscribe` posts the one-click request or sends the unsubscribe mail;
/// a sender that only offers a page answers with `openUrl` to open.
#[utoipa::path(post, path = "/mail/cleanup/actions", request_body = MailCleanupBody, responses((status = 200, body = MailCleanupDone)))]
async fn cleanup_act(
    user: User,
    State(state): State<AppState>,
    ApiJson(body): ApiJson<MailCleanupBody>,
) -> ApiResult<Json<MailCleanupDone>> {
    mail_on(&state)?;
    Ok(Json(
        state
            .mail_cleanup_act(
                user.account_id(),
                &body.account_id,
                &body.sender,
                body.action,
            )
            .await?,
    ))
}

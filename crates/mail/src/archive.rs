//! Archiving one mail on the server, on a connection of its own so the
//! watcher's IDLE is never interrupted: `UID MOVE` to [`ARCHIVE_MAILBOX`]
//! (made when missing) where the server offers MOVE, else `UID COPY`, the
//! `\Deleted` flag and `UID EXPUNGE` of that one UID. A mailbox whose
//! UIDVALIDITY changed since the mail was seen is left alone: the UID may
//! name another mail now.

use futures_util::TryStreamExt;

use crate::config::Inbox;
use crate::watch::{connect, limit, logout};
use crate::{MailError, Trust};

/// Where archived mail goes, as most clients name it.
pub const ARCHIVE_MAILBOX: &str = "Archive";

/// Moves the mail `uid` (seen under `uid_validity`) of `inbox` to the
/// Archive mailbox; `false` when the mailbox was renumbered, so nothing
/// was moved.
pub async fn archive(
    inbox: &Inbox,
    password: &str,
    trust: &Trust,
    uid_validity: u32,
    uid: u32,
) -> Result<bool, MailError> {
    let imap = &inbox.account.imap;
    let server = format!("{}:{}", imap.host, imap.port);
    let client = connect(trust, &imap.host, imap.port, imap.tls).await?;
    let username = imap.username.as_deref().unwrap_or_default();
    let mut session = limit(client.login(username, password), &server)
        .await?
        .map_err(|(e, _)| MailError::Login {
            server: server.clone(),
            detail: e.to_string(),
        })?;
    let can_move = limit(session.capabilities(), &server)
        .await??
        .has_str("MOVE");
    let selected = limit(session.select(&inbox.mailbox), &server).await??;
    if selected.uid_validity != Some(uid_validity) {
        logout(session, &server).await?;
        return Ok(false);
    }
    let listed: Vec<_> = limit(
        async {
            session
                .list(None, Some(ARCHIVE_MAILBOX))
                .await?
                .try_collect::<Vec<_>>()
                .await
        },
        &server,
    )
    .await??;
    if listed.is_empty() {
        limit(session.create(ARCHIVE_MAILBOX), &server).await??;
    }
    let set = uid.to_string();
    if can_move {
        limit(session.uid_mv(&set, ARCHIVE_MAILBOX), &server).await??;
    } else {
        limit(session.uid_copy(&set, ARCHIVE_MAILBOX), &server).await??;
        limit(
            async {
                session
                    .uid_store(&set, "+FLAGS.SILENT (\\Deleted)")
                    .await?
                    .try_collect::<Vec<_>>()
                    .await
            },
            &server,
        )
        .await??;
        limit(
            async {
                session
                    .uid_expunge(&set)
                    .await?
                    .try_collect::<Vec<_>>()
                    .await
            },
            &server,
        )
        .await??;
    }
    logout(session, &server).await?;
    Ok(true)
}

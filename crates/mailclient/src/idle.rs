//! Waiting for the Inbox to change, on a connection of its own (the one
//! beside the account's command connection): IDLE where the server has it,
//! re-issued before 29 minutes as RFC 2177 asks, else NOOP every minute.

use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;
use async_imap::imap_proto::{MailboxDatum, Response};
use async_imap::types::UnsolicitedResponse;

use crate::imap::{Login, limit};
use crate::sync::Syncer;
use crate::{ClientError, Role};

/// How often a server without IDLE is asked.
const POLL: Duration = Duration::from_secs(60);

impl Syncer {
    /// Returns when the account's Inbox changed: at once when it did since
    /// the last sync, else when the server says so. Then sync the Inbox.
    pub async fn wait_inbox(&self, account: &str, login: &Login) -> Result<(), ClientError> {
        let inbox = self
            .store
            .folder_with_role(account, Role::Inbox)?
            .unwrap_or_else(|| "INBOX".to_owned());
        let label = login.label();
        let mut session = login.open().await?;
        let can_idle = limit(session.capabilities(), &label)
            .await??
            .has_str("IDLE");
        let selected = limit(session.select(&inbox), &label).await??;
        let stored = self.store.folder(account, &inbox)?;
        let count = self.store.count(account, &inbox)?;
        let changed = stored.is_none_or(|f| f.uid_next != selected.uid_next)
            || count != selected.exists as usize;
        if changed {
            let _ = limit(session.logout(), &label).await;
            return Ok(());
        }
        loop {
            if can_idle {
                let mut idle = session.idle();
                limit(idle.init(), &label).await??;
                let outcome = {
                    // Dropping the interrupt ends the wait: keep it alive.
                    let (wait, _interrupt) = idle.wait_with_timeout(mail::IDLE_RENEW);
                    wait.await
                };
                session = limit(idle.done(), &label).await??;
                match outcome? {
                    IdleResponse::NewData(data) if is_change(data.parsed()) => break,
                    _ => continue,
                }
            }
            tokio::time::sleep(POLL).await;
            limit(session.noop(), &label).await??;
            let mut news = false;
            while let Ok(response) = session.unsolicited_responses.try_recv() {
                news |= matches!(
                    response,
                    UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Expunge(_)
                );
            }
            if news {
                break;
            }
        }
        let _ = limit(session.logout(), &label).await;
        Ok(())
    }
}

/// Whether an IDLE response tells of a change (not a keep-alive).
fn is_change(response: &Response<'_>) -> bool {
    matches!(
        response,
        Response::MailboxData(MailboxDatum::Exists(_) | MailboxDatum::Recent(_))
            | Response::Expunge(_)
            | Response::Vanished { .. }
            | Response::Fetch(..)
    )
}

//! Email Cleanup (`GET /mail/cleanup`, `POST /mail/cleanup/actions`): the
//! inbox's senders grouped by volume from the stored header fields (the
//! `mailclient` crate's grouping), and what the person does to a sender:
//! archive all their inbox mail on the server, unsubscribe (the RFC 8058
//! one-click POST, else the unsubscribe mail, else the page to open), or
//! keep them (they leave the list, `mailclient_cleanup_kept`).

use serde::{Deserialize, Serialize};
use store::rusqlite::params;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::mail_error::{MailClientError, off_thread};
use crate::services::App;

/// How to stop a sender: `oneClick` (Switchboard posts it), `mailto` (an
/// unsubscribe mail to `to`), or `link` (a page for the person to open).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailUnsubscribe {
    pub method: String,
    pub url: Option<String>,
    pub to: Option<String>,
}

/// One sender's share of the inbox.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailCleanupSender {
    pub address: String,
    pub name: Option<String>,
    pub domain: String,
    pub count: u32,
    pub unread: u32,
    pub last_date: Option<String>,
    pub list_id: Option<String>,
    pub unsubscribe: Option<MailUnsubscribe>,
}

/// `GET /mail/cleanup`: senders, most mail first.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailCleanup {
    pub senders: Vec<MailCleanupSender>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MailCleanupAction {
    ArchiveAll,
    Unsubscribe,
    Keep,
}

/// What a cleanup action did.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailCleanupDone {
    /// Messages archived (`archive_all`).
    pub archived: u32,
    /// How the unsubscribe went out (`unsubscribe`).
    pub method: Option<String>,
    /// For `link`: the page the person must open to finish.
    pub open_url: Option<String>,
}

fn shown_unsubscribe(u: &mailclient::Unsubscribe) -> MailUnsubscribe {
    match u {
        mailclient::Unsubscribe::OneClick { url } => MailUnsubscribe {
            method: "oneClick".to_owned(),
            url: Some(url.clone()),
            to: None,
        },
        mailclient::Unsubscribe::Mailto { to, .. } => MailUnsubscribe {
            method: "mailto".to_owned(),
            url: None,
            to: Some(to.clone()),
        },
        mailclient::Unsubscribe::Link { url } => MailUnsubscribe {
            method: "link".to_owned(),
            url: Some(url.clone()),
            to: None,
        },
    }
}

impl App {
    /// The inbox's senders by volume, kept ones left out.
    pub async fn mail_cleanup(
        &self,
        owner: &str,
        account: &str,
    ) -> Result<MailCleanup, MailClientError> {
        let groups = self.cleanup_groups(owner, account).await?;
        Ok(MailCleanup {
            senders: groups
                .iter()
                .map(|g| MailCleanupSender {
                    address: g.address.clone(),
                    name: g.name.clone(),
                    domain: g.domain.clone(),
                    count: u32::try_from(g.count).unwrap_or(u32::MAX),
                    unread: u32::try_from(g.unread).unwrap_or(u32::MAX),
                    last_date: g.last_date.and_then(crate::mail_reads::rfc3339),
                    list_id: g.list_id.clone(),
                    unsubscribe: g.unsubscribe.as_ref().map(shown_unsubscribe),
                })
                .collect(),
        })
    }

    async fn cleanup_groups(
        &self,
        owner: &str,
        account: &str,
    ) -> Result<Vec<mailclient::SenderGroup>, MailClientError> {
        self.mail_reach(owner, account).await?;
        let (app, account) = (self.clone(), account.to_owned());
        off_thread(move || {
            let Some(inbox) = app
                .mail
                .store
                .folder_with_role(&account, mailclient::Role::Inbox)?
            else {
                return Ok(Vec::new());
            };
            let headers: Vec<mailclient::SenderHeaders> = app
                .mail
                .store
                .header_fields(&account, &inbox)?
                .iter()
                .map(|(_, fields, unread)| mailclient::sender_headers(fields, *unread))
                .collect();
            let kept: Vec<String> = app.db.read(|tx| {
                let mut stmt = tx.prepare_cached(
                    "SELECT address FROM mailclient_cleanup_kept WHERE account = ?1",
                )?;
                let rows = stmt.query_map(params![account], |r| r.get(0))?;
                rows.collect::<Result<Vec<_>, _>>()
                    .map_err(MailClientError::from)
            })?;
            Ok(mailclient::cleanup(&headers)
                .senders
                .into_iter()
                .filter(|g| !kept.contains(&g.address))
                .collect())
        })
        .await
    }

    /// Applies a cleanup action to `sender`'s mail in account `account`.
    pub async fn mail_cleanup_act(
        &self,
        owner: &str,
        account: &str,
        sender: &str,
        action: MailCleanupAction,
    ) -> Result<MailCleanupDone, MailClientError> {
        let sender = crate::mail_arrivals::bare_address(sender);
        let mut done = MailCleanupDone {
            archived: 0,
            method: None,
            open_url: None,
        };
        match action {
            MailCleanupAction::Keep => {
                let (db, account) = (self.db.clone(), account.to_owned());
                off_thread(move || {
                    db.write(|tx| {
                        tx.execute(
                            "INSERT OR IGNORE INTO mailclient_cleanup_kept (account, address) VALUES (?1, ?2)",
                            params![account, sender],
                        )
                        .map_err(MailClientError::from)
                    })?;
                    Ok(())
                })
                .await?;
            }
            MailCleanupAction::ArchiveAll => {
                let reach = self.mail_reach(owner, account).await?;
                let threads = {
                    let (app, account, sender) = (self.clone(), account.to_owned(), sender.clone());
                    off_thread(move || {
                        let store = &app.mail.store;
                        let Some(inbox) =
                            store.folder_with_role(&account, mailclient::Role::Inbox)?
                        else {
                            return Ok((String::new(), Vec::new()));
                        };
                        let mut threads: Vec<String> = Vec::new();
                        for uid in store.uids(&account, &inbox)? {
                            if let Some(m) = store.message(&account, &inbox, uid)?
                                && crate::mail_arrivals::bare_address(&m.header.from) == sender
                                && let Some(thread) = m.thread_id
                                && !threads.contains(&thread)
                            {
                                threads.push(thread);
                            }
                        }
                        Ok((inbox, threads))
                    })
                    .await?
                };
                let (inbox, threads) = threads;
                for thread in threads {
                    let moved = self
                        .mail
                        .syncer
                        .apply(
                            account,
                            &reach.login(),
                            &inbox,
                            &thread,
                            &mailclient::Action::Archive,
                        )
                        .await?;
                    done.archived += u32::try_from(moved).unwrap_or(u32::MAX);
                }
            }
            MailCleanupAction::Unsubscribe => {
                let group = self
                    .cleanup_groups(owner, account)
                    .await?
                    .into_iter()
                    .find(|g| g.address == sender)
                    .ok_or_else(|| {
                        MailClientError::invalid("sender", "has no mail in the inbox")
                    })?;
                let method = group.unsubscribe.ok_or_else(|| {
                    MailClientError::invalid("sender", "offers no way to unsubscribe")
                })?;
                done.method = Some(shown_unsubscribe(&method).method);
                match method {
                    mailclient::Unsubscribe::OneClick { url } => {
                        tokio::task::spawn_blocking(move || {
                            mailclient::one_click_unsubscribe(
                                &url,
                                &mailclient::OneClickOptions::default(),
                            )
                        })
                        .await?
                        .map_err(|e| MailClientError::Unreachable(e.to_string()))?;
                    }
                    mailclient::Unsubscribe::Mailto { to, subject, body } => {
                        self.mail_send(
                            owner,
                            crate::mail_send::Outgoing {
                                account: account.to_owned(),
                                to: vec![to],
                                cc: Vec::new(),
                                bcc: Vec::new(),
                                subject,
                                markdown: body,
                                in_reply_to: None,
                                attachments: Vec::new(),
                            },
                        )
                        .await?;
                    }
                    mailclient::Unsubscribe::Link { url } => done.open_url = Some(url),
                }
            }
        }
        Ok(done)
    }
}

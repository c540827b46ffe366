//! Incremental sync of one account into the store: LIST with SPECIAL-USE
//! roles, then per folder the flags of what is stored (CONDSTORE's
//! CHANGEDSINCE where offered, else a re-read in UID windows), expunges,
//! then the new messages' header fields and previews in windows of at most
//! [`WINDOW`] messages, each window stored in one transaction with the
//! folder's highest UID. A sync cut off anywhere resumes above the last
//! stored window; a new UIDVALIDITY drops the folder's stored messages and
//! fetches them again. Threads are rebuilt when messages came or went, with
//! the server's THREAD=REFERENCES groups where it offers them.
//!
//! Commands only ever name a UID range (`a:b`), so their length does not
//! grow with the folder: a 100,000-message folder never sends a command
//! line the server refuses.

use std::collections::HashSet;
use std::sync::Arc;

use async_imap::imap_proto::NameAttribute;
use async_imap::types::{Fetch, Flag, Mailbox};
use futures_util::TryStreamExt;

use crate::headers::{self, FIELDS, Header, PREVIEW_BYTES};
use crate::imap::{ImapSession, Login, Pool, limit};
use crate::server_thread::thread_references;
use crate::store::MailStore;
use crate::{ClientError, Role};

/// How many messages one FETCH covers.
pub const WINDOW: u32 = 500;

/// What one sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncReport {
    pub folders: usize,
    /// New messages stored.
    pub fetched: usize,
    /// The UIDs of the new messages in the Inbox (for inbox cards).
    pub new_in_inbox: Vec<u32>,
    /// Stored messages whose flags were read again.
    pub flags_read: usize,
    /// Of those, how many had changed.
    pub flags_changed: usize,
    /// Stored messages the server no longer has.
    pub dropped: usize,
    /// Folders dropped and fetched again for a new UIDVALIDITY.
    pub renumbered: Vec<String>,
    /// How many FETCH commands went out.
    pub fetch_commands: usize,
}

/// Syncs accounts and acts on their mail. One per process: it holds at
/// most one command connection per account.
pub struct Syncer {
    pub(crate) store: Arc<MailStore>,
    window: u32,
    pub(crate) pool: Pool,
}

pub(crate) struct Capabilities {
    condstore: bool,
    thread: bool,
    pub(crate) r#move: bool,
    pub(crate) uidplus: bool,
    special_use: bool,
}

pub(crate) async fn capabilities(
    session: &mut ImapSession,
    label: &str,
) -> Result<Capabilities, ClientError> {
    let capabilities = limit(session.capabilities(), label).await??;
    Ok(Capabilities {
        condstore: capabilities.has_str("CONDSTORE"),
        thread: capabilities.has_str("THREAD=REFERENCES"),
        r#move: capabilities.has_str("MOVE"),
        uidplus: capabilities.has_str("UIDPLUS"),
        special_use: capabilities.has_str("SPECIAL-USE"),
    })
}

impl Syncer {
    pub fn new(store: Arc<MailStore>) -> Self {
        Self {
            store,
            window: WINDOW,
            pool: Pool::default(),
        }
    }

    pub fn store(&self) -> &Arc<MailStore> {
        &self.store
    }

    /// Fetches `window` messages per command instead of [`WINDOW`] (at
    /// least 1).
    pub fn with_window(mut self, window: u32) -> Self {
        self.window = window.max(1);
        self
    }

    /// Brings the store of `account` up to date with its server: every
    /// folder.
    pub async fn sync(&self, account: &str, login: &Login) -> Result<SyncReport, ClientError> {
        let mut conn = self.pool.checkout(account, login).await?;
        let label = conn.label.clone();
        let outcome = self
            .sync_session(account, conn.session(), &label, None)
            .await;
        conn.keep(outcome)
    }

    /// Brings one folder up to date (the Inbox after IDLE said it changed).
    pub async fn sync_folder(
        &self,
        account: &str,
        login: &Login,
        folder: &str,
    ) -> Result<SyncReport, ClientError> {
        let mut conn = self.pool.checkout(account, login).await?;
        let label = conn.label.clone();
        let outcome = self
            .sync_session(account, conn.session(), &label, Some(folder))
            .await;
        conn.keep(outcome)
    }

    pub(crate) async fn sync_session(
        &self,
        account: &str,
        session: &mut ImapSession,
        label: &str,
        only: Option<&str>,
    ) -> Result<SyncReport, ClientError> {
        let features = capabilities(session, label).await?;
        let known = match only {
            Some(name) => self.store.folder(account, name)?.is_some(),
            None => false,
        };
        let folders: Vec<String> = match only {
            Some(name) if known => vec![name.to_owned()],
            _ => self.list(account, session, label, &features).await?,
        };
        let mut report = SyncReport {
            folders: folders.len(),
            ..SyncReport::default()
        };
        let mut grown = Vec::new();
        for folder in &folders {
            let before = report.fetched + report.dropped;
            self.sync_one(account, folder, session, label, &features, &mut report)
                .await?;
            if report.fetched + report.dropped > before {
                grown.push(folder);
            }
        }
        if !grown.is_empty() || !report.renumbered.is_empty() {
            if features.thread {
                for folder in grown {
                    limit(session.examine(folder), label).await??;
                    let groups = thread_references(session, label).await?;
                    let keys: Vec<(u32, String)> = groups
                        .iter()
                        .filter(|group| group.len() > 1)
                        .flat_map(|group| {
                            let key = format!("{folder}\n{}", group[0]);
                            group.iter().map(move |uid| (*uid, key.clone()))
                        })
                        .collect();
                    self.store.save_server_threads(account, folder, &keys)?;
                }
            }
            self.store.rethread(account)?;
        }
        Ok(report)
    }

    async fn list(
        &self,
        account: &str,
        session: &mut ImapSession,
        label: &str,
        features: &Capabilities,
    ) -> Result<Vec<String>, ClientError> {
        let listed = limit(
            async {
                session
                    .list(Some(""), Some("*"))
                    .await?
                    .try_collect::<Vec<_>>()
                    .await
            },
            label,
        )
        .await??;
        let folders: Vec<(String, Option<Role>)> = listed
            .iter()
            .filter(|name| {
                !name.attributes().iter().any(|a| {
                    matches!(a, NameAttribute::NoSelect)
                        || matches!(a, NameAttribute::Extension(e) if e.eq_ignore_ascii_case("\\NonExistent"))
                })
            })
            .map(|name| {
                let role = Role::of(name.name(), name.attributes(), !features.special_use);
                (name.name().to_owned(), role)
            })
            .collect();
        self.store.save_folders(account, &folders)?;
        Ok(folders.into_iter().map(|(name, _)| name).collect())
    }

    async fn sync_one(
        &self,
        account: &str,
        folder: &str,
        session: &mut ImapSession,
        label: &str,
        features: &Capabilities,
        report: &mut SyncReport,
    ) -> Result<(), ClientError> {
        let selected: Mailbox = if features.condstore {
            limit(session.select_condstore(folder), label).await??
        } else {
            limit(session.select(folder), label).await??
        };
        let uid_validity = selected.uid_validity.ok_or_else(|| ClientError::Protocol {
            server: label.to_owned(),
            detail: format!("SELECT {folder} gave no UIDVALIDITY"),
        })?;
        let Some(mut stored) = self.store.folder(account, folder)? else {
            return Ok(());
        };
        if stored.uid_validity != Some(uid_validity) {
            if stored.uid_validity.is_some() {
                report.renumbered.push(folder.to_owned());
            }
            self.store.reset_folder(account, folder, uid_validity)?;
            stored.highest_uid = 0;
            stored.highest_modseq = None;
        }
        let known = stored.highest_uid;
        // Mail an action moved here is stored already, under the UID the
        // server gave it, possibly above `known`: not new, but its flags and
        // its expunge are checked like the rest.
        let moved_in: HashSet<u32> = self.store.uids_above(account, folder, known)?;
        let top = moved_in.iter().copied().fold(known, u32::max);
        let mut expunges_checked = false;
        if top > 0 {
            match (features.condstore, stored.highest_modseq) {
                (true, Some(modseq)) => {
                    let query = format!("(UID FLAGS) (CHANGEDSINCE {modseq})");
                    let changed = self
                        .fetch(session, label, &format!("1:{top}"), &query, report)
                        .await?;
                    let flags: Vec<(u32, Vec<String>)> = changed
                        .iter()
                        .filter_map(|f| Some((f.uid?, flag_names(f))))
                        .filter(|(uid, _)| *uid <= known || moved_in.contains(uid))
                        .collect();
                    report.flags_read += flags.len();
                    report.flags_changed += self.store.save_flags(account, folder, &flags)?.len();
                }
                _ => {
                    for (from, to) in windows(1, top, self.window) {
                        let fetched = self
                            .fetch(
                                session,
                                label,
                                &format!("{from}:{to}"),
                                "(UID FLAGS)",
                                report,
                            )
                            .await?;
                        let flags: Vec<(u32, Vec<String>)> = fetched
                            .iter()
                            .filter_map(|f| Some((f.uid?, flag_names(f))))
                            .filter(|(uid, _)| (from..=to).contains(uid))
                            .collect();
                        report.flags_read += flags.len();
                        let present: HashSet<u32> = flags.iter().map(|(uid, _)| *uid).collect();
                        report.flags_changed +=
                            self.store.save_flags(account, folder, &flags)?.len();
                        report.dropped += self
                            .store
                            .drop_missing(account, folder, from, to, &present)?;
                    }
                    expunges_checked = true;
                }
            }
        }
        // Only the UIDs that exist: a folder whose UIDs have gaps costs no
        // empty windows.
        let found = limit(session.uid_search(format!("UID {}:*", known + 1)), label).await??;
        let mut new: Vec<u32> = found
            .into_iter()
            .filter(|uid| *uid > known && !moved_in.contains(uid))
            .collect();
        new.sort_unstable();
        if top > 0 && !expunges_checked {
            let stored_count = self.store.count(account, folder)?;
            if stored_count + new.len() != selected.exists as usize {
                // CHANGEDSINCE does not report expunges: compare the UIDs.
                let present = limit(session.uid_search(format!("UID 1:{top}")), label).await??;
                report.dropped += self.store.drop_missing(account, folder, 1, top, &present)?;
            }
        }
        let query = header_query();
        let inbox = stored.role == Some(Role::Inbox);
        for chunk in new.chunks(self.window as usize) {
            let (Some(&from), Some(&to)) = (chunk.first(), chunk.last()) else {
                continue;
            };
            let fetched = self
                .fetch(session, label, &format!("{from}:{to}"), &query, report)
                .await?;
            let mut headers = read_headers(&fetched, from, to);
            headers.retain(|h| chunk.binary_search(&h.uid).is_ok());
            report.fetched += headers.len();
            if inbox {
                report.new_in_inbox.extend(headers.iter().map(|h| h.uid));
            }
            self.store.save_window(account, folder, &headers, to)?;
        }
        let uid_next = selected
            .uid_next
            .or_else(|| new.last().map(|last| last.saturating_add(1)));
        self.store.finish_folder(
            account,
            folder,
            uid_next,
            if features.condstore {
                selected.highest_modseq
            } else {
                None
            },
        )?;
        Ok(())
    }

    pub(crate) async fn fetch(
        &self,
        session: &mut ImapSession,
        label: &str,
        uids: &str,
        query: &str,
        report: &mut SyncReport,
    ) -> Result<Vec<Fetch>, ClientError> {
        report.fetch_commands += 1;
        fetch(session, label, uids, query).await
    }
}

/// The query that fetches what the store keeps of a new message.
pub(crate) fn header_query() -> String {
    format!(
        "(UID FLAGS RFC822.SIZE INTERNALDATE BODY.PEEK[HEADER.FIELDS ({FIELDS})] BODY.PEEK[TEXT]<0.{PREVIEW_BYTES}>)"
    )
}

pub(crate) async fn fetch(
    session: &mut ImapSession,
    label: &str,
    uids: &str,
    query: &str,
) -> Result<Vec<Fetch>, ClientError> {
    let fetched = limit(
        async {
            session
                .uid_fetch(uids, query)
                .await?
                .try_collect::<Vec<_>>()
                .await
        },
        label,
    )
    .await??;
    Ok(fetched)
}

/// The rows of fetched messages with a UID in `from..=to`.
pub(crate) fn read_headers(fetched: &[Fetch], from: u32, to: u32) -> Vec<Header> {
    fetched
        .iter()
        .filter_map(|f| {
            let uid = f.uid.filter(|uid| (from..=to).contains(uid))?;
            Some(headers::read(
                uid,
                flag_names(f),
                f.size.unwrap_or(0),
                f.internal_date().map(|d| d.timestamp()),
                f.header().unwrap_or_default(),
                f.text().unwrap_or_default(),
            ))
        })
        .collect()
}

/// `first..=last` cut into ranges of at most `size` UIDs.
pub fn windows(first: u32, last: u32, size: u32) -> Vec<(u32, u32)> {
    let mut ranges = Vec::new();
    let mut from = first;
    while from <= last && from > 0 {
        let to = from.saturating_add(size.max(1) - 1).min(last);
        ranges.push((from, to));
        match to.checked_add(1) {
            Some(next) => from = next,
            None => break,
        }
    }
    ranges
}

pub(crate) fn flag_names(fetch: &Fetch) -> Vec<String> {
    fetch
        .flags()
        .filter_map(|flag| match flag {
            Flag::Seen => Some("\\Seen".to_owned()),
            Flag::Answered => Some("\\Answered".to_owned()),
            Flag::Flagged => Some("\\Flagged".to_owned()),
            Flag::Deleted => Some("\\Deleted".to_owned()),
            Flag::Draft => Some("\\Draft".to_owned()),
            // \Recent belongs to one session, not to the message.
            Flag::Recent | Flag::MayCreate => None,
            Flag::Custom(name) => Some(name.into_owned()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::windows;

    #[test]
    fn windows_cover_the_range_exactly() {
        assert_eq!(windows(1, 1000, 500), [(1, 500), (501, 1000)]);
        assert_eq!(windows(501, 1001, 500), [(501, 1000), (1001, 1001)]);
        assert!(windows(10, 9, 500).is_empty());
        assert_eq!(
            windows(u32::MAX - 1, u32::MAX, 500),
            [(u32::MAX - 1, u32::MAX)]
        );
    }
}

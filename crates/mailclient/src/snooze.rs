//! Snooze, which IMAP has not: the thread's messages move to the
//! "Snoozed" folder (created when missing, and synced like any other so
//! what is in it shows), and each gets a row with its wake time, the folder
//! it came from and its Message-ID. [`Syncer::wake_due`], called with the
//! clock's time, moves due mail back to the folder it came from (not
//! always the Inbox), unread and on top of the list (its activity is the
//! time it woke); one missed while the app was down wakes on the next
//! look, once. A row whose message is gone from the Snoozed folder is
//! dropped instead of lingering.

use std::collections::{BTreeMap, HashSet};

use store::rusqlite::params;

use crate::actions::{move_uids, quote, uid_set};
use crate::imap::{ImapSession, Login, limit, run};
use crate::role::SNOOZED;
use crate::store::MailStore;
use crate::sync::{Syncer, capabilities};
use crate::{ClientError, Role};

/// One snoozed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snoozed {
    /// Its UID in the Snoozed folder.
    pub uid: u32,
    pub message_id: Option<String>,
    pub source: String,
    pub wake_at: i64,
}

impl MailStore {
    /// The account's snoozed messages, soonest first.
    pub fn snoozed(&self, account: &str) -> Result<Vec<Snoozed>, ClientError> {
        let rows = self.db.read(|tx| {
            let mut statement = tx.prepare(
                "SELECT uid, message_id, source, wake_at FROM mailclient_snoozes
                 WHERE account = ?1 ORDER BY wake_at, uid",
            )?;
            let rows = statement.query_map(params![account], |row| {
                Ok(Snoozed {
                    uid: row.get(0)?,
                    message_id: row.get(1)?,
                    source: row.get(2)?,
                    wake_at: row.get(3)?,
                })
            })?;
            rows.collect::<Result<Vec<_>, store::rusqlite::Error>>()
        })?;
        Ok(rows)
    }

    fn save_snoozes(&self, account: &str, rows: &[Snoozed]) -> Result<(), ClientError> {
        self.db.write(|tx| {
            for row in rows {
                tx.execute(
                    "INSERT OR REPLACE INTO mailclient_snoozes (account, uid, message_id, source, wake_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![account, row.uid, row.message_id, row.source, row.wake_at],
                )?;
            }
            Ok(())
        })
    }

    fn drop_snoozes(&self, account: &str, uids: &[u32]) -> Result<(), ClientError> {
        self.db.write(|tx| {
            for uid in uids {
                tx.execute(
                    "DELETE FROM mailclient_snoozes WHERE account = ?1 AND uid = ?2",
                    params![account, uid],
                )?;
            }
            Ok(())
        })
    }
}

impl Syncer {
    /// Moves the thread's messages in `folder` to the Snoozed folder until
    /// `until`.
    pub(crate) async fn snooze(
        &self,
        account: &str,
        login: &Login,
        folder: &str,
        thread_id: &str,
        until: i64,
    ) -> Result<usize, ClientError> {
        if folder == SNOOZED {
            return Err(ClientError::BadAction(
                "the thread is snoozed already".to_owned(),
            ));
        }
        let messages: Vec<(u32, Option<String>)> = self
            .store
            .thread(account, thread_id)?
            .into_iter()
            .filter(|m| m.folder == folder)
            .map(|m| (m.header.uid, m.header.message_id))
            .collect();
        if messages.is_empty() {
            return Err(ClientError::NoSuchThread(thread_id.to_owned()));
        }
        let uids: Vec<u32> = messages.iter().map(|(uid, _)| *uid).collect();
        let mut conn = self.pool.checkout(account, login).await?;
        let label = conn.label.clone();
        let outcome = async {
            let session = conn.session();
            self.ensure_snoozed_folder(account, session, &label).await?;
            limit(session.select(folder), &label).await??;
            let features = capabilities(session, &label).await?;
            let pairs = self
                .move_and_record(
                    account, session, &label, &features, folder, SNOOZED, &uids, None,
                )
                .await?;
            let rows: Vec<Snoozed> = if pairs.len() == uids.len() {
                pairs
                    .iter()
                    .map(|(old, new)| Snoozed {
                        uid: *new,
                        message_id: messages
                            .iter()
                            .find(|(u, _)| u == old)
                            .and_then(|(_, id)| id.clone()),
                        source: folder.to_owned(),
                        wake_at: until,
                    })
                    .collect()
            } else {
                // Without COPYUID the moved mail is found again by Message-ID.
                let ids: HashSet<&str> = messages
                    .iter()
                    .filter_map(|(_, id)| id.as_deref())
                    .collect();
                self.store
                    .uids(account, SNOOZED)?
                    .into_iter()
                    .filter_map(|uid| self.store.message(account, SNOOZED, uid).ok().flatten())
                    .filter(|m| {
                        m.header
                            .message_id
                            .as_deref()
                            .is_some_and(|id| ids.contains(id))
                    })
                    .map(|m| Snoozed {
                        uid: m.header.uid,
                        message_id: m.header.message_id,
                        source: folder.to_owned(),
                        wake_at: until,
                    })
                    .collect()
            };
            self.store.save_snoozes(account, &rows)?;
            Ok(uids.len())
        }
        .await;
        conn.keep(outcome)
    }

    async fn ensure_snoozed_folder(
        &self,
        account: &str,
        session: &mut ImapSession,
        label: &str,
    ) -> Result<(), ClientError> {
        if self.store.folder(account, SNOOZED)?.is_some() {
            return Ok(());
        }
        run(
            session,
            &format!("CREATE {}", quote(SNOOZED)),
            label,
            |_| {},
        )
        .await?;
        let mut listed = self.store.folders(account)?;
        let mut folders: Vec<(String, Option<Role>)> =
            listed.drain(..).map(|f| (f.name, f.role)).collect();
        folders.push((SNOOZED.to_owned(), Some(Role::Snoozed)));
        self.store.save_folders(account, &folders)?;
        let selected = limit(session.examine(SNOOZED), label).await??;
        if let Some(validity) = selected.uid_validity {
            self.store.reset_folder(account, SNOOZED, validity)?;
        }
        Ok(())
    }

    /// Wakes the snoozed mail of `account` due at `now` (the app's clock):
    /// back to the folder each came from, unread, on top. Returns how many
    /// woke. Rows whose mail is gone are dropped.
    pub async fn wake_due(
        &self,
        account: &str,
        login: &Login,
        now: i64,
    ) -> Result<usize, ClientError> {
        let due: Vec<Snoozed> = self
            .store
            .snoozed(account)?
            .into_iter()
            .filter(|row| row.wake_at <= now)
            .collect();
        if due.is_empty() {
            return Ok(0);
        }
        let mut conn = self.pool.checkout(account, login).await?;
        let label = conn.label.clone();
        let outcome = async {
            let session = conn.session();
            let features = capabilities(session, &label).await?;
            limit(session.select(SNOOZED), &label).await??;
            let uids: Vec<u32> = due.iter().map(|row| row.uid).collect();
            let present = limit(
                session.uid_search(format!("UID {}", uid_set(&uids))),
                &label,
            )
            .await??;
            let (here, gone): (Vec<&Snoozed>, Vec<&Snoozed>) =
                due.iter().partition(|row| present.contains(&row.uid));
            self.store
                .drop_snoozes(account, &gone.iter().map(|row| row.uid).collect::<Vec<_>>())?;
            let inbox = self.role_folder(account, Role::Inbox)?;
            let mut by_source: BTreeMap<String, Vec<u32>> = BTreeMap::new();
            for row in here {
                let source = match self.store.folder(account, &row.source)? {
                    Some(folder) => folder.name,
                    None => inbox.clone(),
                };
                by_source.entry(source).or_default().push(row.uid);
            }
            let mut woken = 0;
            for (source, uids) in by_source {
                run(
                    session,
                    &format!("UID STORE {} -FLAGS.SILENT (\\Seen)", uid_set(&uids)),
                    &label,
                    |_| {},
                )
                .await?;
                self.store
                    .set_flag(account, SNOOZED, &uids, "\\Seen", false)?;
                let pairs = move_uids(session, &label, &features, &source, &uids).await?;
                if pairs.len() == uids.len() {
                    self.store
                        .relocate(account, SNOOZED, &source, &pairs, Some(now))?;
                } else {
                    self.store.remove(account, SNOOZED, &uids)?;
                    self.sync_session(account, session, &label, Some(&source))
                        .await?;
                }
                // Dropped as soon as the move is done: a wake happens once.
                self.store.drop_snoozes(account, &uids)?;
                woken += uids.len();
                limit(session.select(SNOOZED), &label).await??;
            }
            Ok(woken)
        }
        .await;
        conn.keep(outcome)
    }
}

//! The local store of each account's folders and messages: what sync
//! writes, what actions change, the thread each message belongs to and the
//! thread list rows kept in step with all of it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use store::Db;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::headers::Header;
use crate::summary::{refresh_all, refresh_threads};
use crate::thread::{ThreadInput, thread};
use crate::{ClientError, Role};

/// Where sync got to in one folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    pub name: String,
    pub role: Option<Role>,
    pub uid_validity: Option<u32>,
    pub highest_uid: u32,
    /// UIDNEXT when the last sync of the folder completed.
    pub uid_next: Option<u32>,
    pub highest_modseq: Option<u64>,
}

impl Folder {
    /// Whether every message the server had at the last sync is stored.
    pub fn complete(&self) -> bool {
        self.uid_next
            .is_some_and(|next| self.highest_uid.saturating_add(1) >= next)
    }
}

/// A stored message with where it lives and its thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub folder: String,
    pub thread_id: Option<String>,
    pub header: Header,
    /// The text body, once fetched.
    pub body: Option<String>,
}

/// How many search hits [`MailStore::search`] returns at most.
pub const MAX_HITS: usize = 200;
pub(crate) const LIST_SEPARATOR: &str = "\n";
pub(crate) const MESSAGE_COLUMNS: &str = "folder, thread_id, uid, message_id, in_reply_to, refs, subject, \
     sender, recipients, cc, date, flags, size, preview, header_fields, body";

pub struct MailStore {
    pub(crate) db: Arc<Db>,
}

impl MailStore {
    /// `db` must have [`crate::MIGRATIONS`] applied.
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    pub fn folders(&self, account: &str) -> Result<Vec<Folder>, ClientError> {
        let folders = self.db.read(|tx| {
            let mut statement = tx.prepare(
                "SELECT name, role, uid_validity, highest_uid, uid_next, highest_modseq
                 FROM mailclient_folders WHERE account = ?1 ORDER BY name",
            )?;
            let rows = statement.query_map(params![account], folder_from_row)?;
            rows.collect::<Result<Vec<_>, _>>()
        })?;
        Ok(folders)
    }

    pub fn folder(&self, account: &str, name: &str) -> Result<Option<Folder>, ClientError> {
        let folder = self.db.read(|tx| {
            tx.query_row(
                "SELECT name, role, uid_validity, highest_uid, uid_next, highest_modseq
                 FROM mailclient_folders WHERE account = ?1 AND name = ?2",
                params![account, name],
                folder_from_row,
            )
            .optional()
        })?;
        Ok(folder)
    }

    /// The name of the folder with `role`, if the account has one.
    pub fn folder_with_role(
        &self,
        account: &str,
        role: Role,
    ) -> Result<Option<String>, ClientError> {
        Ok(self
            .folders(account)?
            .into_iter()
            .find(|f| f.role == Some(role))
            .map(|f| f.name))
    }

    /// Makes the stored folder list the server's: new folders added, roles
    /// updated, folders gone from the server dropped with their messages.
    pub fn save_folders(
        &self,
        account: &str,
        listed: &[(String, Option<Role>)],
    ) -> Result<(), ClientError> {
        self.db.write(|tx| {
            for (name, role) in listed {
                tx.execute(
                    "INSERT INTO mailclient_folders (account, name, role) VALUES (?1, ?2, ?3)
                     ON CONFLICT (account, name) DO UPDATE SET role = excluded.role",
                    params![account, name, role.map(Role::as_str)],
                )?;
            }
            let names: HashSet<&str> = listed.iter().map(|(name, _)| name.as_str()).collect();
            let stored: Vec<String> = {
                let mut statement =
                    tx.prepare("SELECT name FROM mailclient_folders WHERE account = ?1")?;
                let rows = statement.query_map(params![account], |row| row.get(0))?;
                rows.collect::<Result<_, _>>()?
            };
            for gone in stored.iter().filter(|name| !names.contains(name.as_str())) {
                tx.execute(
                    "DELETE FROM mailclient_threads WHERE account = ?1 AND folder = ?2",
                    params![account, gone],
                )?;
                tx.execute(
                    "DELETE FROM mailclient_folders WHERE account = ?1 AND name = ?2",
                    params![account, gone],
                )?;
            }
            Ok(())
        })
    }

    /// The server renumbered the folder (a new UIDVALIDITY): what was stored
    /// of it is dropped, to be fetched again.
    pub fn reset_folder(
        &self,
        account: &str,
        folder: &str,
        uid_validity: u32,
    ) -> Result<(), ClientError> {
        self.db.write(|tx| {
            tx.execute(
                "DELETE FROM mailclient_messages WHERE account = ?1 AND folder = ?2",
                params![account, folder],
            )?;
            tx.execute(
                "DELETE FROM mailclient_threads WHERE account = ?1 AND folder = ?2",
                params![account, folder],
            )?;
            tx.execute(
                "UPDATE mailclient_folders SET uid_validity = ?3, highest_uid = 0, uid_next = NULL,
                 highest_modseq = NULL WHERE account = ?1 AND name = ?2",
                params![account, folder, uid_validity],
            )?;
            Ok(())
        })
    }

    /// Stores one window of new messages and moves the folder's highest UID
    /// to `through`, in one transaction: a sync cut off later resumes above
    /// it, and a message fetched twice is stored once. `through` 0 stores
    /// messages found out of order (by a server search) without moving it.
    pub fn save_window(
        &self,
        account: &str,
        folder: &str,
        headers: &[Header],
        through: u32,
    ) -> Result<(), ClientError> {
        self.db.write(|tx| {
            let mut statement = tx.prepare_cached(
                "INSERT INTO mailclient_messages (account, folder, uid, message_id, in_reply_to,
                   refs, subject, sender, recipients, cc, date, activity, flags, size, preview,
                   header_fields)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
                 ON CONFLICT (account, folder, uid) DO UPDATE SET flags = excluded.flags",
            )?;
            for header in headers {
                statement.execute(params![
                    account,
                    folder,
                    header.uid,
                    header.message_id,
                    header.in_reply_to,
                    header.references.join(" "),
                    header.subject,
                    header.from,
                    header.to.join(LIST_SEPARATOR),
                    header.cc.join(LIST_SEPARATOR),
                    header.date,
                    header.activity(),
                    header.flags.join(" "),
                    header.size,
                    header.preview,
                    header.fields,
                ])?;
            }
            tx.execute(
                "UPDATE mailclient_folders SET highest_uid = max(highest_uid, ?3)
                 WHERE account = ?1 AND name = ?2",
                params![account, folder, through],
            )?;
            Ok(())
        })
    }

    /// Replaces the flags of the given messages; returns the UIDs whose
    /// flags changed (their threads' rows are brought up to date).
    pub fn save_flags(
        &self,
        account: &str,
        folder: &str,
        flags: &[(u32, Vec<String>)],
    ) -> Result<Vec<u32>, ClientError> {
        self.db.write(|tx| {
            let mut changed = Vec::new();
            {
                let mut statement = tx.prepare_cached(
                    "UPDATE mailclient_messages SET flags = ?4
                     WHERE account = ?1 AND folder = ?2 AND uid = ?3 AND flags != ?4",
                )?;
                for (uid, flags) in flags {
                    if statement.execute(params![account, folder, uid, flags.join(" ")])? > 0 {
                        changed.push(*uid);
                    }
                }
            }
            let threads = threads_of(tx, account, folder, &changed)?;
            refresh_threads(tx, account, &threads)?;
            Ok(changed)
        })
    }

    /// Adds (`on`) or removes one flag of the given stored messages.
    pub fn set_flag(
        &self,
        account: &str,
        folder: &str,
        uids: &[u32],
        flag: &str,
        on: bool,
    ) -> Result<(), ClientError> {
        self.db.write(|tx| {
            for uid in uids {
                let flags: Option<String> = tx
                    .query_row(
                        "SELECT flags FROM mailclient_messages
                         WHERE account = ?1 AND folder = ?2 AND uid = ?3",
                        params![account, folder, uid],
                        |row| row.get(0),
                    )
                    .optional()?;
                let Some(flags) = flags else { continue };
                let mut list: Vec<&str> = flags
                    .split_whitespace()
                    .filter(|f| !f.eq_ignore_ascii_case(flag))
                    .collect();
                if on {
                    list.push(flag);
                }
                tx.execute(
                    "UPDATE mailclient_messages SET flags = ?4
                     WHERE account = ?1 AND folder = ?2 AND uid = ?3",
                    params![account, folder, uid, list.join(" ")],
                )?;
            }
            let threads = threads_of(tx, account, folder, uids)?;
            refresh_threads(tx, account, &threads)?;
            Ok(())
        })
    }

    /// Drops the stored messages of `folder` with a UID in `from..=to` that
    /// are not in `present` (the server expunged them).
    pub fn drop_missing(
        &self,
        account: &str,
        folder: &str,
        from: u32,
        to: u32,
        present: &HashSet<u32>,
    ) -> Result<usize, ClientError> {
        let stored: Vec<u32> = self.db.read(|tx| {
            let mut statement = tx.prepare(
                "SELECT uid FROM mailclient_messages
                 WHERE account = ?1 AND folder = ?2 AND uid BETWEEN ?3 AND ?4",
            )?;
            let rows = statement.query_map(params![account, folder, from, to], |row| row.get(0))?;
            rows.collect::<Result<_, store::rusqlite::Error>>()
        })?;
        let gone: Vec<u32> = stored
            .into_iter()
            .filter(|uid| !present.contains(uid))
            .collect();
        self.remove(account, folder, &gone)
    }

    /// Forgets the given messages of `folder` (expunged, or moved where the
    /// server did not say their new UIDs).
    pub fn remove(&self, account: &str, folder: &str, uids: &[u32]) -> Result<usize, ClientError> {
        if uids.is_empty() {
            return Ok(0);
        }
        self.db.write(|tx| {
            let threads = threads_of(tx, account, folder, uids)?;
            let mut removed = 0;
            for uid in uids {
                removed += tx.execute(
                    "DELETE FROM mailclient_messages WHERE account = ?1 AND folder = ?2 AND uid = ?3",
                    params![account, folder, uid],
                )?;
            }
            refresh_threads(tx, account, &threads)?;
            Ok(removed)
        })
    }

    /// Moves stored messages to `to` under the UIDs the server gave them
    /// (COPYUID), keeping their thread, body and index entry. `activity`
    /// replaces their sort time (a woken snooze).
    pub fn relocate(
        &self,
        account: &str,
        from: &str,
        to: &str,
        uids: &[(u32, u32)],
        activity: Option<i64>,
    ) -> Result<(), ClientError> {
        self.db.write(|tx| {
            let old: Vec<u32> = uids.iter().map(|(old, _)| *old).collect();
            let mut threads = threads_of(tx, account, from, &old)?;
            for (old, new) in uids {
                tx.execute(
                    "DELETE FROM mailclient_messages WHERE account = ?1 AND folder = ?2 AND uid = ?3",
                    params![account, to, new],
                )?;
                tx.execute(
                    "UPDATE mailclient_messages SET folder = ?4, uid = ?5,
                       activity = coalesce(?6, activity)
                     WHERE account = ?1 AND folder = ?2 AND uid = ?3",
                    params![account, from, old, to, new, activity],
                )?;
            }
            let moved: Vec<(String, String)> = threads
                .iter()
                .map(|(_, thread)| (to.to_owned(), thread.clone()))
                .collect();
            threads.extend(moved);
            refresh_threads(tx, account, &threads)?;
            Ok(())
        })
    }

    /// Marks the folder's sync complete up to `uid_next`, with the
    /// HIGHESTMODSEQ the next sync asks for changes since.
    pub fn finish_folder(
        &self,
        account: &str,
        folder: &str,
        uid_next: Option<u32>,
        modseq: Option<u64>,
    ) -> Result<(), ClientError> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE mailclient_folders SET uid_next = ?3, highest_modseq = ?4
                 WHERE account = ?1 AND name = ?2",
                params![
                    account,
                    folder,
                    uid_next,
                    modseq.and_then(|m| i64::try_from(m).ok())
                ],
            )?;
            Ok(())
        })
    }

    /// How many messages of `folder` are stored.
    pub fn count(&self, account: &str, folder: &str) -> Result<usize, ClientError> {
        let count: i64 = self.db.read(|tx| {
            tx.query_row(
                "SELECT count(*) FROM mailclient_messages WHERE account = ?1 AND folder = ?2",
                params![account, folder],
                |row| row.get(0),
            )
        })?;
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// The stored UIDs of `folder`, ascending.
    pub fn uids(&self, account: &str, folder: &str) -> Result<Vec<u32>, ClientError> {
        let uids = self.db.read(|tx| {
            let mut statement = tx.prepare(
                "SELECT uid FROM mailclient_messages WHERE account = ?1 AND folder = ?2 ORDER BY uid",
            )?;
            let rows = statement.query_map(params![account, folder], |row| row.get(0))?;
            rows.collect::<Result<Vec<u32>, _>>()
        })?;
        Ok(uids)
    }

    /// The stored UIDs of `folder` above `uid` (mail moved in by an action).
    pub(crate) fn uids_above(
        &self,
        account: &str,
        folder: &str,
        uid: u32,
    ) -> Result<HashSet<u32>, ClientError> {
        let uids = self.db.read(|tx| {
            let mut statement = tx.prepare(
                "SELECT uid FROM mailclient_messages WHERE account = ?1 AND folder = ?2 AND uid > ?3",
            )?;
            let rows = statement.query_map(params![account, folder, uid], |row| row.get(0))?;
            rows.collect::<Result<HashSet<u32>, _>>()
        })?;
        Ok(uids)
    }

    pub fn message(
        &self,
        account: &str,
        folder: &str,
        uid: u32,
    ) -> Result<Option<Stored>, ClientError> {
        let message = self.db.read(|tx| {
            tx.query_row(
                &format!(
                    "SELECT {MESSAGE_COLUMNS} FROM mailclient_messages
                     WHERE account = ?1 AND folder = ?2 AND uid = ?3"
                ),
                params![account, folder, uid],
                stored_from_row,
            )
            .optional()
        })?;
        Ok(message)
    }

    /// The messages of one thread in every folder, oldest first.
    pub fn thread(&self, account: &str, thread_id: &str) -> Result<Vec<Stored>, ClientError> {
        let messages = self.db.read(|tx| {
            let mut statement = tx.prepare(&format!(
                "SELECT {MESSAGE_COLUMNS} FROM mailclient_messages
                 WHERE account = ?1 AND thread_id = ?2 ORDER BY activity, id"
            ))?;
            let rows = statement.query_map(params![account, thread_id], stored_from_row)?;
            rows.collect::<Result<Vec<_>, _>>()
        })?;
        Ok(messages)
    }

    /// The UIDs of one thread's messages in `folder`.
    pub fn thread_uids(
        &self,
        account: &str,
        folder: &str,
        thread_id: &str,
    ) -> Result<Vec<u32>, ClientError> {
        let uids = self.db.read(|tx| {
            let mut statement = tx.prepare(
                "SELECT uid FROM mailclient_messages
                 WHERE account = ?1 AND folder = ?2 AND thread_id = ?3 ORDER BY uid",
            )?;
            let rows =
                statement.query_map(params![account, folder, thread_id], |row| row.get(0))?;
            rows.collect::<Result<Vec<u32>, _>>()
        })?;
        Ok(uids)
    }

    /// Keeps a fetched message: its bytes, and its text (searchable from
    /// then on).
    pub fn save_body(
        &self,
        account: &str,
        folder: &str,
        uid: u32,
        raw: &[u8],
        text: &str,
    ) -> Result<(), ClientError> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE mailclient_messages SET body = ?4, raw = ?5
                 WHERE account = ?1 AND folder = ?2 AND uid = ?3",
                params![account, folder, uid, text, raw],
            )?;
            Ok(())
        })
    }

    /// A fetched message's bytes.
    pub fn raw(
        &self,
        account: &str,
        folder: &str,
        uid: u32,
    ) -> Result<Option<Vec<u8>>, ClientError> {
        let raw = self.db.read(|tx| {
            tx.query_row(
                "SELECT raw FROM mailclient_messages WHERE account = ?1 AND folder = ?2 AND uid = ?3",
                params![account, folder, uid],
                |row| row.get::<_, Option<Vec<u8>>>(0),
            )
            .optional()
        })?;
        Ok(raw.flatten())
    }

    /// Every stored message's header fields in `folder` with its UID and
    /// whether it is unread, for Email Cleanup and the spam check.
    pub fn header_fields(
        &self,
        account: &str,
        folder: &str,
    ) -> Result<Vec<(u32, Vec<u8>, bool)>, ClientError> {
        let rows = self.db.read(|tx| {
            let mut statement = tx.prepare(
                "SELECT uid, header_fields, flags FROM mailclient_messages
                 WHERE account = ?1 AND folder = ?2 ORDER BY uid",
            )?;
            let rows = statement.query_map(params![account, folder], |row| {
                let flags: String = row.get(2)?;
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    !flags.split_whitespace().any(|f| f == "\\Seen"),
                ))
            })?;
            rows.collect::<Result<Vec<_>, _>>()
        })?;
        Ok(rows)
    }

    /// Records the server's own thread key of messages (THREAD=REFERENCES
    /// groups, Gmail's X-GM-THRID): messages sharing one are one thread.
    pub fn save_server_threads(
        &self,
        account: &str,
        folder: &str,
        keys: &[(u32, String)],
    ) -> Result<(), ClientError> {
        self.db.write(|tx| {
            let mut statement = tx.prepare_cached(
                "UPDATE mailclient_messages SET server_thread = ?4
                 WHERE account = ?1 AND folder = ?2 AND uid = ?3",
            )?;
            for (uid, key) in keys {
                statement.execute(params![account, folder, uid, key])?;
            }
            Ok(())
        })
    }

    /// Threads every message of `account` again (all folders together, so a
    /// reply in Sent joins its thread in the Inbox): JWZ, joined where the
    /// server's thread key says so. A thread keeps the id one of its
    /// messages already had, so ids stay stable across syncs and moves; a
    /// thread of only new messages gets an id derived from its oldest
    /// Message-ID. Rebuilds the thread list. Returns how many messages
    /// changed thread.
    pub fn rethread(&self, account: &str) -> Result<usize, ClientError> {
        self.db.write(|tx| {
            let rows: Vec<(i64, Option<String>, Option<String>, ThreadInput)> = {
                let mut statement = tx.prepare(
                    "SELECT id, thread_id, server_thread, message_id, refs, in_reply_to, subject
                     FROM mailclient_messages WHERE account = ?1 ORDER BY activity, id",
                )?;
                let rows = statement.query_map(params![account], |row| {
                    Ok((
                        row.get(0)?,
                        row.get(1)?,
                        row.get(2)?,
                        ThreadInput {
                            message_id: row.get(3)?,
                            references: split(&row.get::<_, String>(4)?),
                            in_reply_to: row.get(5)?,
                            subject: row.get(6)?,
                        },
                    ))
                })?;
                rows.collect::<Result<_, _>>()?
            };
            let inputs: Vec<ThreadInput> = rows.iter().map(|row| row.3.clone()).collect();
            let keys: Vec<Option<&str>> = rows.iter().map(|row| row.2.as_deref()).collect();
            let groups = join_by_key(thread(&inputs), &keys);
            let mut changed = 0;
            let mut taken: HashSet<String> = HashSet::new();
            let mut update =
                tx.prepare_cached("UPDATE mailclient_messages SET thread_id = ?2 WHERE id = ?1")?;
            for group in groups {
                let kept = group
                    .iter()
                    .filter_map(|&i| rows[i].1.as_deref())
                    .find(|id| !taken.contains(*id))
                    .map(str::to_owned);
                let id = kept
                    .or_else(|| {
                        let derived = derived_id(&rows[group[0]].3, rows[group[0]].0);
                        (!taken.contains(&derived)).then_some(derived)
                    })
                    .unwrap_or_else(store::new_id);
                for &i in &group {
                    if rows[i].1.as_deref() != Some(id.as_str()) {
                        changed += update.execute(params![rows[i].0, id])?;
                    }
                }
                taken.insert(id);
            }
            refresh_all(tx, account)?;
            Ok(changed)
        })
    }
}

/// Joins JWZ's groups that share a server thread key (union-find over the
/// groups).
fn join_by_key(groups: Vec<Vec<usize>>, keys: &[Option<&str>]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..groups.len()).collect();
    fn root(parent: &mut [usize], mut at: usize) -> usize {
        while parent[at] != at {
            parent[at] = parent[parent[at]];
            at = parent[at];
        }
        at
    }
    let mut first_with: HashMap<&str, usize> = HashMap::new();
    for (g, group) in groups.iter().enumerate() {
        for &i in group {
            let Some(key) = keys[i] else { continue };
            match first_with.get(key) {
                Some(&other) => {
                    let (a, b) = (root(&mut parent, other), root(&mut parent, g));
                    if a != b {
                        parent[b.max(a)] = a.min(b);
                    }
                }
                None => {
                    first_with.insert(key, g);
                }
            }
        }
    }
    let mut joined: Vec<Vec<usize>> = vec![Vec::new(); groups.len()];
    for (g, group) in groups.into_iter().enumerate() {
        let r = root(&mut parent, g);
        joined[r].extend(group);
    }
    joined
        .into_iter()
        .filter(|g| !g.is_empty())
        .map(|mut g| {
            g.sort_unstable();
            g
        })
        .collect()
}

/// A thread id from the thread's oldest message: its Message-ID hashed
/// (FNV-1a, stable across builds), else its row id.
fn derived_id(oldest: &ThreadInput, row: i64) -> String {
    match &oldest.message_id {
        Some(id) => {
            let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
            for byte in id.bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
            format!("t{hash:016x}")
        }
        None => format!("r{row}"),
    }
}

/// The (folder, thread) pairs of the given messages.
pub(crate) fn threads_of(
    tx: &Transaction<'_>,
    account: &str,
    folder: &str,
    uids: &[u32],
) -> Result<Vec<(String, String)>, ClientError> {
    let mut statement = tx.prepare_cached(
        "SELECT thread_id FROM mailclient_messages
         WHERE account = ?1 AND folder = ?2 AND uid = ?3 AND thread_id IS NOT NULL",
    )?;
    let mut found: HashSet<String> = HashSet::new();
    for uid in uids {
        if let Some(id) = statement
            .query_row(params![account, folder, uid], |row| row.get::<_, String>(0))
            .optional()?
        {
            found.insert(id);
        }
    }
    Ok(found
        .into_iter()
        .map(|thread| (folder.to_owned(), thread))
        .collect())
}

pub(crate) fn split(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

fn folder_from_row(row: &Row<'_>) -> store::rusqlite::Result<Folder> {
    Ok(Folder {
        name: row.get(0)?,
        role: row
            .get::<_, Option<String>>(1)?
            .as_deref()
            .and_then(Role::parse),
        uid_validity: row.get(2)?,
        highest_uid: row.get(3)?,
        uid_next: row.get(4)?,
        highest_modseq: row
            .get::<_, Option<i64>>(5)?
            .and_then(|m| u64::try_from(m).ok()),
    })
}

pub(crate) fn stored_from_row(row: &Row<'_>) -> store::rusqlite::Result<Stored> {
    let list = |text: String| -> Vec<String> {
        text.split(LIST_SEPARATOR)
            .filter(|item| !item.is_empty())
            .map(str::to_owned)
            .collect()
    };
    Ok(Stored {
        folder: row.get(0)?,
        thread_id: row.get(1)?,
        header: Header {
            uid: row.get(2)?,
            message_id: row.get(3)?,
            in_reply_to: row.get(4)?,
            references: split(&row.get::<_, String>(5)?),
            subject: row.get(6)?,
            from: row.get(7)?,
            to: list(row.get(8)?),
            cc: list(row.get(9)?),
            date: row.get(10)?,
            received: None,
            flags: split(&row.get::<_, String>(11)?),
            size: row.get(12)?,
            preview: row.get(13)?,
            fields: row.get(14)?,
        },
        body: row.get(15)?,
    })
}

//! What the bot remembers between updates and restarts (the tables of
//! `schema.rs`): the update offset, each chat's session, pairing codes,
//! its own messages and the approvals it announced.
//!
//! Every function that depends on the time takes the moment from the
//! caller, whose clock tests control.

use std::sync::Arc;

use store::Db;
use store::rusqlite::{self, OptionalExtension, Transaction, params};
use time::{Duration, OffsetDateTime};

use crate::MessengerError;
use crate::buttons::fits_as_token;
use crate::rules::ChatKey;
use crate::types::User;

/// How long a pairing code can be approved.
pub const PAIRING_LIFETIME: Duration = Duration::HOUR;

/// Letters and digits no one confuses when reading a code aloud or off a
/// phone: no `0`/`O`, `1`/`I`/`L`.
pub const CODE_ALPHABET: &str = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
pub const CODE_LENGTH: usize = 6;

/// The length of a token made for an approval whose id does not fit a
/// button (31^12 ≈ 2^59 values).
const SHORT_TOKEN_LENGTH: usize = 12;

/// Tries at a pending code no other pending request holds.
const CODE_TRIES: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairingState {
    Pending,
    Approved,
    Rejected,
}

impl PairingState {
    pub fn as_str(self) -> &'static str {
        match self {
            PairingState::Pending => "pending",
            PairingState::Approved => "approved",
            PairingState::Rejected => "rejected",
        }
    }

    fn from_column(value: &str) -> Self {
        match value {
            "approved" => PairingState::Approved,
            "rejected" => PairingState::Rejected,
            _ => PairingState::Pending,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    pub id: String,
    pub user_id: i64,
    /// The direct chat to tell the outcome in.
    pub chat_id: i64,
    pub username: Option<String>,
    pub name: String,
    pub code: String,
    pub state: PairingState,
    pub created_at: String,
    pub expires_at: String,
}

/// A pairing request as [`BotState::request_pairing`] leaves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requested {
    pub pairing: Pairing,
    /// False when the sender already had a pending code (it is given
    /// again): the owner is told once per request, not per message.
    pub new: bool,
}

/// A message the bot sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    pub key: ChatKey,
    pub message_id: i64,
    pub session_id: Option<String>,
}

/// An approval announced in a chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announced {
    pub approval_id: String,
    pub token: String,
    pub key: ChatKey,
    /// The message holding the buttons, once it is sent.
    pub message_id: Option<i64>,
    pub answered: bool,
}

#[derive(Clone)]
pub struct BotState {
    db: Arc<Db>,
}

fn thread_column(key: ChatKey) -> i64 {
    key.thread_id.unwrap_or(0)
}

fn key_from_columns(chat_id: i64, thread_id: i64) -> ChatKey {
    ChatKey {
        chat_id,
        thread_id: (thread_id != 0).then_some(thread_id),
    }
}

fn random_text(length: usize) -> Result<String, MessengerError> {
    let alphabet = CODE_ALPHABET.as_bytes();
    // Bytes at or past the last whole multiple of the alphabet are drawn
    // again, so every symbol is equally likely.
    let fair = 256 - 256 % alphabet.len();
    let mut out = String::with_capacity(length);
    let mut bytes = [0u8; 32];
    while out.len() < length {
        getrandom::fill(&mut bytes)
            .map_err(|e| MessengerError::Random(std::io::Error::other(e)))?;
        for &byte in bytes.iter().filter(|&&b| usize::from(b) < fair) {
            if out.len() == length {
                break;
            }
            out.push(char::from(alphabet[usize::from(byte) % alphabet.len()]));
        }
    }
    Ok(out)
}

const PAIRING_COLUMNS: &str = "id, user_id, chat_id, username, name, code, state, created_at";

fn pairing_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Pairing> {
    let created_at: String = row.get(7)?;
    let state: String = row.get(6)?;
    Ok(Pairing {
        id: row.get(0)?,
        user_id: row.get(1)?,
        chat_id: row.get(2)?,
        username: row.get(3)?,
        name: row.get(4)?,
        code: row.get(5)?,
        state: PairingState::from_column(&state),
        expires_at: expiry_of(&created_at),
        created_at,
    })
}

/// When a request stamped `created_at` stops being approvable; a stamp
/// that does not parse has already expired.
fn expiry_of(created_at: &str) -> String {
    OffsetDateTime::parse(created_at, &time::format_description::well_known::Rfc3339)
        .map(|at| clock::timestamp(at + PAIRING_LIFETIME))
        .unwrap_or_default()
}

/// Requests created at or before this moment have expired.
fn expired_cutoff(now: OffsetDateTime) -> String {
    clock::timestamp(now - PAIRING_LIFETIME)
}

fn is_unique_violation(e: &rusqlite::Error) -> bool {
    matches!(
        e,
        rusqlite::Error::SqliteFailure(failure, _)
            if failure.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
    )
}

impl BotState {
    /// The state in `db`, which has had [`crate::MIGRATIONS`] applied.
    pub fn new(db: Arc<Db>) -> Self {
        Self { db }
    }

    /// The `offset` for the next `getUpdates` of the bot `bot_id`.
    pub fn offset(&self, bot_id: i64) -> Result<Option<i64>, MessengerError> {
        self.db.read(|tx| {
            Ok(tx
                .query_row(
                    "SELECT next_update_id FROM messenger_offsets WHERE bot_id = ?1",
                    [bot_id],
                    |row| row.get(0),
                )
                .optional()?)
        })
    }

    /// Marks every update before `next_update_id` handled; the offset only
    /// moves forward, so a late write cannot bring old updates back.
    pub fn set_offset(&self, bot_id: i64, next_update_id: i64) -> Result<(), MessengerError> {
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO messenger_offsets (bot_id, next_update_id) VALUES (?1, ?2)
                 ON CONFLICT (bot_id) DO UPDATE
                 SET next_update_id = max(next_update_id, excluded.next_update_id)",
                params![bot_id, next_update_id],
            )?;
            Ok(())
        })
    }

    /// The chat's current session.
    pub fn session_of(&self, key: ChatKey) -> Result<Option<String>, MessengerError> {
        self.db.read(|tx| {
            Ok(tx
                .query_row(
                    "SELECT session_id FROM messenger_chats WHERE chat_id = ?1 AND thread_id = ?2",
                    params![key.chat_id, thread_column(key)],
                    |row| row.get(0),
                )
                .optional()?)
        })
    }

    /// Makes `session_id` the chat's session and gives back the one it
    /// replaces.
    pub fn set_session(
        &self,
        key: ChatKey,
        session_id: &str,
        now: OffsetDateTime,
    ) -> Result<Option<String>, MessengerError> {
        self.db.write(|tx| {
            let previous: Option<String> = tx
                .query_row(
                    "SELECT session_id FROM messenger_chats WHERE chat_id = ?1 AND thread_id = ?2",
                    params![key.chat_id, thread_column(key)],
                    |row| row.get(0),
                )
                .optional()?;
            tx.execute(
                "INSERT INTO messenger_chats (chat_id, thread_id, session_id, updated_at)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (chat_id, thread_id) DO UPDATE
                 SET session_id = excluded.session_id, updated_at = excluded.updated_at",
                params![
                    key.chat_id,
                    thread_column(key),
                    session_id,
                    clock::timestamp(now)
                ],
            )?;
            Ok(previous)
        })
    }

    /// Forgets a chat's session (`/new`): its next message starts another.
    pub fn forget_session(&self, key: ChatKey) -> Result<(), MessengerError> {
        self.db.write(|tx| {
            tx.execute(
                "DELETE FROM messenger_chats WHERE chat_id = ?1 AND thread_id = ?2",
                params![key.chat_id, thread_column(key)],
            )?;
            Ok(())
        })
    }

    /// The chat whose current session `session_id` is: where its replies
    /// and approvals go.
    pub fn chat_of_session(&self, session_id: &str) -> Result<Option<ChatKey>, MessengerError> {
        self.db.read(|tx| {
            Ok(tx
                .query_row(
                    "SELECT chat_id, thread_id FROM messenger_chats WHERE session_id = ?1",
                    [session_id],
                    |row| Ok(key_from_columns(row.get(0)?, row.get(1)?)),
                )
                .optional()?)
        })
    }

    /// Every chat and its session, the most recently changed first.
    pub fn chats(&self) -> Result<Vec<(ChatKey, String)>, MessengerError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(
                "SELECT chat_id, thread_id, session_id FROM messenger_chats
                 ORDER BY updated_at DESC, chat_id, thread_id",
            )?;
            let rows = stmt
                .query_map([], |row| {
                    Ok((key_from_columns(row.get(0)?, row.get(1)?), row.get(2)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(rows)
        })
    }

    /// A code for `sender`, who wrote from the direct chat `chat_id`: the
    /// pending one they already have, else a fresh one (an expired request
    /// is dropped first).
    pub fn request_pairing(
        &self,
        sender: &User,
        chat_id: i64,
        now: OffsetDateTime,
    ) -> Result<Requested, MessengerError> {
        self.db.write(|tx| {
            tx.execute(
                "DELETE FROM messenger_pairings WHERE state = 'pending' AND created_at <= ?1",
                [expired_cutoff(now)],
            )?;
            if let Some(pairing) = pending_of(tx, sender.id)? {
                return Ok(Requested {
                    pairing,
                    new: false,
                });
            }
            let id = store::new_id();
            for _ in 0..CODE_TRIES {
                let inserted = tx.execute(
                    "INSERT INTO messenger_pairings
                     (id, user_id, chat_id, username, name, code, state, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'pending', ?7)",
                    params![
                        id,
                        sender.id,
                        chat_id,
                        sender.username,
                        sender.display_name(),
                        random_text(CODE_LENGTH)?,
                        clock::timestamp(now)
                    ],
                );
                match inserted {
                    Ok(_) => break,
                    Err(e) if is_unique_violation(&e) => continue,
                    Err(e) => return Err(e.into()),
                }
            }
            let pairing = pending_of(tx, sender.id)?.ok_or_else(|| {
                MessengerError::Random(std::io::Error::other("no free pairing code"))
            })?;
            Ok(Requested { pairing, new: true })
        })
    }

    /// The pending requests not yet expired, oldest first.
    pub fn pending_pairings(&self, now: OffsetDateTime) -> Result<Vec<Pairing>, MessengerError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare(&format!(
                "SELECT {PAIRING_COLUMNS} FROM messenger_pairings
                 WHERE state = 'pending' AND created_at > ?1 ORDER BY created_at, id"
            ))?;
            let rows = stmt
                .query_map([expired_cutoff(now)], pairing_row)?
                .collect::<rusqlite::Result<_>>()?;
            Ok(rows)
        })
    }

    /// Approves the pending request with `code` (any case, spaces around
    /// ignored); the app then adds its user to the allowed users.
    pub fn approve_pairing(
        &self,
        code: &str,
        now: OffsetDateTime,
    ) -> Result<Pairing, MessengerError> {
        self.decide_pairing(code, PairingState::Approved, now)
    }

    pub fn reject_pairing(
        &self,
        code: &str,
        now: OffsetDateTime,
    ) -> Result<Pairing, MessengerError> {
        self.decide_pairing(code, PairingState::Rejected, now)
    }

    fn decide_pairing(
        &self,
        code: &str,
        decision: PairingState,
        now: OffsetDateTime,
    ) -> Result<Pairing, MessengerError> {
        let code = code.trim().to_ascii_uppercase();
        self.db.write(|tx| {
            let pending = tx
                .query_row(
                    &format!(
                        "SELECT {PAIRING_COLUMNS} FROM messenger_pairings
                         WHERE code = ?1 AND state = 'pending'"
                    ),
                    [&code],
                    pairing_row,
                )
                .optional()?
                .ok_or(MessengerError::UnknownPairing)?;
            if pending.created_at <= expired_cutoff(now) {
                return Err(MessengerError::PairingExpired);
            }
            tx.execute(
                "UPDATE messenger_pairings SET state = ?1, decided_at = ?2 WHERE id = ?3",
                params![decision.as_str(), clock::timestamp(now), pending.id],
            )?;
            Ok(Pairing {
                state: decision,
                ..pending
            })
        })
    }

    /// Remembers a message the bot sent, and for which session.
    pub fn record_sent(
        &self,
        key: ChatKey,
        message_id: i64,
        session_id: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<(), MessengerError> {
        self.db.write(|tx| {
            tx.execute(
                "INSERT OR REPLACE INTO messenger_sent
                 (chat_id, message_id, thread_id, session_id, sent_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    key.chat_id,
                    message_id,
                    thread_column(key),
                    session_id,
                    clock::timestamp(now)
                ],
            )?;
            Ok(())
        })
    }

    /// The bot's message `message_id` of `chat_id`, if it sent one: what a
    /// reply to it answers.
    pub fn sent(&self, chat_id: i64, message_id: i64) -> Result<Option<Sent>, MessengerError> {
        self.db.read(|tx| {
            Ok(tx
                .query_row(
                    "SELECT thread_id, session_id FROM messenger_sent
                     WHERE chat_id = ?1 AND message_id = ?2",
                    params![chat_id, message_id],
                    |row| {
                        Ok(Sent {
                            key: key_from_columns(chat_id, row.get(0)?),
                            message_id,
                            session_id: row.get(1)?,
                        })
                    },
                )
                .optional()?)
        })
    }

    /// Claims the announcement of `approval_id` in the chat `key` and gives
    /// the token its buttons carry; `None` once it has been announced (its
    /// message recorded) or answered. A claim whose message was never sent
    /// can be made again, so a failed send does not lose the approval.
    pub fn announce_approval(
        &self,
        approval_id: &str,
        key: ChatKey,
        now: OffsetDateTime,
    ) -> Result<Option<String>, MessengerError> {
        self.db.write(|tx| {
            if let Some(known) = announced(tx, "approval_id", approval_id)? {
                let unsent = known.message_id.is_none() && !known.answered;
                return Ok(unsent.then_some(known.token));
            }
            let token = if fits_as_token(approval_id) {
                approval_id.to_owned()
            } else {
                random_text(SHORT_TOKEN_LENGTH)?
            };
            tx.execute(
                "INSERT INTO messenger_approvals
                 (approval_id, token, chat_id, thread_id, announced_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    approval_id,
                    token,
                    key.chat_id,
                    thread_column(key),
                    clock::timestamp(now)
                ],
            )?;
            Ok(Some(token))
        })
    }

    /// Records the message that holds the approval's buttons.
    pub fn approval_sent(&self, approval_id: &str, message_id: i64) -> Result<(), MessengerError> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE messenger_approvals SET message_id = ?1 WHERE approval_id = ?2",
                params![message_id, approval_id],
            )?;
            Ok(())
        })
    }

    /// The approval a pressed button's token stands for.
    pub fn approval_by_token(&self, token: &str) -> Result<Option<Announced>, MessengerError> {
        self.db.read(|tx| announced(tx, "token", token))
    }

    /// Marks the approval answered (by a button or anywhere else) and gives
    /// it back the first time only: the caller then removes its buttons.
    pub fn approval_answered(
        &self,
        approval_id: &str,
        now: OffsetDateTime,
    ) -> Result<Option<Announced>, MessengerError> {
        self.db.write(|tx| {
            let changed = tx.execute(
                "UPDATE messenger_approvals SET answered_at = ?1
                 WHERE approval_id = ?2 AND answered_at IS NULL",
                params![clock::timestamp(now), approval_id],
            )?;
            if changed == 0 {
                return Ok(None);
            }
            announced(tx, "approval_id", approval_id)
        })
    }

    /// Forgets the bot's messages, answered approvals and decided pairings
    /// from before `before`: a reply to a message that old starts nothing.
    pub fn prune(&self, before: OffsetDateTime) -> Result<(), MessengerError> {
        let before = clock::timestamp(before);
        self.db.write(|tx| {
            tx.execute("DELETE FROM messenger_sent WHERE sent_at < ?1", [&before])?;
            tx.execute(
                "DELETE FROM messenger_approvals WHERE answered_at < ?1",
                [&before],
            )?;
            tx.execute(
                "DELETE FROM messenger_pairings WHERE state != 'pending' AND decided_at < ?1",
                [&before],
            )?;
            Ok(())
        })
    }
}

fn pending_of(tx: &Transaction<'_>, user_id: i64) -> rusqlite::Result<Option<Pairing>> {
    tx.query_row(
        &format!(
            "SELECT {PAIRING_COLUMNS} FROM messenger_pairings
             WHERE user_id = ?1 AND state = 'pending'"
        ),
        [user_id],
        pairing_row,
    )
    .optional()
}

/// The approval whose `column` (`approval_id` or `token`, both unique) is `value`.
fn announced(
    tx: &Transaction<'_>,
    column: &str,
    value: &str,
) -> Result<Option<Announced>, MessengerError> {
    Ok(tx
        .query_row(
            &format!(
                "SELECT approval_id, token, chat_id, thread_id, message_id, answered_at
                 FROM messenger_approvals WHERE {column} = ?1"
            ),
            [value],
            |row| {
                Ok(Announced {
                    approval_id: row.get(0)?,
                    token: row.get(1)?,
                    key: key_from_columns(row.get(2)?, row.get(3)?),
                    message_id: row.get(4)?,
                    answered: row.get::<_, Option<String>>(5)?.is_some(),
                })
            },
        )
        .optional()?)
}

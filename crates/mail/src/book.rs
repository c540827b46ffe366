//! The mail ledger in SQLite: where each mailbox got to, every mail seen and
//! what was decided about it, the threads' sessions, and the refusals sent.

use std::sync::Arc;

use clock::Clock;
use store::Db;
use store::rusqlite::{OptionalExtension, Row, params};

use crate::{Mail, MailError};

/// Where a mailbox got to: mail with a greater UID under the same
/// UIDVALIDITY is new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub uid_validity: u32,
    pub last_uid: u32,
}

/// One mail as the watcher fetched it.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub account: String,
    pub mailbox: String,
    pub uid_validity: u32,
    pub uid: u32,
    /// The whole RFC 822 message.
    pub raw: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Claimed, not decided yet (or the app stopped before it decided).
    Pending,
    Start,
    FollowUp,
    Ignored,
    Refused,
    SpamDropped,
    Failed,
    /// Mail to a Bug Intake address: a report, not a session's prompt.
    BugReport,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Pending => "pending",
            Decision::Start => "start",
            Decision::FollowUp => "follow_up",
            Decision::Ignored => "ignored",
            Decision::Refused => "refused",
            Decision::SpamDropped => "spam_dropped",
            Decision::Failed => "failed",
            Decision::BugReport => "bug_report",
        }
    }

    fn parse(text: &str) -> Decision {
        match text {
            "start" => Decision::Start,
            "follow_up" => Decision::FollowUp,
            "ignored" => Decision::Ignored,
            "refused" => Decision::Refused,
            "spam_dropped" => Decision::SpamDropped,
            "failed" => Decision::Failed,
            "bug_report" => Decision::BugReport,
            _ => Decision::Pending,
        }
    }
}

/// A mail seen, as `GET /email/inbound` lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    pub id: String,
    pub account: String,
    pub mailbox: String,
    pub from: Option<String>,
    pub subject: String,
    pub message_id: Option<String>,
    pub received_at: String,
    pub decision: Decision,
    pub reason: String,
    pub session_id: Option<String>,
}

pub const MAX_LIST: usize = 200;

pub struct Mailbook {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

impl Mailbook {
    /// `db` must have [`crate::MIGRATIONS`] applied.
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    pub fn cursor(&self, account: &str, mailbox: &str) -> Result<Option<Cursor>, MailError> {
        let cursor = self.db.read(|conn| {
            conn.query_row(
                "SELECT uid_validity, last_uid FROM mail_cursors WHERE account = ?1 AND mailbox = ?2",
                params![account, mailbox],
                |row| {
                    Ok(Cursor {
                        uid_validity: row.get(0)?,
                        last_uid: row.get(1)?,
                    })
                },
            )
            .optional()
        })?;
        Ok(cursor)
    }

    pub fn save_cursor(
        &self,
        account: &str,
        mailbox: &str,
        cursor: Cursor,
    ) -> Result<(), MailError> {
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO mail_cursors (account, mailbox, uid_validity, last_uid)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (account, mailbox) DO UPDATE
                 SET uid_validity = excluded.uid_validity, last_uid = excluded.last_uid",
                params![account, mailbox, cursor.uid_validity, cursor.last_uid],
            )
        })?;
        Ok(())
    }

    /// Records the mail as seen, `pending`, and returns its row id; `None`
    /// when this mail (by its place in the mailbox or its Message-ID) was
    /// seen before, so it must not be processed again.
    pub fn claim(&self, fetched: &Fetched, mail: &Mail) -> Result<Option<String>, MailError> {
        let id = store::new_id();
        let inserted = self.db.write(|tx| {
            tx.execute(
                "INSERT INTO mail_seen (id, account, mailbox, uid_validity, uid, message_id,
                   from_address, subject, received_at, decision, reason)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'pending', '')
                 ON CONFLICT DO NOTHING",
                params![
                    id,
                    fetched.account,
                    fetched.mailbox,
                    fetched.uid_validity,
                    fetched.uid,
                    mail.message_id,
                    mail.from,
                    mail.subject,
                    self.clock.timestamp(),
                ],
            )
        })?;
        Ok((inserted == 1).then_some(id))
    }

    /// Says what became of a claimed mail.
    pub fn decide(
        &self,
        id: &str,
        decision: Decision,
        reason: &str,
        session_id: Option<&str>,
    ) -> Result<(), MailError> {
        self.db.write(|tx| {
            tx.execute(
                "UPDATE mail_seen SET decision = ?2, reason = ?3, session_id = ?4 WHERE id = ?1",
                params![id, decision.as_str(), reason, session_id],
            )
        })?;
        Ok(())
    }

    /// Newest first; `before` is the id of the last row of the previous page.
    pub fn list(&self, limit: usize, before: Option<&str>) -> Result<Vec<Seen>, MailError> {
        let limit = limit.clamp(1, MAX_LIST) as i64;
        let rows = self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, account, mailbox, from_address, subject, message_id, received_at,
                        decision, reason, session_id
                 FROM mail_seen WHERE ?1 IS NULL OR id < ?1 ORDER BY id DESC LIMIT ?2",
            )?;
            stmt.query_map(params![before, limit], seen_row)?
                .collect::<Result<Vec<_>, _>>()
        })?;
        Ok(rows)
    }

    /// Joins these Message-IDs (the mail that started a session, our
    /// replies, later replies) to `session_id`'s thread. An id already in a
    /// thread stays in it.
    pub fn link_thread(&self, message_ids: &[&str], session_id: &str) -> Result<(), MailError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let mut stmt = tx.prepare_cached(
                "INSERT INTO mail_threads (message_id, session_id, linked_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
            )?;
            for id in message_ids.iter().filter_map(|id| crate::bare_id(id)) {
                stmt.execute(params![id, session_id, now])?;
            }
            Ok::<_, store::rusqlite::Error>(())
        })?;
        Ok(())
    }

    /// The session of the thread a reply belongs to: its In-Reply-To first,
    /// then its References from the most recent back.
    pub fn thread_session(
        &self,
        in_reply_to: &[String],
        references: &[String],
    ) -> Result<Option<String>, MailError> {
        let session = self
            .db
            .read(|conn| -> Result<Option<String>, store::rusqlite::Error> {
                let mut stmt = conn
                    .prepare_cached("SELECT session_id FROM mail_threads WHERE message_id = ?1")?;
                for id in in_reply_to.iter().chain(references.iter().rev()) {
                    let Some(id) = crate::bare_id(id) else {
                        continue;
                    };
                    if let Some(session) = stmt
                        .query_row(params![id], |row| row.get::<_, String>(0))
                        .optional()?
                    {
                        return Ok(Some(session));
                    }
                }
                Ok(None)
            })?;
        Ok(session)
    }

    /// Keeps `raw` as the mail `session_id`'s next reply answers (the
    /// latest of its thread), across restarts.
    pub fn remember_reply(&self, session_id: &str, raw: &[u8]) -> Result<(), MailError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO mail_replies (session_id, raw, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (session_id) DO UPDATE SET raw = ?2, updated_at = ?3",
                params![session_id, raw, now],
            )
        })?;
        Ok(())
    }

    /// The mail `session_id`'s reply answers; `None` for a session no mail started.
    pub fn reply_for(&self, session_id: &str) -> Result<Option<Vec<u8>>, MailError> {
        let raw = self.db.read(|conn| {
            conn.query_row(
                "SELECT raw FROM mail_replies WHERE session_id = ?1",
                params![session_id],
                |row| row.get(0),
            )
            .optional()
        })?;
        Ok(raw)
    }

    /// Whether a refusal may go to `sender` on local day `day` (e.g.
    /// `2026-01-05`); true once per sender and day, and records it.
    pub fn take_refusal(&self, sender: &str, day: &str) -> Result<bool, MailError> {
        let sender = sender.trim().to_lowercase();
        let now = self.clock.timestamp();
        let inserted = self.db.write(|tx| {
            tx.execute(
                "INSERT INTO mail_refusals (sender, day, refused_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
                params![sender, day, now],
            )
        })?;
        Ok(inserted == 1)
    }
}

fn seen_row(row: &Row<'_>) -> store::rusqlite::Result<Seen> {
    Ok(Seen {
        id: row.get(0)?,
        account: row.get(1)?,
        mailbox: row.get(2)?,
        from: row.get(3)?,
        subject: row.get(4)?,
        message_id: row.get(5)?,
        received_at: row.get(6)?,
        decision: Decision::parse(&row.get::<_, String>(7)?),
        reason: row.get(8)?,
        session_id: row.get(9)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book() -> (tempfile::TempDir, Mailbook) {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(crate::MIGRATIONS).unwrap();
        let clock = Arc::new(clock::ManualClock::new(
            time::macros::datetime!(2026-01-05 09:00 UTC),
        ));
        (dir, Mailbook::new(db, clock))
    }

    fn fetched(uid_validity: u32, uid: u32) -> Fetched {
        Fetched {
            account: "agent@example.com".to_owned(),
            mailbox: "INBOX".to_owned(),
            uid_validity,
            uid,
            raw: Vec::new(),
        }
    }

    fn mail(message_id: Option<&str>) -> Mail {
        let header = message_id
            .map(|id| format!("Message-ID: <{id}>\r\n"))
            .unwrap_or_default();
        crate::parse(format!("From: ann@example.com\r\nSubject: s\r\n{header}\r\nhi").as_bytes())
            .unwrap()
    }

    #[test]
    fn a_session_answers_the_latest_mail_it_was_given() {
        let (_dir, book) = book();
        assert_eq!(book.reply_for("s1").unwrap(), None);
        book.remember_reply("s1", b"first").unwrap();
        book.remember_reply("s1", b"second").unwrap();
        assert_eq!(
            book.reply_for("s1").unwrap().as_deref(),
            Some(&b"second"[..])
        );
        assert_eq!(book.reply_for("s2").unwrap(), None);
    }

    #[test]
    fn a_mail_is_claimed_once_by_place_and_by_message_id() {
        let (_dir, book) = book();
        let first = book
            .claim(&fetched(7, 1), &mail(Some("a@x")))
            .unwrap()
            .unwrap();
        assert_eq!(
            book.claim(&fetched(7, 1), &mail(Some("b@x"))).unwrap(),
            None
        );
        assert_eq!(
            book.claim(&fetched(8, 1), &mail(Some("a@x"))).unwrap(),
            None
        );
        let second = book.claim(&fetched(7, 2), &mail(None)).unwrap().unwrap();
        assert!(book.claim(&fetched(7, 3), &mail(None)).unwrap().is_some());
        book.decide(&first, Decision::Start, "approved sender", Some("s1"))
            .unwrap();
        let listed = book.list(10, None).unwrap();
        assert_eq!(listed.len(), 3);
        assert_eq!(listed[1].id, second);
        assert_eq!(listed[1].decision, Decision::Pending);
        let oldest = &listed[2];
        assert_eq!(
            (
                oldest.decision,
                oldest.reason.as_str(),
                oldest.session_id.as_deref()
            ),
            (Decision::Start, "approved sender", Some("s1"))
        );
        assert_eq!(oldest.received_at, "2026-01-05T09:00:00.000Z");
        let page = book.list(10, Some(&second)).unwrap();
        assert_eq!(page.len(), 1);
        assert_eq!(page[0].id, first);
    }

    #[test]
    fn cursors_are_kept_per_mailbox() {
        let (_dir, book) = book();
        assert_eq!(book.cursor("a", "INBOX").unwrap(), None);
        let cursor = Cursor {
            uid_validity: 3,
            last_uid: 9,
        };
        book.save_cursor("a", "INBOX", cursor).unwrap();
        book.save_cursor(
            "a",
            "INBOX",
            Cursor {
                last_uid: 10,
                ..cursor
            },
        )
        .unwrap();
        assert_eq!(book.cursor("a", "INBOX").unwrap().unwrap().last_uid, 10);
        assert_eq!(book.cursor("a", "Other").unwrap(), None);
    }

    #[test]
    fn any_message_of_a_thread_finds_its_session() {
        let (_dir, book) = book();
        book.link_thread(&["<orig@x>", "reply1@switchboard.test"], "s1")
            .unwrap();
        book.link_thread(&["orig@x"], "s2").unwrap();
        let found = |irt: &[&str], refs: &[&str]| {
            let own = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            book.thread_session(&own(irt), &own(refs)).unwrap()
        };
        assert_eq!(
            found(&["reply1@switchboard.test"], &[]).as_deref(),
            Some("s1")
        );
        assert_eq!(
            found(&["unknown@y"], &["orig@x", "unknown@y"]).as_deref(),
            Some("s1")
        );
        assert_eq!(found(&["<orig@x>"], &[]).as_deref(), Some("s1"));
        assert_eq!(found(&["unknown@y"], &[]), None);
        assert_eq!(found(&[], &[]), None);
    }

    #[test]
    fn one_refusal_per_sender_and_day() {
        let (_dir, book) = book();
        assert!(book.take_refusal("Bob@Example.com", "2026-01-05").unwrap());
        assert!(!book.take_refusal("bob@example.com", "2026-01-05").unwrap());
        assert!(
            book.take_refusal("carol@example.com", "2026-01-05")
                .unwrap()
        );
        assert!(book.take_refusal("bob@example.com", "2026-01-06").unwrap());
    }
}

//! New mail in an account's inbox, after each sync.
//!
//! With `spamFilterEnabled`, mail from strangers is checked with the
//! `mailclient` crate's spam rule (the receiving server's
//! Authentication-Results and simple content signs) and moved to Spam when
//! it fails. Known people are never checked: everyone the person has
//! written to (the Sent folder's recipients) and every sender they marked
//! not-spam (`mailclient_known_senders`).
//!
//! With `mailclientEmailsInInbox`, each new unread mail that stays in the
//! inbox is also an inbox row with a reply box, so a short answer does not
//! need the mail page.
//!
//! "New" is above the highest inbox UID the previous check saw
//! (`mailclient_arrivals`); the first check of an account only records
//! where its inbox is, so turning the client on never judges old mail.

use std::collections::HashSet;

use store::rusqlite::{OptionalExtension, params};

use crate::mail_error::{MailClientError, off_thread};
use crate::mail_reads;
use crate::services::App;

/// One new inbox message as the check reads it.
struct Arrival {
    uid: u32,
    thread: Option<String>,
    from: String,
    subject: String,
    preview: String,
    seen: bool,
    bytes: Vec<u8>,
}

impl App {
    /// Checks account `id`'s new inbox mail; failures are logged, never
    /// stop the sync loop.
    pub(crate) async fn mail_arrivals(&self, owner: &str, id: &str) {
        let arrivals = match self.new_inbox_mail(id).await {
            Ok(arrivals) => arrivals,
            Err(error) => {
                tracing::warn!(account = %id, %error, "new mail was not read");
                return;
            }
        };
        let screen = self.settings.spam_filter_enabled();
        let cards = self.settings.mailclient_emails_in_inbox();
        if arrivals.is_empty() || !(screen || cards) {
            return;
        }
        let Ok(reach) = self.mail_reach(owner, id).await else {
            return;
        };
        let known = if screen {
            match self.known_senders(id).await {
                Ok(known) => known,
                Err(error) => {
                    tracing::warn!(account = %id, %error, "the known senders were not read");
                    return;
                }
            }
        } else {
            HashSet::new()
        };
        let login = reach.login();
        let own_address = reach.account.address.to_ascii_lowercase();
        for arrival in arrivals {
            if screen && self.keep_in_spam(id, &login, &arrival, &known).await {
                continue;
            }
            if cards && !arrival.seen && bare_address(&arrival.from) != own_address {
                crate::publish::add_row(self, owner, mail_card(id, &arrival)).await;
            }
        }
    }

    /// Moves `arrival` to Spam when the spam rule fails it; true when it
    /// was judged spam (moved or not, it is no inbox card).
    async fn keep_in_spam(
        &self,
        id: &str,
        login: &mailclient::Login,
        arrival: &Arrival,
        known: &HashSet<String>,
    ) -> bool {
        let verdict = mailclient::verdict(&arrival.bytes, known, None);
        if !verdict.spam {
            return false;
        }
        let Some(thread) = arrival.thread.as_ref() else {
            return true;
        };
        tracing::info!(account = %id, uid = arrival.uid, from = %arrival.from,
            reasons = ?verdict.reasons, "new mail kept in Spam");
        if let Err(error) = self
            .mail
            .syncer
            .apply(id, login, "INBOX", thread, &mailclient::Action::Spam)
            .await
        {
            tracing::warn!(account = %id, %error, "new spam was not moved");
        }
        true
    }

    /// Records that the person marked `sender` not-spam in account `id`:
    /// their mail is never checked again.
    pub(crate) async fn mark_known_sender(
        &self,
        id: &str,
        sender: &str,
    ) -> Result<(), MailClientError> {
        let (db, id, sender) = (self.db.clone(), id.to_owned(), bare_address(sender));
        off_thread(move || {
            db.write(|tx| {
                tx.execute(
                    "INSERT OR IGNORE INTO mailclient_known_senders (account, address) VALUES (?1, ?2)",
                    params![id, sender],
                )
                .map_err(MailClientError::from)
            })?;
            Ok(())
        })
        .await
    }

    /// Inbox messages above the last check's mark, and moves the mark.
    async fn new_inbox_mail(&self, id: &str) -> Result<Vec<Arrival>, MailClientError> {
        let (app, id) = (self.clone(), id.to_owned());
        off_thread(move || {
            let store = &app.mail.store;
            let Some(inbox) = store.folder(&id, "INBOX")? else {
                return Ok(Vec::new());
            };
            let mark: Option<(Option<u32>, u32)> = app.db.read(|tx| {
                tx.query_row(
                    "SELECT uid_validity, seen_uid FROM mailclient_arrivals WHERE account = ?1",
                    params![id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(MailClientError::from)
            })?;
            let uids = store.uids(&id, "INBOX")?;
            let highest = uids.iter().copied().max().unwrap_or(0);
            let fresh: Vec<u32> = match mark {
                Some((validity, seen)) if validity == inbox.uid_validity => {
                    uids.into_iter().filter(|uid| *uid > seen).collect()
                }
                _ => Vec::new(),
            };
            app.db.write(|tx| {
                tx.execute(
                    "INSERT INTO mailclient_arrivals (account, uid_validity, seen_uid)
                     VALUES (?1, ?2, ?3)
                     ON CONFLICT (account) DO UPDATE
                     SET uid_validity = excluded.uid_validity, seen_uid = excluded.seen_uid",
                    params![id, inbox.uid_validity, highest],
                )
                .map_err(MailClientError::from)
            })?;
            let mut arrivals = Vec::new();
            for uid in fresh {
                if let Some(m) = store.message(&id, "INBOX", uid)? {
                    let mut bytes = m.header.fields.clone();
                    bytes.extend_from_slice(b"\r\n");
                    bytes.extend_from_slice(m.header.preview.as_bytes());
                    arrivals.push(Arrival {
                        uid,
                        thread: m.thread_id,
                        seen: m
                            .header
                            .flags
                            .iter()
                            .any(|f| f.eq_ignore_ascii_case("\\Seen")),
                        from: m.header.from,
                        subject: m.header.subject,
                        preview: m.header.preview,
                        bytes,
                    });
                }
            }
            Ok(arrivals)
        })
        .await
    }

    /// Everyone account `id`'s person wrote to, and the senders they
    /// marked not-spam, lowercase.
    async fn known_senders(&self, id: &str) -> Result<HashSet<String>, MailClientError> {
        let (app, id) = (self.clone(), id.to_owned());
        off_thread(move || {
            let mut known: HashSet<String> = app.db.read(|tx| {
                let mut stmt = tx.prepare_cached(
                    "SELECT address FROM mailclient_known_senders WHERE account = ?1",
                )?;
                let rows = stmt.query_map(params![id], |r| r.get::<_, String>(0))?;
                rows.collect::<Result<HashSet<_>, _>>()
                    .map_err(MailClientError::from)
            })?;
            let store = &app.mail.store;
            for folder in store.folders(&id)? {
                if folder.role != Some(mailclient::Role::Sent) {
                    continue;
                }
                for uid in store.uids(&id, &folder.name)? {
                    if let Some(m) = store.message(&id, &folder.name, uid)? {
                        known.extend(
                            m.header
                                .to
                                .iter()
                                .chain(&m.header.cc)
                                .map(|a| bare_address(a)),
                        );
                    }
                }
            }
            Ok(known)
        })
        .await
    }
}

/// The inbox row of one new mail: who and what, the first lines, and the
/// thread it opens (the page's reply box answers that thread).
fn mail_card(account: &str, arrival: &Arrival) -> inbox::NewRow {
    let sender = display_name(&arrival.from);
    let subject = if arrival.subject.trim().is_empty() {
        "(no subject)".to_owned()
    } else {
        arrival.subject.trim().to_owned()
    };
    let mut row = inbox::NewRow::new(
        inbox::Category::Mail,
        inbox::clip(&format!("{sender}: {subject}"), inbox::MAX_TITLE_CHARS),
    );
    row.body = Some(inbox::clip(arrival.preview.trim(), 600)).filter(|b| !b.is_empty());
    let message = mail_reads::public_id(account, &format!("INBOX\u{1f}{}", arrival.uid));
    if let Some(thread) = &arrival.thread {
        let query = form_urlencoded::Serializer::new(String::new())
            .append_pair("account", account)
            .append_pair("thread", &mail_reads::public_id(account, thread))
            .finish();
        let path = format!("/mail?{query}");
        row.actions.push(inbox::Action::OpenPath { path });
    }
    row.dedup(&message)
}

/// `Name <a@b>` → `Name`; a bare address stays as it is.
fn display_name(from: &str) -> String {
    match from.rfind('<') {
        Some(open) if open > 0 => from[..open].trim().trim_matches('"').to_owned(),
        _ => from.trim().to_owned(),
    }
}

/// `Name <a@b>` → `a@b`, lowercase.
pub(crate) fn bare_address(text: &str) -> String {
    let inner = match (text.rfind('<'), text.rfind('>')) {
        (Some(open), Some(close)) if open < close => &text[open + 1..close],
        _ => text,
    };
    inner.trim().to_ascii_lowercase()
}

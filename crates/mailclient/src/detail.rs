//! What needs the server besides sync: a thread's messages with their
//! bodies fetched on demand (stored, and searchable from then on), and the
//! thread list's search, which asks the server's SEARCH too while a folder
//! is not fully synced.

use crate::ClientError;
use crate::headers::Header;
use crate::imap::{ImapSession, Login, limit};
use crate::list::ThreadPage;
use crate::sync::{Syncer, fetch, header_query, read_headers};

/// How many messages the server's search adds to the store at most, newest
/// first.
const MAX_SERVER_HITS: usize = 200;

/// A message of a thread, with its whole text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadMessage {
    pub folder: String,
    pub uid: u32,
    pub header: Header,
    /// The whole message as the server sent it.
    pub raw: Vec<u8>,
}

impl Syncer {
    /// The messages of a thread in every folder, oldest first, each with
    /// its bytes: those not fetched yet are fetched and stored.
    pub async fn thread(
        &self,
        account: &str,
        login: &Login,
        thread_id: &str,
    ) -> Result<Vec<ThreadMessage>, ClientError> {
        let stored = self.store.thread(account, thread_id)?;
        if stored.is_empty() {
            return Err(ClientError::NoSuchThread(thread_id.to_owned()));
        }
        let mut messages = Vec::with_capacity(stored.len());
        let mut missing = Vec::new();
        for (i, message) in stored.into_iter().enumerate() {
            let raw = self
                .store
                .raw(account, &message.folder, message.header.uid)?;
            if raw.is_none() {
                missing.push(i);
            }
            messages.push(ThreadMessage {
                folder: message.folder,
                uid: message.header.uid,
                header: message.header,
                raw: raw.unwrap_or_default(),
            });
        }
        if missing.is_empty() {
            return Ok(messages);
        }
        let mut conn = self.pool.checkout(account, login).await?;
        let label = conn.label.clone();
        let outcome = async {
            for i in missing {
                let (folder, uid) = (messages[i].folder.clone(), messages[i].uid);
                messages[i].raw = self
                    .fetch_raw(conn.session(), &label, account, &folder, uid)
                    .await?;
            }
            Ok(())
        }
        .await;
        conn.keep(outcome)?;
        Ok(messages)
    }

    /// Fetches one message's bytes, keeps them and its text in the store
    /// (where search finds it from then on) and returns it parsed.
    pub async fn fetch_body(
        &self,
        account: &str,
        folder: &str,
        uid: u32,
        login: &Login,
    ) -> Result<mail::Mail, ClientError> {
        let mut conn = self.pool.checkout(account, login).await?;
        let label = conn.label.clone();
        let outcome = self
            .fetch_raw(conn.session(), &label, account, folder, uid)
            .await;
        let raw = conn.keep(outcome)?;
        Ok(mail::parse(&raw)?)
    }

    async fn fetch_raw(
        &self,
        session: &mut ImapSession,
        label: &str,
        account: &str,
        folder: &str,
        uid: u32,
    ) -> Result<Vec<u8>, ClientError> {
        limit(session.examine(folder), label).await??;
        let fetched = fetch(session, label, &uid.to_string(), "(UID BODY.PEEK[])").await?;
        let raw = fetched
            .iter()
            .find(|f| f.uid == Some(uid))
            .and_then(|f| f.body())
            .ok_or_else(|| ClientError::NoSuchMessage {
                folder: folder.to_owned(),
                uid,
            })?
            .to_vec();
        // Malformed mail is still kept and shown; its text is what parses.
        let text = mail::parse(&raw).map(|m| m.text).unwrap_or_default();
        self.store.save_body(account, folder, uid, &raw, &text)?;
        Ok(raw)
    }

    /// A page of `folder`'s thread list ([`crate::MailStore::thread_page`]);
    /// with a query on a folder not fully synced, the server's SEARCH adds
    /// what the store does not hold yet (fetched and stored first).
    pub async fn thread_page(
        &self,
        account: &str,
        login: &Login,
        folder: &str,
        query: Option<&str>,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<ThreadPage, ClientError> {
        let words: Vec<&str> = query
            .map(|q| q.split_whitespace().collect())
            .unwrap_or_default();
        let complete = self
            .store
            .folder(account, folder)?
            .is_some_and(|f| f.complete());
        if words.is_empty() || complete {
            return self
                .store
                .thread_page(account, folder, query, cursor, limit);
        }
        let mut conn = self.pool.checkout(account, login).await?;
        let label = conn.label.clone();
        let outcome = self
            .server_search(conn.session(), &label, account, folder, &words)
            .await;
        let hits = conn.keep(outcome)?;
        self.store
            .thread_page_with(account, folder, query, &hits, cursor, limit)
    }

    /// The UIDs of `folder` the server's SEARCH finds for every word; those
    /// not stored yet (the newest [`MAX_SERVER_HITS`]) are fetched and
    /// stored.
    async fn server_search(
        &self,
        session: &mut ImapSession,
        label: &str,
        account: &str,
        folder: &str,
        words: &[&str],
    ) -> Result<Vec<u32>, ClientError> {
        limit(session.examine(folder), label).await??;
        let criteria: Vec<String> = words
            .iter()
            .map(|w| format!("TEXT \"{}\"", w.replace('\\', "\\\\").replace('"', "\\\"")))
            .collect();
        let charset = if words.iter().all(|w| w.is_ascii()) {
            ""
        } else {
            "CHARSET UTF-8 "
        };
        let found = limit(
            session.uid_search(format!("{charset}{}", criteria.join(" "))),
            label,
        )
        .await??;
        let mut hits: Vec<u32> = found.into_iter().collect();
        hits.sort_unstable();
        let stored: std::collections::HashSet<u32> =
            self.store.uids(account, folder)?.into_iter().collect();
        let missing: Vec<u32> = hits
            .iter()
            .rev()
            .filter(|uid| !stored.contains(uid))
            .take(MAX_SERVER_HITS)
            .copied()
            .collect();
        if !missing.is_empty() {
            let list: Vec<String> = missing.iter().map(u32::to_string).collect();
            let fetched = fetch(session, label, &list.join(","), &header_query()).await?;
            let headers = read_headers(&fetched, 1, u32::MAX);
            self.store.save_window(account, folder, &headers, 0)?;
            self.store.rethread(account)?;
        }
        Ok(hits)
    }
}

//! What the dovecot tests share: a login to the rig, a fresh store, a
//! generated message, and a look at the server through a login of its own
//! (what the client under test did, seen as another client sees it).

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::sync::Arc;

use futures_util::TryStreamExt;
use mail::rig::{MailServers, PASSWORD};
use mail::{Tls, Trust};
use mailclient::{ImapSession, Login, MailStore};

pub const ACCOUNT: &str = "rig";

pub fn login(servers: &MailServers) -> Login {
    let config = servers.config(Tls::Implicit, true, 60);
    Login {
        server: config.accounts[0].imap.clone(),
        password: PASSWORD.to_owned(),
        trust: Trust::load(&config).unwrap(),
    }
}

pub fn open_store(path: &std::path::Path) -> Arc<MailStore> {
    let db = Arc::new(store::Db::open(&path.join("db.sqlite")).unwrap());
    db.migrate(mailclient::MIGRATIONS).unwrap();
    Arc::new(MailStore::new(db))
}

/// A plain-text message; `references` oldest first, the last is the
/// parent.
pub fn message(
    id: &str,
    references: &[&str],
    from: &str,
    subject: &str,
    body: &str,
    minute: u32,
) -> Vec<u8> {
    let mut raw = format!(
        "Message-ID: <{id}>\r\nFrom: {from}\r\nTo: agent@switchboard.test\r\nSubject: {subject}\r\n\
Date: Tue, 1 Jul 2025 {:02}:{:02}:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n",
        10 + minute / 60,
        minute % 60
    );
    if let Some(parent) = references.last() {
        let list: Vec<String> = references.iter().map(|r| format!("<{r}>")).collect();
        raw.push_str(&format!(
            "In-Reply-To: <{parent}>\r\nReferences: {}\r\n",
            list.join(" ")
        ));
    }
    raw.push_str(&format!("\r\n{body}\r\n"));
    raw.into_bytes()
}

pub async fn append(session: &mut ImapSession, folder: &str, raw: &[u8]) {
    session.append(folder, None, None, raw).await.unwrap();
}

/// The Message-IDs in `folder` on the server, with their flags.
pub async fn on_server(session: &mut ImapSession, folder: &str) -> Vec<(String, BTreeSet<String>)> {
    session.select(folder).await.unwrap();
    let fetched: Vec<_> = session
        .uid_fetch("1:*", "(UID FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    let mut found: Vec<(String, BTreeSet<String>)> = fetched
        .iter()
        .map(|f| {
            let header = String::from_utf8_lossy(f.header().unwrap_or_default()).into_owned();
            let id = header
                .split_once('<')
                .and_then(|(_, rest)| rest.split_once('>'))
                .map(|(id, _)| id.to_owned())
                .unwrap_or_default();
            let flags = f.flags().map(|flag| format!("{flag:?}")).collect();
            (id, flags)
        })
        .collect();
    found.sort();
    found
}

/// The Message-IDs in `folder` on the server, sorted.
pub async fn ids_on_server(session: &mut ImapSession, folder: &str) -> Vec<String> {
    on_server(session, folder)
        .await
        .into_iter()
        .map(|(id, _)| id)
        .collect()
}

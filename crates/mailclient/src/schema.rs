//! The mail client's tables, as one append-only list of migrations.
//!
//! `mailclient_folders` holds each account's folders with their SPECIAL-USE
//! role and where sync got to: the UIDVALIDITY the stored UIDs belong to,
//! the highest UID stored (a resumed sync starts above it), the UIDNEXT and
//! HIGHESTMODSEQ of the last complete sync (CONDSTORE asks for the flags
//! changed since; IDLE knows at once that mail came meanwhile).
//! `mailclient_messages` holds the headers and a short text preview of every
//! synced message, the whole message and its text only once asked for, the
//! thread it belongs to and its activity time (its date, or the time it
//! woke from snooze), and the server's own thread key where it has one
//! (THREAD=REFERENCES, Gmail's X-GM-THRID). `mailclient_threads` is the
//! thread list, one row per thread and folder, kept by the store so a page
//! is one indexed read.
//! `mailclient_search` is the FTS5 index over subject, participants,
//! preview and body, kept by triggers. `mailclient_snoozes` holds each
//! snoozed message's wake time and the folder it came from.

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "mailclient",
    sql: "CREATE TABLE mailclient_folders (
            account TEXT NOT NULL,
            name TEXT NOT NULL,
            role TEXT,
            uid_validity INTEGER,
            highest_uid INTEGER NOT NULL DEFAULT 0,
            uid_next INTEGER,
            highest_modseq INTEGER,
            PRIMARY KEY (account, name)
          ) STRICT;

          CREATE TABLE mailclient_messages (
            id INTEGER PRIMARY KEY,
            account TEXT NOT NULL,
            folder TEXT NOT NULL,
            uid INTEGER NOT NULL,
            message_id TEXT,
            in_reply_to TEXT,
            refs TEXT NOT NULL,
            subject TEXT NOT NULL,
            sender TEXT NOT NULL,
            recipients TEXT NOT NULL,
            cc TEXT NOT NULL,
            date INTEGER,
            activity INTEGER NOT NULL,
            flags TEXT NOT NULL,
            size INTEGER NOT NULL,
            preview TEXT NOT NULL,
            header_fields BLOB NOT NULL,
            body TEXT,
            raw BLOB,
            thread_id TEXT,
            server_thread TEXT,
            UNIQUE (account, folder, uid),
            FOREIGN KEY (account, folder) REFERENCES mailclient_folders (account, name)
              ON DELETE CASCADE
          ) STRICT;
          CREATE INDEX mailclient_messages_by_thread ON mailclient_messages (account, thread_id);
          CREATE INDEX mailclient_messages_by_message_id ON mailclient_messages (account, message_id);

          CREATE TABLE mailclient_threads (
            account TEXT NOT NULL,
            folder TEXT NOT NULL,
            thread_id TEXT NOT NULL,
            activity INTEGER NOT NULL,
            subject TEXT NOT NULL,
            participants TEXT NOT NULL,
            snippet TEXT NOT NULL,
            count INTEGER NOT NULL,
            unread INTEGER NOT NULL,
            starred INTEGER NOT NULL,
            PRIMARY KEY (account, folder, thread_id)
          ) STRICT;
          CREATE INDEX mailclient_threads_by_activity
            ON mailclient_threads (account, folder, activity DESC, thread_id DESC);

          CREATE TABLE mailclient_snoozes (
            account TEXT NOT NULL,
            uid INTEGER NOT NULL,
            message_id TEXT,
            source TEXT NOT NULL,
            wake_at INTEGER NOT NULL,
            PRIMARY KEY (account, uid)
          ) STRICT;

          CREATE VIRTUAL TABLE mailclient_search USING fts5(
            subject, participants, preview, body,
            tokenize = 'unicode61 remove_diacritics 2'
          );
          CREATE TRIGGER mailclient_search_insert AFTER INSERT ON mailclient_messages BEGIN
            INSERT INTO mailclient_search (rowid, subject, participants, preview, body)
            VALUES (new.id, new.subject, new.sender || ' ' || new.recipients || ' ' || new.cc,
                    new.preview, coalesce(new.body, ''));
          END;
          CREATE TRIGGER mailclient_search_delete AFTER DELETE ON mailclient_messages BEGIN
            DELETE FROM mailclient_search WHERE rowid = old.id;
          END;
          CREATE TRIGGER mailclient_search_body AFTER UPDATE OF body ON mailclient_messages BEGIN
            UPDATE mailclient_search SET body = coalesce(new.body, '') WHERE rowid = new.id;
          END;",
}];

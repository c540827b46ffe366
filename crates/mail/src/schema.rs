//! The crate's tables, as one append-only list of migrations.
//!
//! `mail_cursors` is where each watched mailbox got to (its UIDVALIDITY and
//! the last UID handed over), so a restart fetches only what came after.
//! `mail_seen` records every mail handed over, once: it is unique by
//! (account, mailbox, uidvalidity, uid) and by Message-ID, so the same mail
//! reached twice (a changed UIDVALIDITY, a copy in another mailbox) is not
//! processed again. `pending` is a claimed mail the app has not decided yet;
//! it stays so if the app stopped half-way, and is never processed twice.
//! `mail_threads` maps every Message-ID of a thread to its session;
//! `mail_refusals` holds one row per sender and local day a refusal went;
//! `mail_replies` the mail each session's next reply answers.

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "mail",
    sql: "CREATE TABLE mail_cursors (
            account TEXT NOT NULL,
            mailbox TEXT NOT NULL,
            uid_validity INTEGER NOT NULL,
            last_uid INTEGER NOT NULL,
            PRIMARY KEY (account, mailbox)
          ) STRICT;

          CREATE TABLE mail_seen (
            id TEXT PRIMARY KEY,
            account TEXT NOT NULL,
            mailbox TEXT NOT NULL,
            uid_validity INTEGER NOT NULL,
            uid INTEGER NOT NULL,
            message_id TEXT,
            from_address TEXT,
            subject TEXT NOT NULL,
            received_at TEXT NOT NULL,
            decision TEXT NOT NULL CHECK (decision IN
              ('pending', 'start', 'follow_up', 'ignored', 'refused', 'spam_dropped', 'failed',
               'bug_report')),
            reason TEXT NOT NULL,
            session_id TEXT,
            UNIQUE (account, mailbox, uid_validity, uid)
          ) STRICT;
          CREATE UNIQUE INDEX mail_seen_by_message_id ON mail_seen (message_id)
            WHERE message_id IS NOT NULL;

          CREATE TABLE mail_threads (
            message_id TEXT PRIMARY KEY,
            session_id TEXT NOT NULL,
            linked_at TEXT NOT NULL
          ) STRICT;
          CREATE INDEX mail_threads_by_session ON mail_threads (session_id);

          CREATE TABLE mail_refusals (
            sender TEXT NOT NULL,
            day TEXT NOT NULL,
            refused_at TEXT NOT NULL,
            PRIMARY KEY (sender, day)
          ) STRICT;

          CREATE TABLE mail_replies (
            session_id TEXT PRIMARY KEY,
            raw BLOB NOT NULL,
            updated_at TEXT NOT NULL
          ) STRICT;",
}];

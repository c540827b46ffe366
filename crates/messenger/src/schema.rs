//! The crate's tables, as one append-only list of migrations.
//!
//! A chat key is `(chat_id, thread_id)` with `0` for "no forum topic" (a
//! topic's id is a message id, never 0), so the key columns are never NULL
//! and equality finds every row. Times are the clock's stored form
//! (`clock::timestamp`), so they compare as text.
//!
//! - `messenger_offsets`: per bot, the next update to ask for, so a restart
//!   processes nothing twice.
//! - `messenger_chats`: each chat's current session (`/new` replaces it).
//! - `messenger_pairings`: codes given to unknown senders; at most one
//!   pending per sender, and no two pending with the same code.
//! - `messenger_sent`: the bot's own messages, to know what a reply
//!   answers.
//! - `messenger_approvals`: approvals announced in a chat, the token their
//!   buttons carry, and the message holding the buttons.

/// Append-only: never edit an applied step.
pub const MIGRATIONS: &[store::Migration] = &[store::Migration {
    feature: "messenger",
    sql: "CREATE TABLE messenger_offsets (
            bot_id INTEGER PRIMARY KEY,
            next_update_id INTEGER NOT NULL
          ) STRICT;

          CREATE TABLE messenger_chats (
            chat_id INTEGER NOT NULL,
            thread_id INTEGER NOT NULL,
            session_id TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (chat_id, thread_id)
          ) STRICT;
          CREATE INDEX messenger_chats_by_session ON messenger_chats (session_id);

          CREATE TABLE messenger_pairings (
            id TEXT PRIMARY KEY,
            user_id INTEGER NOT NULL,
            chat_id INTEGER NOT NULL,
            username TEXT,
            name TEXT NOT NULL,
            code TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected')),
            created_at TEXT NOT NULL,
            decided_at TEXT
          ) STRICT;
          CREATE UNIQUE INDEX messenger_pairings_one_pending
            ON messenger_pairings (user_id) WHERE state = 'pending';
          CREATE UNIQUE INDEX messenger_pairings_pending_code
            ON messenger_pairings (code) WHERE state = 'pending';

          CREATE TABLE messenger_sent (
            chat_id INTEGER NOT NULL,
            message_id INTEGER NOT NULL,
            thread_id INTEGER NOT NULL,
            session_id TEXT,
            sent_at TEXT NOT NULL,
            PRIMARY KEY (chat_id, message_id)
          ) STRICT;
          CREATE INDEX messenger_sent_by_time ON messenger_sent (sent_at);

          CREATE TABLE messenger_approvals (
            approval_id TEXT PRIMARY KEY,
            token TEXT NOT NULL UNIQUE,
            chat_id INTEGER NOT NULL,
            thread_id INTEGER NOT NULL,
            message_id INTEGER,
            announced_at TEXT NOT NULL,
            answered_at TEXT
          ) STRICT;",
}];

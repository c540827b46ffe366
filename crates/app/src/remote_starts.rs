//! `cloudStartedSessionsEnabled`: a session on a runner host may start
//! helper sessions, and each waits, queued, for the user's approval from
//! its inbox card (docs/runners.md).

use inbox::{Action, Category, NewRow, Source};

use crate::error::AppError;
use crate::services::App;
use crate::{blocking, publish};

impl App {
    /// Puts the card that approves or refuses `session`'s start into its
    /// account's inbox.
    pub async fn ask_to_start(&self, session: &sessions::Session) {
        let parent = session.parent_id.clone().unwrap_or_default();
        let mut row = NewRow::new(
            Category::CliPending,
            format!(
                "A session on runner {} asks to start another",
                session.runner
            ),
        );
        row.body = Some(format!(
            "Session {parent} wants to start a {} session on runner {}: {}",
            session.engine, session.runner, session.prompt
        ));
        row.reason = Some("session_start".to_owned());
        row.source = Source {
            session_id: Some(session.id.clone()),
            ..Source::default()
        };
        row.actions = vec![Action::ApproveSessionStart {
            session_id: session.id.clone(),
        }];
        row.dedup_key = Some(format!("session-start:{}", session.id));
        let (inbox, account) = (self.inbox.clone(), session.account_id.clone());
        match blocking(move || inbox.add(&account, row).map_err(AppError::from)).await {
            Ok(added) => {
                publish::inbox_added(self, &session.account_id, added);
            }
            Err(error) => tracing::warn!(%error, "cannot add a session start's inbox row"),
        }
    }
}

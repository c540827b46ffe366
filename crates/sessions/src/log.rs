//! Entries written into a session's transcript from outside its engine (the
//! permission broker's decisions), stored and broadcast like the engine's own.

use crate::db;
use crate::error::{Result, SessionError};
use crate::model::EntryBody;
use crate::pages::{self, Piece};
use crate::supervisor::Supervisor;

impl Supervisor {
    /// Appends `entry` to the session's latest turn and announces it as an
    /// `output` event; another account's session is `NotFound`.
    pub async fn append_entry(&self, account_id: &str, id: &str, entry: EntryBody) -> Result<()> {
        let (account, owned) = (account_id.to_owned(), id.to_owned());
        let at = self.inner.clock.timestamp();
        let stored_at = at.clone();
        let (turn, stored) = self
            .inner
            .write(move |tx| {
                // Ownership only: the whole session row is more than this needs.
                if !db::is_of_account(tx, &account, &owned)? {
                    return Err(SessionError::NotFound);
                }
                let turn = db::current_turn(tx, &owned)?;
                let stored =
                    pages::append(tx, &owned, turn, &stored_at, vec![Piece::entry(entry)])?;
                Ok((turn, stored))
            })
            .await?;
        self.inner
            .announce_stored(id, account_id, turn, &at, stored);
        Ok(())
    }
}

//! How a session's latest turn ended, as the attention rule read it: it
//! asked the user something, or it did its work and is done (answerable,
//! but nobody is waited on). The rule lives in the `attention` crate, which
//! reads transcripts; this crate keeps only its verdict per session, so
//! every list of sessions carries it as `turnEnd` without reading a
//! transcript.

use store::rusqlite::params;

use crate::error::{Result, SessionError};
use crate::model::Status;
use crate::supervisor::Supervisor;

impl Supervisor {
    /// Records the rule's verdict on turn `turn` of the session (`asked`:
    /// it asked the user) and announces the session, so the pages move it
    /// between "Needs you" and "Done".
    pub async fn record_turn_end(
        &self,
        account_id: &str,
        id: &str,
        turn: i64,
        asked: bool,
    ) -> Result<()> {
        let (account, id_owned) = (account_id.to_owned(), id.to_owned());
        let status = self
            .inner
            .write(move |tx| {
                let changed = tx.execute(
                    "UPDATE sessions SET judged_turn = ?3,
                        asked_turn = iif(?4, ?3, asked_turn)
                     WHERE id = ?1 AND account_id = ?2",
                    params![id_owned, account, turn, asked],
                )?;
                if changed == 0 {
                    return Err(SessionError::NotFound);
                }
                let status: String = tx.query_row(
                    "SELECT status FROM sessions WHERE id = ?1",
                    [&id_owned],
                    |row| row.get(0),
                )?;
                Ok(Status::parse(&status).unwrap_or(Status::Failed))
            })
            .await?;
        self.inner.announce(id, account_id, status);
        Ok(())
    }

    /// The sessions waiting for input whose latest turn the rule has not
    /// read (a demo's, a database from before the rule kept its verdict, a
    /// verdict lost to a burst): `(account, id)`, for a look at start.
    pub async fn unjudged_waiting(&self) -> Result<Vec<(String, String)>> {
        self.inner
            .read(|tx| {
                let mut stmt = tx.prepare(
                    "SELECT s.account_id, s.id FROM sessions s
                     WHERE s.status = 'waiting_for_input' AND s.archived = 0
                       AND s.judged_turn IS NOT (SELECT COUNT(*) FROM session_turns t
                                                 WHERE t.session_id = s.id)",
                )?;
                let rows = stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
                Ok(rows.collect::<store::rusqlite::Result<Vec<_>>>()?)
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Status, TurnEnd};

    #[test]
    fn only_a_waiting_session_whose_turn_was_read_has_a_turn_end() {
        let waiting = Status::WaitingForInput;
        assert_eq!(
            TurnEnd::of(waiting, 3, Some(3), Some(3)),
            Some(TurnEnd::Asked)
        );
        assert_eq!(
            TurnEnd::of(waiting, 3, Some(3), Some(2)),
            Some(TurnEnd::Done)
        );
        assert_eq!(TurnEnd::of(waiting, 3, Some(3), None), Some(TurnEnd::Done));
        // A new turn ended and the rule has not read it yet: no verdict, not last turn's.
        assert_eq!(TurnEnd::of(waiting, 4, Some(3), Some(3)), None);
        assert_eq!(TurnEnd::of(waiting, 1, None, None), None);
        assert_eq!(TurnEnd::of(Status::Running, 3, Some(3), Some(3)), None);
        assert_eq!(TurnEnd::of(Status::Failed, 3, Some(3), Some(3)), None);
    }
}

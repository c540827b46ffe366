//! Saved keys (sealed, reusable by name) and the keys sessions propose,
//! held sealed until the user saves or discards them.

use serde::Serialize;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::Secrets;
use crate::error::{SecretsError, check_name, check_value};

/// A saved key as listed: never its value.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SavedKey {
    pub name: String,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProposalState {
    Pending,
    Saved,
    Discarded,
}

impl ProposalState {
    pub fn as_str(self) -> &'static str {
        match self {
            ProposalState::Pending => "pending",
            ProposalState::Saved => "saved",
            ProposalState::Discarded => "discarded",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "pending" => ProposalState::Pending,
            "saved" => ProposalState::Saved,
            _ => ProposalState::Discarded,
        }
    }
}

/// A proposal as listed: its value only in [`Reviewed`], for the user.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeyProposal {
    pub id: String,
    pub session_id: String,
    pub name: String,
    pub state: ProposalState,
    pub created_at: String,
    pub decided_at: Option<String>,
}

/// A pending proposal with the value the user reviews (and may edit).
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reviewed {
    #[serde(flatten)]
    pub proposal: KeyProposal,
    /// Absent once the proposal is decided: the value is dropped then.
    pub value: Option<String>,
}

pub struct NewProposal<'a> {
    pub account_id: &'a str,
    pub session_id: &'a str,
    pub name: &'a str,
    pub value: &'a str,
}

pub enum ProposalDecision {
    /// Save under `name` (the proposed one, or the user's edit) with `value`.
    Save {
        name: String,
        value: String,
    },
    Discard,
}

const COLUMNS: &str = "id, session_id, name, state, created_at, decided_at";

fn from_row(row: &Row<'_>) -> store::rusqlite::Result<KeyProposal> {
    Ok(KeyProposal {
        id: row.get(0)?,
        session_id: row.get(1)?,
        name: row.get(2)?,
        state: ProposalState::parse(&row.get::<_, String>(3)?),
        created_at: row.get(4)?,
        decided_at: row.get(5)?,
    })
}

/// What a sealed value is bound to: its account and its row.
fn aad(account_id: &str, row: &str) -> String {
    format!("{account_id}\u{1f}{row}")
}

impl Secrets {
    pub fn keys(&self, account_id: &str) -> Result<Vec<SavedKey>, SecretsError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(
                "SELECT name, created_at, updated_at FROM saved_keys
                 WHERE account_id = ?1 ORDER BY name",
            )?;
            let rows = stmt.query_map(params![account_id], |r| {
                Ok(SavedKey {
                    name: r.get(0)?,
                    created_at: r.get(1)?,
                    updated_at: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// Saves (or replaces) the account's key `name`, sealed.
    pub fn save_key(
        &self,
        account_id: &str,
        name: &str,
        value: &str,
    ) -> Result<SavedKey, SecretsError> {
        check_name(name)?;
        check_value(value)?;
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            self.store_key(tx, account_id, name, value, &now)?;
            Ok(tx.query_row(
                "SELECT name, created_at, updated_at FROM saved_keys
                 WHERE account_id = ?1 AND name = ?2",
                params![account_id, name],
                |r| {
                    Ok(SavedKey {
                        name: r.get(0)?,
                        created_at: r.get(1)?,
                        updated_at: r.get(2)?,
                    })
                },
            )?)
        })
    }

    /// A saved key's value, for Switchboard's own use on the user's behalf
    /// (a connector's token); never for a reply.
    pub fn reveal(&self, account_id: &str, name: &str) -> Result<String, SecretsError> {
        self.db.read(|tx| self.key_value(tx, account_id, name))
    }

    pub fn delete_key(&self, account_id: &str, name: &str) -> Result<(), SecretsError> {
        let deleted = self.db.write(|tx| {
            tx.execute(
                "DELETE FROM saved_keys WHERE account_id = ?1 AND name = ?2",
                params![account_id, name],
            )
        })?;
        if deleted == 0 {
            return Err(SecretsError::KeyNotFound(name.to_owned()));
        }
        Ok(())
    }

    pub fn propose(&self, new: &NewProposal<'_>) -> Result<KeyProposal, SecretsError> {
        check_name(new.name)?;
        check_value(new.value)?;
        let proposal = KeyProposal {
            id: store::new_id(),
            session_id: new.session_id.to_owned(),
            name: new.name.to_owned(),
            state: ProposalState::Pending,
            created_at: self.clock.timestamp(),
            decided_at: None,
        };
        let sealed = self
            .cipher
            .seal(new.value, &aad(new.account_id, &proposal.id))?;
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO key_proposals (id, account_id, session_id, name, sealed, state, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'pending', ?6)",
                params![
                    proposal.id,
                    new.account_id,
                    proposal.session_id,
                    proposal.name,
                    sealed,
                    proposal.created_at
                ],
            )
        })?;
        Ok(proposal)
    }

    pub fn proposals(
        &self,
        account_id: &str,
        pending_only: bool,
    ) -> Result<Vec<KeyProposal>, SecretsError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM key_proposals
                 WHERE account_id = ?1 AND (?2 = 0 OR state = 'pending')
                 ORDER BY created_at DESC, id DESC LIMIT 500"
            ))?;
            let rows = stmt.query_map(params![account_id, pending_only], from_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// A proposal with its value, while it is pending.
    pub fn review(&self, account_id: &str, id: &str) -> Result<Reviewed, SecretsError> {
        let (proposal, sealed) = self.db.read(|tx| find_proposal(tx, account_id, id))?;
        let value = match sealed {
            Some(sealed) => Some(self.cipher.open(&sealed, &aad(account_id, id))?),
            None => None,
        };
        Ok(Reviewed { proposal, value })
    }

    /// The user's decision. The proposed value is dropped either way; a
    /// save seals the (possibly edited) value as a saved key.
    pub fn decide_proposal(
        &self,
        account_id: &str,
        id: &str,
        decision: ProposalDecision,
    ) -> Result<KeyProposal, SecretsError> {
        self.db.write(|tx| {
            let (proposal, _) = find_proposal(tx, account_id, id)?;
            if proposal.state != ProposalState::Pending {
                return Err(SecretsError::AlreadyAnswered(proposal.state.as_str()));
            }
            let now = self.clock.timestamp();
            let (state, name) = match decision {
                ProposalDecision::Discard => (ProposalState::Discarded, proposal.name.clone()),
                ProposalDecision::Save { name, value } => {
                    check_name(&name)?;
                    check_value(&value)?;
                    self.store_key(tx, account_id, &name, &value, &now)?;
                    (ProposalState::Saved, name)
                }
            };
            tx.execute(
                "UPDATE key_proposals SET state = ?2, name = ?3, decided_at = ?4, sealed = NULL
                 WHERE id = ?1",
                params![id, state.as_str(), name, now],
            )?;
            Ok(KeyProposal {
                state,
                name,
                decided_at: Some(now),
                ..proposal
            })
        })
    }

    /// Seals `value` as the account's key `name`, replacing one of that name.
    pub(crate) fn store_key(
        &self,
        tx: &Transaction<'_>,
        account_id: &str,
        name: &str,
        value: &str,
        now: &str,
    ) -> Result<(), SecretsError> {
        let sealed = self.cipher.seal(value, &aad(account_id, name))?;
        tx.execute(
            "INSERT INTO saved_keys (account_id, name, sealed, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?4)
             ON CONFLICT (account_id, name) DO UPDATE SET sealed = ?3, updated_at = ?4",
            params![account_id, name, sealed, now],
        )?;
        Ok(())
    }

    pub(crate) fn key_value(
        &self,
        tx: &Transaction<'_>,
        account_id: &str,
        name: &str,
    ) -> Result<String, SecretsError> {
        let sealed: Option<Vec<u8>> = tx
            .query_row(
                "SELECT sealed FROM saved_keys WHERE account_id = ?1 AND name = ?2",
                params![account_id, name],
                |r| r.get(0),
            )
            .optional()?;
        let sealed = sealed.ok_or_else(|| SecretsError::KeyNotFound(name.to_owned()))?;
        self.cipher.open(&sealed, &aad(account_id, name))
    }
}

fn find_proposal(
    tx: &Transaction<'_>,
    account_id: &str,
    id: &str,
) -> Result<(KeyProposal, Option<Vec<u8>>), SecretsError> {
    tx.query_row(
        &format!("SELECT {COLUMNS}, sealed FROM key_proposals WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        |r| Ok((from_row(r)?, r.get(6)?)),
    )
    .optional()?
    .ok_or(SecretsError::ProposalNotFound)
}

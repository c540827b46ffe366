//! Input requests: asked by a session, answered by the user, the answer
//! written into the session's dotenv file and nowhere else.

use std::path::Path;

use serde::Serialize;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::{MAX_PROMPT_CHARS, SecretsError, check_name, check_value};
use crate::{Secrets, dotenv};

/// How long a request waits for the user, as an approval does.
pub const INPUT_WAIT: time::Duration = time::Duration::minutes(10);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RequestState {
    Pending,
    Saved,
    Declined,
    Expired,
}

impl RequestState {
    pub fn as_str(self) -> &'static str {
        match self {
            RequestState::Pending => "pending",
            RequestState::Saved => "saved",
            RequestState::Declined => "declined",
            RequestState::Expired => "expired",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "pending" => RequestState::Pending,
            "saved" => RequestState::Saved,
            "declined" => RequestState::Declined,
            _ => RequestState::Expired,
        }
    }
}

/// A request as every answer about it shows it: never the value.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InputRequest {
    pub id: String,
    pub session_id: String,
    /// The variable's name, as written in the file.
    pub name: String,
    pub prompt: String,
    /// The dotenv file the value goes to (absolute).
    pub file: String,
    pub state: RequestState,
    pub created_at: String,
    pub expires_at: String,
    pub answered_at: Option<String>,
}

pub struct NewInputRequest<'a> {
    pub account_id: &'a str,
    pub session_id: &'a str,
    /// The session's folder: the file must stay inside it.
    pub folder: &'a Path,
    pub name: &'a str,
    pub prompt: &'a str,
    /// Relative to the folder; `.env` when absent.
    pub file: Option<&'a str>,
}

/// The user's answer to a request.
pub enum Answer {
    /// A typed value; `remember` also saves it as a key under the request's name.
    Value {
        value: String,
        remember: bool,
    },
    /// A saved key's value, by the key's name.
    SavedKey(String),
    Decline,
}

const COLUMNS: &str =
    "id, session_id, name, prompt, file, state, created_at, expires_at, answered_at";

fn from_row(row: &Row<'_>) -> store::rusqlite::Result<InputRequest> {
    Ok(InputRequest {
        id: row.get(0)?,
        session_id: row.get(1)?,
        name: row.get(2)?,
        prompt: row.get(3)?,
        file: row.get(4)?,
        state: RequestState::parse(&row.get::<_, String>(5)?),
        created_at: row.get(6)?,
        expires_at: row.get(7)?,
        answered_at: row.get(8)?,
    })
}

impl Secrets {
    pub fn open_request(&self, new: &NewInputRequest<'_>) -> Result<InputRequest, SecretsError> {
        check_name(new.name)?;
        let prompt = new.prompt.trim();
        if prompt.is_empty() || prompt.chars().count() > MAX_PROMPT_CHARS {
            return Err(SecretsError::InvalidPrompt);
        }
        let file = dotenv::confine(new.folder, new.file)?;
        let now = self.clock.now();
        let request = InputRequest {
            id: store::new_id(),
            session_id: new.session_id.to_owned(),
            name: new.name.to_owned(),
            prompt: prompt.to_owned(),
            file: file.display().to_string(),
            state: RequestState::Pending,
            created_at: clock::timestamp(now),
            expires_at: clock::timestamp(now + INPUT_WAIT),
            answered_at: None,
        };
        let folder = new.folder.display().to_string();
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO input_requests (id, account_id, session_id, name, prompt, file,
                   folder, state, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'pending', ?8, ?9)",
                params![
                    request.id,
                    new.account_id,
                    request.session_id,
                    request.name,
                    request.prompt,
                    request.file,
                    folder,
                    request.created_at,
                    request.expires_at
                ],
            )
        })?;
        Ok(request)
    }

    /// One of the account's requests; a pending one past its ten minutes
    /// reads (and stays) expired.
    pub fn request(&self, account_id: &str, id: &str) -> Result<InputRequest, SecretsError> {
        self.db.write(|tx| {
            self.expire_due(tx)?;
            find(tx, account_id, id)
        })
    }

    /// The account's requests, newest first: pending ones only, or all.
    pub fn requests(
        &self,
        account_id: &str,
        pending_only: bool,
    ) -> Result<Vec<InputRequest>, SecretsError> {
        self.db.write(|tx| {
            self.expire_due(tx)?;
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM input_requests
                 WHERE account_id = ?1 AND (?2 = 0 OR state = 'pending')
                 ORDER BY created_at DESC, id DESC LIMIT 500"
            ))?;
            let rows = stmt.query_map(params![account_id, pending_only], from_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// Answers a pending request: the value is written to the request's
    /// file before the request is marked saved, so a failed write leaves it
    /// pending (and the user may try again). Nothing of the value is stored
    /// unless the user asked to remember it, and then only sealed.
    pub fn answer(
        &self,
        account_id: &str,
        id: &str,
        answer: Answer,
    ) -> Result<InputRequest, SecretsError> {
        self.db.write(|tx| {
            self.expire_due(tx)?;
            let request = find(tx, account_id, id)?;
            if request.state != RequestState::Pending {
                return Err(SecretsError::AlreadyAnswered(request.state.as_str()));
            }
            let now = self.clock.timestamp();
            let state = match answer {
                Answer::Decline => RequestState::Declined,
                Answer::Value { value, remember } => {
                    check_value(&value)?;
                    self.write_file(tx, id, &request, &value)?;
                    if remember {
                        self.store_key(tx, account_id, &request.name, &value, &now)?;
                    }
                    RequestState::Saved
                }
                Answer::SavedKey(key) => {
                    let value = self.key_value(tx, account_id, &key)?;
                    self.write_file(tx, id, &request, &value)?;
                    RequestState::Saved
                }
            };
            tx.execute(
                "UPDATE input_requests SET state = ?2, answered_at = ?3 WHERE id = ?1",
                params![id, state.as_str(), now],
            )?;
            Ok(InputRequest {
                state,
                answered_at: Some(now),
                ..request
            })
        })
    }

    fn write_file(
        &self,
        tx: &Transaction<'_>,
        id: &str,
        request: &InputRequest,
        value: &str,
    ) -> Result<(), SecretsError> {
        let folder: String = tx.query_row(
            "SELECT folder FROM input_requests WHERE id = ?1",
            params![id],
            |r| r.get(0),
        )?;
        dotenv::set(
            Path::new(&folder),
            Path::new(&request.file),
            &request.name,
            value,
        )
    }

    fn expire_due(&self, tx: &Transaction<'_>) -> Result<(), SecretsError> {
        tx.execute(
            "UPDATE input_requests SET state = 'expired', answered_at = expires_at
             WHERE state = 'pending' AND expires_at <= ?1",
            params![self.clock.timestamp()],
        )?;
        Ok(())
    }
}

fn find(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<InputRequest, SecretsError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM input_requests WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        from_row,
    )
    .optional()?
    .ok_or(SecretsError::RequestNotFound)
}

//! Saved meeting rooms: a name and a video link (Jitsi, Google Meet, Zoom
//! or any http(s) address), or a Jitsi room made on demand with a name no
//! one can guess. Kept whatever `meetingRoomsEnabled` says: the switch
//! hides the pages, never the rooms.

use std::sync::Arc;

use clock::Clock;
use rand::Rng;
use serde::{Deserialize, Serialize};
use store::Db;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::{TeamError, invalid};

pub const MAX_NAME_CHARS: usize = 200;
pub const MAX_URL_CHARS: usize = 2_000;
const JITSI: &str = "https://meet.jit.si/";
/// 20 letters and digits: about 119 bits, so a made room is not found by guessing.
const JITSI_NAME_CHARS: usize = 20;

/// Which service a room's link opens, read from its host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "MeetingRoomProvider")]
#[schema(as = MeetingRoomProvider)]
pub enum Provider {
    Jitsi,
    Meet,
    Zoom,
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "MeetingRoom")]
#[schema(as = MeetingRoom)]
pub struct Room {
    pub id: String,
    pub name: String,
    pub url: String,
    pub provider: Provider,
    pub created_at: String,
    pub updated_at: String,
}

/// A new room, or (every field optional) the change to one.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(optional_fields, rename = "MeetingRoomFields")]
#[schema(as = MeetingRoomFields)]
pub struct RoomFields {
    pub name: Option<String>,
    /// The room's http(s) link.
    pub url: Option<String>,
    /// Make a new Jitsi room (`https://meet.jit.si/<random>`) instead of `url`.
    pub jitsi: Option<bool>,
}

fn provider(url: &str) -> Provider {
    let host = url
        .split("://")
        .nth(1)
        .and_then(|rest| rest.split(['/', '?', '#']).next())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let under = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    if under("meet.jit.si") || host.starts_with("jitsi.") {
        Provider::Jitsi
    } else if under("meet.google.com") {
        Provider::Meet
    } else if under("zoom.us") || under("zoom.com") {
        Provider::Zoom
    } else {
        Provider::Other
    }
}

/// A fresh Jitsi room's link.
pub fn jitsi_url() -> String {
    let name: String = rand::rng()
        .sample_iter(&rand::distr::Alphanumeric)
        .take(JITSI_NAME_CHARS)
        .map(char::from)
        .collect();
    format!("{JITSI}Switchboard{name}")
}

fn from_row(row: &Row<'_>) -> store::rusqlite::Result<Room> {
    let url: String = row.get(2)?;
    Ok(Room {
        id: row.get(0)?,
        name: row.get(1)?,
        provider: provider(&url),
        url,
        created_at: row.get(3)?,
        updated_at: row.get(4)?,
    })
}

fn check(room: &mut Room) -> Result<(), TeamError> {
    room.name = room.name.trim().to_owned();
    if room.name.is_empty() || room.name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid("name must be 1 to 200 characters"));
    }
    room.url = room.url.trim().to_owned();
    let url = room.url.as_str();
    let scheme = url.starts_with("https://") || url.starts_with("http://");
    if !scheme
        || url.len() <= "https://".len()
        || url.chars().count() > MAX_URL_CHARS
        || url.contains(char::is_whitespace)
    {
        return Err(invalid(
            "url must be an http(s) address (or ask for jitsi: true)",
        ));
    }
    room.provider = provider(url);
    Ok(())
}

fn apply(room: &mut Room, fields: RoomFields) {
    if let Some(name) = fields.name {
        room.name = name;
    }
    if fields.jitsi == Some(true) {
        room.url = jitsi_url();
    } else if let Some(url) = fields.url {
        room.url = url;
    }
}

pub struct Rooms {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

const COLUMNS: &str = "id, name, url, created_at, updated_at";

impl Rooms {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    /// The account's rooms by name.
    pub fn list(&self, account_id: &str) -> Result<Vec<Room>, TeamError> {
        self.db.read(|tx| {
            let mut stmt = tx.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM meeting_rooms WHERE account_id = ?1 ORDER BY name COLLATE NOCASE, id"
            ))?;
            let rows = stmt.query_map([account_id], from_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    pub fn create(&self, account_id: &str, fields: RoomFields) -> Result<Room, TeamError> {
        if fields.jitsi == Some(true) && fields.url.is_some() {
            return Err(invalid("give url or jitsi: true, not both"));
        }
        let now = self.clock.timestamp();
        let mut room = Room {
            id: store::new_id(),
            name: String::new(),
            url: String::new(),
            provider: Provider::Other,
            created_at: now.clone(),
            updated_at: now,
        };
        apply(&mut room, fields);
        check(&mut room)?;
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO meeting_rooms (id, account_id, name, url, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    room.id,
                    account_id,
                    room.name,
                    room.url,
                    room.created_at,
                    room.updated_at
                ],
            )?;
            Ok(room)
        })
    }

    /// Renames a room or gives it another link (`jitsi: true`: a new Jitsi room).
    pub fn update(
        &self,
        account_id: &str,
        id: &str,
        fields: RoomFields,
    ) -> Result<Room, TeamError> {
        if fields.jitsi == Some(true) && fields.url.is_some() {
            return Err(invalid("give url or jitsi: true, not both"));
        }
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let mut room = find(tx, account_id, id)?;
            apply(&mut room, fields);
            room.updated_at = now;
            check(&mut room)?;
            tx.execute(
                "UPDATE meeting_rooms SET name = ?2, url = ?3, updated_at = ?4 WHERE id = ?1",
                params![room.id, room.name, room.url, room.updated_at],
            )?;
            Ok(room)
        })
    }

    pub fn delete(&self, account_id: &str, id: &str) -> Result<(), TeamError> {
        self.db.write(|tx| {
            find(tx, account_id, id)?;
            tx.execute("DELETE FROM meeting_rooms WHERE id = ?1", [id])?;
            Ok(())
        })
    }
}

fn find(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<Room, TeamError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM meeting_rooms WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        from_row,
    )
    .optional()?
    .ok_or(TeamError::NotFound)
}

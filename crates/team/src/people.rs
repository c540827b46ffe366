//! The people an account works with: its own list plus every member of the
//! workspace (kept in step with the accounts on each read), each with an
//! IANA zone and working hours as minutes of their local day on ISO
//! weekdays. Hours never span midnight: a night shift is an honest gap the
//! planner would have to split across days.

use std::sync::Arc;

use clock::Clock;
use serde::{Deserialize, Serialize};
use store::Db;
use store::rusqlite::{OptionalExtension, Row, Transaction, params};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::{TeamError, invalid};

pub const MAX_NAME_CHARS: usize = 200;
/// New people work 09:00 to 17:00, Monday to Friday, until told otherwise.
const DEFAULT_START: i64 = 9 * 60;
const DEFAULT_END: i64 = 17 * 60;
const DEFAULT_DAYS: [u8; 5] = [1, 2, 3, 4, 5];
const DEFAULT_ZONE: &str = "UTC";

#[derive(Debug, Clone, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "TeamPerson")]
#[schema(as = TeamPerson)]
pub struct Person {
    pub id: String,
    pub name: String,
    /// An IANA zone name, such as `Europe/Berlin`.
    pub zone: String,
    /// When their working day starts, in minutes after their local midnight.
    pub start_minute: i64,
    /// When it ends (after `startMinute`, at most 1440).
    pub end_minute: i64,
    /// The ISO weekdays they work, 1 (Monday) to 7 (Sunday), ascending.
    pub workdays: Vec<u8>,
    /// Set for a workspace member: their account; such a person is always
    /// listed and takes their name from the account.
    pub member_account_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A new person, or (every field optional) the change to one.
#[derive(Debug, Clone, Default, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(optional_fields, rename = "TeamPersonFields")]
#[schema(as = TeamPersonFields)]
pub struct PersonFields {
    pub name: Option<String>,
    pub zone: Option<String>,
    pub start_minute: Option<i64>,
    pub end_minute: Option<i64>,
    pub workdays: Option<Vec<u8>>,
}

/// A workspace account, as the people list needs it.
#[derive(Debug, Clone)]
pub struct Member {
    pub account_id: String,
    pub name: String,
}

const COLUMNS: &str =
    "id, name, zone, start_minute, end_minute, workdays, member_account_id, created_at, updated_at";

fn from_row(row: &Row<'_>) -> store::rusqlite::Result<Person> {
    let days: String = row.get(5)?;
    Ok(Person {
        id: row.get(0)?,
        name: row.get(1)?,
        zone: row.get(2)?,
        start_minute: row.get(3)?,
        end_minute: row.get(4)?,
        workdays: days.split(',').filter_map(|d| d.parse().ok()).collect(),
        member_account_id: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
    })
}

fn days_text(days: &[u8]) -> String {
    days.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// A person whole and right; sorts and dedups the workdays on the way.
fn check(p: &mut Person) -> Result<(), TeamError> {
    p.name = p.name.trim().to_owned();
    if p.name.is_empty() || p.name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid("name must be 1 to 200 characters"));
    }
    p.zone = p.zone.trim().to_owned();
    if jiff::tz::TimeZone::get(&p.zone).is_err() {
        return Err(TeamError::Invalid(format!(
            "zone {:?} is not an IANA time zone (such as Europe/Berlin)",
            p.zone
        )));
    }
    if !(0..1440).contains(&p.start_minute)
        || !(1..=1440).contains(&p.end_minute)
        || p.end_minute <= p.start_minute
    {
        return Err(invalid(
            "working hours must start at 0 to 1439 and end after the start, by 1440 (no span over midnight)",
        ));
    }
    p.workdays.sort_unstable();
    p.workdays.dedup();
    if p.workdays.iter().any(|d| !(1..=7).contains(d)) {
        return Err(invalid(
            "workdays are ISO weekdays, 1 (Monday) to 7 (Sunday)",
        ));
    }
    Ok(())
}

fn apply(p: &mut Person, fields: PersonFields) {
    if let Some(name) = fields.name {
        p.name = name;
    }
    if let Some(zone) = fields.zone {
        p.zone = zone;
    }
    if let Some(start) = fields.start_minute {
        p.start_minute = start;
    }
    if let Some(end) = fields.end_minute {
        p.end_minute = end;
    }
    if let Some(days) = fields.workdays {
        p.workdays = days;
    }
}

pub struct People {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
}

impl People {
    pub fn new(db: Arc<Db>, clock: Arc<dyn Clock>) -> Self {
        Self { db, clock }
    }

    /// The account's people by name: its own list and every member of the
    /// workspace, who are added with the default hours on first sight,
    /// renamed with their account and dropped with it.
    pub fn list(&self, account_id: &str, members: &[Member]) -> Result<Vec<Person>, TeamError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let held = list(tx, account_id)?;
            for m in members {
                match held
                    .iter()
                    .find(|p| p.member_account_id.as_deref() == Some(m.account_id.as_str()))
                {
                    Some(p) if p.name != m.name => {
                        tx.execute(
                            "UPDATE team_people SET name = ?2, updated_at = ?3 WHERE id = ?1",
                            params![p.id, m.name, now],
                        )?;
                    }
                    Some(_) => {}
                    None => {
                        let person = Person {
                            id: store::new_id(),
                            name: m.name.clone(),
                            zone: DEFAULT_ZONE.to_owned(),
                            start_minute: DEFAULT_START,
                            end_minute: DEFAULT_END,
                            workdays: DEFAULT_DAYS.to_vec(),
                            member_account_id: Some(m.account_id.clone()),
                            created_at: now.clone(),
                            updated_at: now.clone(),
                        };
                        insert(tx, account_id, &person)?;
                    }
                }
            }
            for p in &held {
                if let Some(member) = &p.member_account_id
                    && !members.iter().any(|m| &m.account_id == member)
                {
                    tx.execute("DELETE FROM team_people WHERE id = ?1", [&p.id])?;
                }
            }
            list(tx, account_id)
        })
    }

    /// Adds someone to the account's own list; zone and hours default to
    /// UTC, 09:00 to 17:00, Monday to Friday.
    pub fn create(&self, account_id: &str, fields: PersonFields) -> Result<Person, TeamError> {
        let now = self.clock.timestamp();
        let mut person = Person {
            id: store::new_id(),
            name: String::new(),
            zone: DEFAULT_ZONE.to_owned(),
            start_minute: DEFAULT_START,
            end_minute: DEFAULT_END,
            workdays: DEFAULT_DAYS.to_vec(),
            member_account_id: None,
            created_at: now.clone(),
            updated_at: now,
        };
        apply(&mut person, fields);
        check(&mut person)?;
        self.db.write(|tx| {
            insert(tx, account_id, &person)?;
            Ok(person)
        })
    }

    /// Changes the fields given; a member's name stays their account's.
    pub fn update(
        &self,
        account_id: &str,
        id: &str,
        fields: PersonFields,
    ) -> Result<Person, TeamError> {
        let now = self.clock.timestamp();
        self.db.write(|tx| {
            let mut p = find(tx, account_id, id)?;
            if p.member_account_id.is_some() && fields.name.as_ref().is_some_and(|n| n != &p.name) {
                return Err(invalid("a workspace member's name is their account's"));
            }
            apply(&mut p, fields);
            p.updated_at = now;
            check(&mut p)?;
            tx.execute(
                "UPDATE team_people SET name = ?2, zone = ?3, start_minute = ?4, end_minute = ?5,
                   workdays = ?6, updated_at = ?7 WHERE id = ?1",
                params![
                    p.id,
                    p.name,
                    p.zone,
                    p.start_minute,
                    p.end_minute,
                    days_text(&p.workdays),
                    p.updated_at
                ],
            )?;
            Ok(p)
        })
    }

    /// Removes someone from the account's own list (members stay).
    pub fn delete(&self, account_id: &str, id: &str) -> Result<(), TeamError> {
        self.db.write(|tx| {
            if find(tx, account_id, id)?.member_account_id.is_some() {
                return Err(TeamError::Member);
            }
            tx.execute("DELETE FROM team_people WHERE id = ?1", [id])?;
            Ok(())
        })
    }
}

fn list(tx: &Transaction<'_>, account_id: &str) -> Result<Vec<Person>, TeamError> {
    let mut stmt = tx.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM team_people WHERE account_id = ?1 ORDER BY name COLLATE NOCASE, id"
    ))?;
    let rows = stmt.query_map([account_id], from_row)?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}

fn find(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<Person, TeamError> {
    tx.query_row(
        &format!("SELECT {COLUMNS} FROM team_people WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        from_row,
    )
    .optional()?
    .ok_or(TeamError::NotFound)
}

fn insert(tx: &Transaction<'_>, account_id: &str, p: &Person) -> Result<(), TeamError> {
    tx.execute(
        "INSERT INTO team_people (id, account_id, member_account_id, name, zone, start_minute,
           end_minute, workdays, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            p.id,
            account_id,
            p.member_account_id,
            p.name,
            p.zone,
            p.start_minute,
            p.end_minute,
            days_text(&p.workdays),
            p.created_at,
            p.updated_at
        ],
    )?;
    Ok(())
}

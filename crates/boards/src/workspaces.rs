//! Workspaces and the account's member directory.

use store::Db;
use store::rusqlite::{OptionalExtension, Transaction, params};

use crate::error::{BoardsError, Result, check_name, invalid, not_found};
use crate::model::{Member, MemberPatch, NewMember, Workspace};
use crate::tables::{json_path, touch_board};

pub fn create_workspace(db: &Db, account_id: &str, name: &str) -> Result<Workspace> {
    let name = check_name("name", name)?;
    db.write(|tx| create_workspace_tx(tx, account_id, &name))
}

pub(crate) fn create_workspace_tx(
    tx: &Transaction<'_>,
    account_id: &str,
    name: &str,
) -> Result<Workspace> {
    let id = store::new_id();
    tx.execute(
        "INSERT INTO workspaces (id, account_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![id, account_id, name, store::now_rfc3339()],
    )?;
    Ok(Workspace {
        id,
        name: name.to_owned(),
    })
}

pub fn list_workspaces(db: &Db, account_id: &str) -> Result<Vec<Workspace>> {
    db.read(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT id, name FROM workspaces WHERE account_id = ?1 ORDER BY created_at, id",
        )?;
        let rows = stmt.query_map([account_id], |r| {
            Ok(Workspace {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    })
}

pub fn rename_workspace(
    db: &Db,
    account_id: &str,
    workspace_id: &str,
    name: &str,
) -> Result<Workspace> {
    let name = check_name("name", name)?;
    db.write(|tx| {
        let changed = tx.execute(
            "UPDATE workspaces SET name = ?3 WHERE id = ?1 AND account_id = ?2",
            params![workspace_id, account_id, name],
        )?;
        if changed == 0 {
            return Err(not_found("workspace"));
        }
        Ok(Workspace {
            id: workspace_id.to_owned(),
            name,
        })
    })
}

/// Deletes the workspace with all its boards and their items.
pub fn delete_workspace(db: &Db, account_id: &str, workspace_id: &str) -> Result<()> {
    db.write(|tx| {
        let changed = tx.execute(
            "DELETE FROM workspaces WHERE id = ?1 AND account_id = ?2",
            params![workspace_id, account_id],
        )?;
        if changed == 0 {
            return Err(not_found("workspace"));
        }
        Ok(())
    })
}

/// Fails with `NotFound` unless the workspace exists in the account.
pub fn check_workspace(tx: &Transaction<'_>, account_id: &str, id: &str) -> Result<()> {
    tx.prepare_cached("SELECT 1 FROM workspaces WHERE id = ?1 AND account_id = ?2")?
        .query_row([id, account_id], |_| Ok(()))
        .optional()?
        .ok_or(not_found("workspace"))
}

fn check_email(email: Option<&str>) -> Result<Option<String>> {
    match email.map(str::trim) {
        None | Some("") => Ok(None),
        Some(e) if e.contains('@') && e.len() <= 320 && !e.contains(char::is_whitespace) => {
            Ok(Some(e.to_owned()))
        }
        Some(e) => Err(invalid(format!("\"{e}\" is not an email address"))),
    }
}

pub fn create_member(db: &Db, account_id: &str, member: &NewMember) -> Result<Member> {
    let name = check_name("name", &member.name)?;
    let email = check_email(member.email.as_deref())?;
    db.write(|tx| create_member_tx(tx, account_id, &name, email.as_deref()))
}

pub(crate) fn create_member_tx(
    tx: &Transaction<'_>,
    account_id: &str,
    name: &str,
    email: Option<&str>,
) -> Result<Member> {
    let id = store::new_id();
    tx.execute(
        "INSERT INTO members (id, account_id, name, email, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![id, account_id, name, email, store::now_rfc3339()],
    )?;
    Ok(Member {
        id,
        name: name.to_owned(),
        email: email.map(str::to_owned),
        is_self: false,
    })
}

/// The account's own member (`"self": true`), made now under `name` if the
/// account has none yet: run for every account at start-up and for each new
/// account, so it is idempotent.
pub fn ensure_self_member(db: &Db, account_id: &str, name: &str) -> Result<Member> {
    let name = check_name("name", name)?;
    db.write(|tx| {
        let existing = tx
            .query_row(
                "SELECT id, name, email FROM members WHERE account_id = ?1 AND is_self = 1",
                [account_id],
                |r| {
                    Ok(Member {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        email: r.get(2)?,
                        is_self: true,
                    })
                },
            )
            .optional()?;
        if let Some(member) = existing {
            return Ok(member);
        }
        let mut member = create_member_tx(tx, account_id, &name, None)?;
        tx.execute("UPDATE members SET is_self = 1 WHERE id = ?1", [&member.id])?;
        member.is_self = true;
        Ok(member)
    })
}

/// The id of the account's own member, if it has been made.
pub fn self_member_id(db: &Db, account_id: &str) -> Result<Option<String>> {
    db.read(|tx| self_member_id_tx(tx, account_id))
}

pub(crate) fn self_member_id_tx(tx: &Transaction<'_>, account_id: &str) -> Result<Option<String>> {
    Ok(tx
        .prepare_cached("SELECT id FROM members WHERE account_id = ?1 AND is_self = 1")?
        .query_row([account_id], |r| r.get(0))
        .optional()?)
}

pub fn list_members(db: &Db, account_id: &str) -> Result<Vec<Member>> {
    db.read(|tx| {
        let mut stmt = tx.prepare_cached(
            "SELECT id, name, email, is_self FROM members WHERE account_id = ?1
             ORDER BY created_at, id",
        )?;
        let rows = stmt.query_map([account_id], |r| {
            Ok(Member {
                id: r.get(0)?,
                name: r.get(1)?,
                email: r.get(2)?,
                is_self: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    })
}

pub fn update_member(
    db: &Db,
    account_id: &str,
    member_id: &str,
    patch: &MemberPatch,
) -> Result<Member> {
    let name = patch
        .name
        .as_deref()
        .map(|n| check_name("name", n))
        .transpose()?;
    let email = patch
        .email
        .as_ref()
        .map(|e| check_email(e.as_deref()))
        .transpose()?;
    db.write(|tx| {
        let mut member = tx
            .query_row(
                "SELECT id, name, email, is_self FROM members WHERE id = ?1 AND account_id = ?2",
                [member_id, account_id],
                |r| {
                    Ok(Member {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        email: r.get(2)?,
                        is_self: r.get(3)?,
                    })
                },
            )
            .optional()?
            .ok_or(not_found("member"))?;
        if let Some(name) = name {
            member.name = name;
        }
        if let Some(email) = email {
            member.email = email;
        }
        tx.execute(
            "UPDATE members SET name = ?2, email = ?3 WHERE id = ?1",
            params![member.id, member.name, member.email],
        )?;
        Ok(member)
    })
}

/// Deletes the member and takes them out of every people value of the
/// account's items (bumping those boards' versions), so that no stored value
/// names a member that no longer exists.
pub fn delete_member(db: &Db, account_id: &str, member_id: &str) -> Result<()> {
    db.write(|tx| {
        let is_self: Option<bool> = tx
            .query_row(
                "SELECT is_self FROM members WHERE id = ?1 AND account_id = ?2",
                [member_id, account_id],
                |r| r.get(0),
            )
            .optional()?;
        if is_self == Some(true) {
            // "Assigned to me" would have no one to mean.
            return Err(BoardsError::Conflict {
                message: "The account's own member cannot be deleted.".to_owned(),
            });
        }
        let changed = tx.execute(
            "DELETE FROM members WHERE id = ?1 AND account_id = ?2",
            [member_id, account_id],
        )?;
        if changed == 0 {
            return Err(not_found("member"));
        }
        strip_member(tx, account_id, member_id)
    })
}

fn strip_member(tx: &Transaction<'_>, account_id: &str, member_id: &str) -> Result<()> {
    let people: Vec<(String, String)> = tx
        .prepare(
            "SELECT c.board_id, c.id FROM board_columns c JOIN boards b ON b.id = c.board_id
             WHERE b.account_id = ?1 AND c.type = 'people'",
        )?
        .query_map([account_id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let now = store::now_rfc3339();
    for (board_id, column_id) in people {
        let path = json_path(&column_id);
        // Rebuild the array without the member; an emptied array clears the value.
        let changed = tx.execute(
            "UPDATE items SET updated_at = ?4, vals = CASE
                 WHEN (SELECT count(*) FROM json_each(vals, ?2) WHERE value <> ?3) = 0
                 THEN json_remove(vals, ?2)
                 ELSE json_set(vals, ?2, (SELECT json_group_array(value) FROM json_each(vals, ?2) WHERE value <> ?3))
             END
             WHERE board_id = ?1 AND EXISTS (SELECT 1 FROM json_each(vals, ?2) WHERE value = ?3)",
            params![board_id, path, member_id, now],
        )?;
        if changed > 0 {
            touch_board(tx, &board_id, &now)?;
        }
    }
    Ok(())
}

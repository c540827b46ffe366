//! Triage on the server, then in the store: archive, star, read, spam,
//! move. MOVE where the server has it, else COPY, \Deleted and UID
//! EXPUNGE (EXPUNGE without UIDPLUS). The new UIDs the server reports
//! (COPYUID) move the stored rows along, so a thread keeps its id, bodies
//! and index; without them the destination is synced. A refused command
//! returns the server's words and leaves the store as it was.

use async_imap::imap_proto::rfc4315::UidSetMember;
use async_imap::imap_proto::{Response, ResponseCode};

use crate::imap::{ImapSession, Login, run};
use crate::sync::{Capabilities, Syncer, capabilities};
use crate::{ClientError, Role};

/// What the user did to a thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Archive,
    Star,
    Unstar,
    Read,
    Unread,
    Spam,
    NotSpam,
    Move(String),
    /// Until this time (Unix seconds).
    Snooze {
        until: i64,
    },
}

impl Action {
    /// The action named on the wire (`archive`, `not_spam`, …), with the
    /// time `snooze` needs and the folder `move` needs.
    pub fn parse(
        name: &str,
        until: Option<i64>,
        folder: Option<String>,
    ) -> Result<Action, ClientError> {
        Ok(match name {
            "archive" => Action::Archive,
            "star" => Action::Star,
            "unstar" => Action::Unstar,
            "read" => Action::Read,
            "unread" => Action::Unread,
            "spam" => Action::Spam,
            "not_spam" => Action::NotSpam,
            "move" => Action::Move(
                folder
                    .filter(|f| !f.is_empty())
                    .ok_or_else(|| ClientError::BadAction("move needs a folder".to_owned()))?,
            ),
            "snooze" => Action::Snooze {
                until: until.ok_or_else(|| {
                    ClientError::BadAction("snooze needs a time (until)".to_owned())
                })?,
            },
            other => {
                return Err(ClientError::BadAction(format!("no action {other:?}")));
            }
        })
    }
}

impl Syncer {
    /// Applies `action` to every message of the thread in `folder`;
    /// returns how many it acted on.
    pub async fn apply(
        &self,
        account: &str,
        login: &Login,
        folder: &str,
        thread_id: &str,
        action: &Action,
    ) -> Result<usize, ClientError> {
        if let Action::Snooze { until } = action {
            return self.snooze(account, login, folder, thread_id, *until).await;
        }
        let uids = self.store.thread_uids(account, folder, thread_id)?;
        if uids.is_empty() {
            return Err(ClientError::NoSuchThread(thread_id.to_owned()));
        }
        let flag = match action {
            Action::Star => Some(("\\Flagged", true)),
            Action::Unstar => Some(("\\Flagged", false)),
            Action::Read => Some(("\\Seen", true)),
            Action::Unread => Some(("\\Seen", false)),
            _ => None,
        };
        let mut conn = self.pool.checkout(account, login).await?;
        let label = conn.label.clone();
        let outcome = async {
            let session = conn.session();
            crate::imap::limit(session.select(folder), &label).await??;
            if let Some((flag, on)) = flag {
                store_flag(session, &label, &uids, flag, on).await?;
                self.store.set_flag(account, folder, &uids, flag, on)?;
                return Ok(uids.len());
            }
            let to = match action {
                Action::Archive => self.role_folder(account, Role::Archive)?,
                Action::Spam => self.role_folder(account, Role::Junk)?,
                Action::NotSpam => self.role_folder(account, Role::Inbox)?,
                Action::Move(name) => {
                    self.store
                        .folder(account, name)?
                        .ok_or_else(|| ClientError::NoFolder(name.clone()))?
                        .name
                }
                _ => return Ok(0),
            };
            if to == folder {
                return Ok(0);
            }
            let features = capabilities(session, &label).await?;
            self.move_and_record(
                account, session, &label, &features, folder, &to, &uids, None,
            )
            .await?;
            Ok(uids.len())
        }
        .await;
        conn.keep(outcome)
    }

    pub(crate) fn role_folder(&self, account: &str, role: Role) -> Result<String, ClientError> {
        self.store
            .folder_with_role(account, role)?
            .ok_or_else(|| ClientError::NoFolder(role.as_str().to_owned()))
    }

    /// Moves `uids` of the selected `from` to `to` on the server, then in
    /// the store; returns the (old, new) UID pairs the server reported.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn move_and_record(
        &self,
        account: &str,
        session: &mut ImapSession,
        label: &str,
        features: &Capabilities,
        from: &str,
        to: &str,
        uids: &[u32],
        activity: Option<i64>,
    ) -> Result<Vec<(u32, u32)>, ClientError> {
        let pairs = move_uids(session, label, features, to, uids).await?;
        if pairs.len() == uids.len() {
            self.store.relocate(account, from, to, &pairs, activity)?;
        } else {
            self.store.remove(account, from, uids)?;
            self.sync_session(account, session, label, Some(to)).await?;
        }
        Ok(pairs)
    }
}

async fn store_flag(
    session: &mut ImapSession,
    label: &str,
    uids: &[u32],
    flag: &str,
    on: bool,
) -> Result<(), ClientError> {
    let sign = if on { '+' } else { '-' };
    run(
        session,
        &format!("UID STORE {} {sign}FLAGS.SILENT ({flag})", uid_set(uids)),
        label,
        |_| {},
    )
    .await
}

/// Moves `uids` of the selected folder to `to`; returns the (old, new)
/// pairs of the server's COPYUID (empty without UIDPLUS).
pub(crate) async fn move_uids(
    session: &mut ImapSession,
    label: &str,
    features: &Capabilities,
    to: &str,
    uids: &[u32],
) -> Result<Vec<(u32, u32)>, ClientError> {
    let set = uid_set(uids);
    let mut pairs = Vec::new();
    let mut read = |response: &Response<'_>| {
        let outcome = match response {
            Response::Data { outcome, .. } | Response::Done { outcome, .. } => outcome,
            _ => return,
        };
        if let Some(ResponseCode::CopyUid(_, source, destination)) = &outcome.code {
            let (source, destination) =
                (expand(source, uids.len()), expand(destination, uids.len()));
            if source.len() == destination.len() {
                pairs.extend(source.into_iter().zip(destination));
            }
        }
    };
    if features.r#move {
        run(
            session,
            &format!("UID MOVE {set} {}", quote(to)),
            label,
            &mut read,
        )
        .await?;
    } else {
        run(
            session,
            &format!("UID COPY {set} {}", quote(to)),
            label,
            &mut read,
        )
        .await?;
        store_flag(session, label, uids, "\\Deleted", true).await?;
        let expunge = if features.uidplus {
            format!("UID EXPUNGE {set}")
        } else {
            "EXPUNGE".to_owned()
        };
        run(session, &expunge, label, |_| {}).await?;
    }
    pairs.retain(|(old, _)| uids.contains(old));
    Ok(pairs)
}

/// The UIDs of a COPYUID set, at most `most` (a server cannot make this
/// allocate more than was moved).
fn expand(set: &[UidSetMember], most: usize) -> Vec<u32> {
    let mut out = Vec::new();
    for member in set {
        match member {
            UidSetMember::Uid(uid) => out.push(*uid),
            UidSetMember::UidRange(range) => {
                out.extend(range.clone().take(most.saturating_sub(out.len()) + 1));
            }
        }
        if out.len() > most {
            return Vec::new();
        }
    }
    out
}

/// `1,2,3,7` → `1:3,7`.
pub(crate) fn uid_set(uids: &[u32]) -> String {
    let mut sorted = uids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end.saturating_add(1) {
            i += 1;
            end = sorted[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}:{end}")
        });
        i += 1;
    }
    parts.join(",")
}

/// A mailbox name as an IMAP quoted string.
pub(crate) fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uid_sets_are_compact_and_expansion_is_bounded() {
        assert_eq!(uid_set(&[7, 1, 2, 3, 3]), "1:3,7");
        assert_eq!(uid_set(&[]), "");
        assert_eq!(
            expand(&[UidSetMember::UidRange(1..=3), UidSetMember::Uid(9)], 4),
            [1, 2, 3, 9]
        );
        assert!(expand(&[UidSetMember::UidRange(1..=u32::MAX)], 4).is_empty());
    }

    #[test]
    fn actions_parse_from_their_wire_names() {
        assert_eq!(
            Action::parse("not_spam", None, None).unwrap(),
            Action::NotSpam
        );
        assert_eq!(
            Action::parse("snooze", Some(5), None).unwrap(),
            Action::Snooze { until: 5 }
        );
        assert!(Action::parse("snooze", None, None).is_err());
        assert!(Action::parse("move", None, Some(String::new())).is_err());
        assert!(Action::parse("burn", None, None).is_err());
    }
}

//! The approval buttons: `callback_data` of `a:<token>:allow` or
//! `a:<token>:deny`, which Telegram caps at 64 bytes.
//!
//! The token is the approval's id when it fits (a simple UUID, 32 hex
//! digits, does: 40 bytes in all); otherwise the state keeps a short token
//! for it (`BotState::announce_approval`).

use crate::types::InlineButton;

/// Telegram's limit on a button's `callback_data`, in bytes.
pub const CALLBACK_DATA_LIMIT: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Deny,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Deny => "deny",
        }
    }
}

/// The button's data for `token`, unless it would not fit or could not be
/// read back (a token holding `:`).
pub fn callback_data(token: &str, decision: Decision) -> Option<String> {
    let data = format!("a:{token}:{}", decision.as_str());
    (!token.is_empty() && !token.contains(':') && data.len() <= CALLBACK_DATA_LIMIT).then_some(data)
}

/// Whether an approval id can be its own token: both buttons' data fit.
pub fn fits_as_token(approval_id: &str) -> bool {
    [Decision::Allow, Decision::Deny]
        .into_iter()
        .all(|decision| callback_data(approval_id, decision).is_some())
}

/// The token and decision a pressed button carries.
pub fn parse_callback_data(data: &str) -> Option<(&str, Decision)> {
    let rest = data.strip_prefix("a:")?;
    let (token, decision) = rest.rsplit_once(':')?;
    let decision = match decision {
        "allow" => Decision::Allow,
        "deny" => Decision::Deny,
        _ => return None,
    };
    (!token.is_empty() && !token.contains(':')).then_some((token, decision))
}

/// One row: Allow, Deny. `None` when the token does not fit.
pub fn approval_keyboard(token: &str) -> Option<Vec<Vec<InlineButton>>> {
    let button = |text: &str, decision| {
        callback_data(token, decision).map(|callback_data| InlineButton {
            text: text.to_owned(),
            callback_data,
        })
    };
    Some(vec![vec![
        button("Allow", Decision::Allow)?,
        button("Deny", Decision::Deny)?,
    ]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uuid_fits_and_reads_back() {
        for id in [
            "0192f0c4a1b27c3d8e9f0a1b2c3d4e5f",
            "0192f0c4-a1b2-7c3d-8e9f-0a1b2c3d4e5f",
        ] {
            assert!(fits_as_token(id));
            let keyboard = approval_keyboard(id).unwrap();
            let [allow, deny] = &keyboard[0][..] else {
                panic!("two buttons")
            };
            assert!(allow.callback_data.len() <= CALLBACK_DATA_LIMIT);
            assert_eq!(
                parse_callback_data(&allow.callback_data),
                Some((id, Decision::Allow))
            );
            assert_eq!(
                parse_callback_data(&deny.callback_data),
                Some((id, Decision::Deny))
            );
        }
    }

    #[test]
    fn what_does_not_fit_or_read_back_is_refused() {
        // 64 - "a:" - ":allow" = 56 bytes is the longest token.
        assert!(fits_as_token(&"t".repeat(56)));
        assert!(!fits_as_token(&"t".repeat(57)));
        assert!(approval_keyboard(&"t".repeat(57)).is_none());
        assert!(!fits_as_token("a:b"));
        assert!(!fits_as_token(""));
        for data in [
            "",
            "a:",
            "a::allow",
            "a:x:maybe",
            "b:x:allow",
            "a:x:y:deny",
            "x",
        ] {
            assert_eq!(parse_callback_data(data), None, "{data}");
        }
    }
}

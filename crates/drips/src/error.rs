//! What can go wrong with a scheduled message, a drip or an item, and which
//! request field each bad input is about, so the server's 400 can name it.

/// Every error of this crate. [`DripError::field`] names the request field
/// (as the wire spells it, camelCase) a bad input is about.
#[derive(Debug, thiserror::Error)]
pub enum DripError {
    /// A field of a request is malformed or out of range.
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// Every bad field of a request, each said as a sentence; the first is
    /// the error's own message.
    #[error("{}", .0.first().map_or("a field is wrong", |p| p.message.as_str()))]
    Fields(Vec<automations::FieldProblem>),
    /// A rule or a time zone the schedule code refused (`cron`, `rrule`,
    /// `timeZone`).
    #[error(transparent)]
    Rule(#[from] automations::AutomationError),
    #[error("there is no such scheduled message")]
    MessageNotFound,
    #[error("there is no such drip")]
    DripNotFound,
    #[error("there is no such item in this drip")]
    ItemNotFound,
    /// A drip fed by a folder takes its items from the folder alone.
    #[error("this drip takes its items from its folder {0}: put a file there instead")]
    FolderDrip(String),
    /// A move the state does not allow (pausing a paused drip, resuming a
    /// delivered message).
    #[error("it is {state}: {message}")]
    WrongState {
        state: &'static str,
        message: &'static str,
    },
    /// Release next now found no item waiting.
    #[error("nothing waits in {0}: add an item (or a file to its folder) first")]
    NothingWaiting(String),
    /// A pending item of a folder could not be read for a preview.
    #[error("the item's file cannot be read: {0}")]
    Unreadable(String),
    /// A stored row this crate wrote can no longer be read.
    #[error("a stored {0} is unreadable")]
    Corrupt(&'static str),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl DripError {
    pub(crate) fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        DripError::Invalid {
            field,
            message: message.into(),
        }
    }

    /// The request field a bad input is about (`None` for errors that are
    /// not about one field: not found, a wrong state, storage).
    pub fn field(&self) -> Option<&'static str> {
        match self {
            DripError::Invalid { field, .. } => Some(field),
            DripError::Fields(list) => list.first().map(|p| p.field),
            DripError::Rule(error) => error.field(),
            _ => None,
        }
    }
}

/// The problems found, as the request's error; a refusal of the schedule
/// code that is not about a field comes back as it is.
pub(crate) fn gather(
    problems: &mut automations::Problems,
    error: DripError,
) -> Result<(), DripError> {
    match error {
        DripError::Fields(list) => {
            for p in list {
                problems.add(p.field, p.message);
            }
            Ok(())
        }
        DripError::Invalid { field, message } => {
            problems.add(field, automations::problems::sentence(field, &message));
            Ok(())
        }
        DripError::Rule(error) => Ok(problems.absorb(error)?),
        other => Err(other),
    }
}

impl From<automations::Problems> for DripError {
    fn from(problems: automations::Problems) -> Self {
        DripError::Fields(problems.list().to_vec())
    }
}

impl From<store::rusqlite::Error> for DripError {
    fn from(e: store::rusqlite::Error) -> Self {
        DripError::Store(e.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_their_field() {
        let bad = DripError::invalid("folder", "does not exist");
        assert_eq!(bad.to_string(), "folder: does not exist");
        assert_eq!(bad.field(), Some("folder"));
        let zone = automations::rule::time_zone("Mars/Base").unwrap_err();
        let wrapped = DripError::from(zone);
        assert_eq!(wrapped.field(), Some("timeZone"));
        assert_eq!(DripError::DripNotFound.field(), None);
    }
}

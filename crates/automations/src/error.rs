//! What can go wrong with a recipe, a schedule or a run, and which request
//! field each bad input is about, so the server's 400 can name it.

/// One bad field of a request and what is wrong with it, as a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    /// The request field, as the wire spells it (`cron`, `timeZone`).
    pub field: &'static str,
    pub message: String,
}

/// Every error of this crate. [`AutomationError::field`] names the request
/// field (as the wire spells it, camelCase) a bad input is about.
#[derive(Debug, thiserror::Error)]
pub enum AutomationError {
    /// A field of a request is malformed or out of range.
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// Every bad field of a request, each said as a sentence; the first
    /// is the error's own message.
    #[error("{}", first_message(.0))]
    Fields(Vec<FieldProblem>),
    /// The prompt names placeholders that were given no value.
    #[error("no value for {}", missing_list(.0))]
    MissingValues(Vec<String>),
    /// The account already has a recipe of that name.
    #[error("name: the account already has a recipe named {0:?}")]
    NameTaken(String),
    #[error("there is no such recipe")]
    RecipeNotFound,
    #[error("there is no such schedule")]
    ScheduleNotFound,
    #[error("there is no such run")]
    RunNotFound,
    #[error("there is no such rule")]
    RuleNotFound,
    /// A move the rule's state does not allow.
    #[error("the rule is {state}: {message}")]
    RuleWrongState {
        state: &'static str,
        message: &'static str,
    },
    /// A schedule's tick has its run already: no tick runs twice.
    #[error("that tick of the schedule has its run already")]
    AlreadyRun,
    /// A move the schedule's state does not allow (approving an active
    /// schedule, resuming a pending one).
    #[error("the schedule is {state}: {message}")]
    WrongState {
        state: &'static str,
        message: &'static str,
    },
    /// A stored row this crate wrote can no longer be read.
    #[error("a stored {0} is unreadable")]
    Corrupt(&'static str),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

impl AutomationError {
    pub(crate) fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        AutomationError::Invalid {
            field,
            message: message.into(),
        }
    }

    /// The request field a bad input is about (`None` for errors that are
    /// not about one field: not found, a wrong state, storage).
    pub fn field(&self) -> Option<&'static str> {
        match self {
            AutomationError::Invalid { field, .. } => Some(field),
            AutomationError::Fields(list) => list.first().map(|p| p.field),
            AutomationError::MissingValues(_) => Some("values"),
            AutomationError::NameTaken(_) => Some("name"),
            _ => None,
        }
    }
}

impl From<store::rusqlite::Error> for AutomationError {
    fn from(e: store::rusqlite::Error) -> Self {
        AutomationError::Store(e.into())
    }
}

fn first_message(list: &[FieldProblem]) -> &str {
    list.first()
        .map_or("a field is wrong", |p| p.message.as_str())
}

fn missing_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{{{{{n}}}}}")).collect();
    let noun = if names.len() == 1 {
        "the placeholder"
    } else {
        "the placeholders"
    };
    format!("{noun} {}", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_field_and_the_placeholders() {
        let bad = AutomationError::invalid("cron", "expected five fields");
        assert_eq!(bad.to_string(), "cron: expected five fields");
        assert_eq!(bad.field(), Some("cron"));
        let missing = AutomationError::MissingValues(vec!["branch".into(), "ticket".into()]);
        assert_eq!(
            missing.to_string(),
            "no value for the placeholders {{branch}}, {{ticket}}"
        );
        assert_eq!(missing.field(), Some("values"));
        assert_eq!(AutomationError::RecipeNotFound.field(), None);
    }
}

//! What the rule answers (a notice and its reason), the settings it obeys,
//! and the inbox row a notice becomes.

use inbox::{Action, Category, NewRow};
use sessions::Session;

/// The settings the rule obeys, read by the caller at each turn end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// `autoDetectQuestions`: a reply that asks without the question tool counts.
    pub auto_detect_questions: bool,
    /// `hideRoutineUpdatesFromInbox`: a turn that ends without a question stays out.
    pub hide_routine_updates: bool,
}

/// Why a session needs the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// The turn ended asking the user something.
    Question,
    /// The session failed.
    Failed,
    /// The turn ended with an update and no question.
    Routine,
}

impl Reason {
    /// The row's `reason` as the API shows it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Question => "question",
            Reason::Failed => "failed",
            Reason::Routine => "routine",
        }
    }
}

/// A session needs the user: why, and what the row says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub reason: Reason,
    pub title: String,
    pub body: Option<String>,
}

/// The dedup key's reason part: the same for every notice about a session,
/// so whatever happens next updates its unread row instead of adding one.
const ONE_ROW_PER_SESSION: &str = "session";

/// The inbox row for `notice` about `session`, in `category` (`session` for
/// turn ends; the permission broker's `cli_pending` later).
pub fn session_row(session: &Session, category: Category, notice: &Notice) -> NewRow {
    let mut row = NewRow::new(category, notice.title.clone());
    row.body = notice.body.clone();
    row.reason = Some(notice.reason.as_str().to_owned());
    row.source.session_id = Some(session.id.clone());
    row.actions.push(Action::OpenSession {
        session_id: session.id.clone(),
    });
    row.dedup(ONE_ROW_PER_SESSION)
}

//! Sessions that need the user, in the inbox: when a session's status moves
//! to `waiting_for_input` or `failed`, the `attention` rule reads how that
//! turn ended. Its verdict on a waiting session (asked, or done) is kept
//! with the session (`turnEnd`, what "Needs you" follows on every page)
//! and, when the turn needs the user, the session's one `session` row is
//! added or updated and announced as an `inbox` event. At start, waiting
//! sessions whose turn has no verdict yet are read once, with no row.
//!
//! It listens to the sessions' broadcasts on a task of its own, beside the
//! one that forwards them to the stream, so reading a turn's entries never
//! holds up the `session` and `output` events.

use attention::Rules;
use inbox::Category;
use sessions::{PageFrom, SessionUpdate, Status};

use crate::publish;
use crate::services::App;

/// How much of the transcript's end the rule reads: a turn's question or
/// reply is among its last entries, and a page this size is one short index
/// walk however long the transcript is.
const TURN_END_ENTRIES: u32 = 200;

/// Starts the task; it ends when the server is asked to stop. A burst of
/// updates that outruns it loses those turn ends' rows, which the log says.
pub fn watch_turn_ends(state: &App) {
    let app = state.clone();
    tokio::spawn(async move { judge_unjudged(&app).await });
    publish::on_session_updates(
        state,
        "the inbox",
        ends_a_turn,
        |state, update| async move {
            turn_ended(&state, &update).await;
        },
    );
}

/// Only a move recorded just now counts, so a restart restoring a waiting
/// session, or an activity change, does not raise the same turn again.
fn ends_a_turn(update: &SessionUpdate) -> bool {
    update.moved && matches!(update.status, Status::WaitingForInput | Status::Failed)
}

/// The rules as the settings say now.
fn rules(state: &App) -> Rules {
    Rules {
        auto_detect_questions: state.settings.auto_detect_questions(),
        hide_routine_updates: state.settings.hide_routine_updates_from_inbox(),
    }
}

/// Reads the end of a session's transcript and keeps the rule's verdict on
/// its latest turn when it waits for input; the session and its entries.
async fn judge(
    state: &App,
    account: &str,
    id: &str,
) -> Option<(sessions::Session, Vec<sessions::Entry>)> {
    let read = async {
        let session = state.sessions.get(account, id).await?;
        let page = state
            .sessions
            .entries(account, id, PageFrom::Tail, TURN_END_ENTRIES)
            .await?;
        Ok::<_, sessions::SessionError>((session, page.entries))
    };
    let (session, entries) = match read.await {
        Ok(read) => read,
        Err(error) => {
            tracing::warn!(%error, session_id = id, "cannot read a session's turn end for the inbox");
            return None;
        }
    };
    if session.status == Status::WaitingForInput && !session.archived {
        let asked = attention::needs_you(&session, &entries, rules(state)).is_some();
        if let Err(error) = state
            .sessions
            .record_turn_end(account, id, session.turns, asked)
            .await
        {
            tracing::warn!(%error, session_id = id, "cannot keep how a session's turn ended");
        }
    }
    Some((session, entries))
}

/// A verdict for each waiting session that has none (a demo's, one from
/// before verdicts were kept): its turn was told in the inbox, if at all,
/// when it ended, so this adds no row.
async fn judge_unjudged(state: &App) {
    let waiting = match state.sessions.unjudged_waiting().await {
        Ok(waiting) => waiting,
        Err(error) => {
            tracing::warn!(%error, "cannot list the waiting sessions to read their turn ends");
            return;
        }
    };
    for (account, id) in waiting {
        judge(state, &account, &id).await;
    }
}

async fn turn_ended(state: &App, update: &SessionUpdate) {
    let (account, id) = (&update.account_id, &update.session_id);
    let Some((session, entries)) = judge(state, account, id).await else {
        return;
    };
    let Some(notice) = attention::turn_ended(&session, &entries, rules(state)) else {
        return;
    };
    let row = attention::session_row(&session, Category::Session, &notice);
    let turn = format!("turn-{}-{}", session.id, session.turns);
    crate::push_delivery::needs_you(state, &session, &notice, &turn);
    let inbox = state.inbox.clone();
    let owner = account.clone();
    match tokio::task::spawn_blocking(move || inbox.add(&owner, row)).await {
        Ok(Ok(added)) => {
            publish::inbox_added(state, account, added);
        }
        Ok(Err(error)) => {
            tracing::warn!(%error, session_id = id, "cannot add a session's inbox row");
        }
        Err(error) => {
            tracing::warn!(%error, session_id = id, "the inbox write did not finish");
        }
    }
}

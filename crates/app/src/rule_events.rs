//! Where the rules' events come from, and how an item follows the session
//! a rule started:
//!
//! - board items: the boards' event log (`item_events`), read by sequence
//!   number after each write commits (a board write wakes the reader; it
//!   also looks every minute), from where it stood at start, so history is
//!   never replayed. A status change and a move to another group are events.
//! - sessions: each session's move into finished, failed (or stopped) or
//!   waiting for the user. A session a rule started first brings its item
//!   along: its status (the rule's `finishedStatus` or `failedStatus`) and
//!   the session's last words as its summary.
//! - webhooks: [`App::webhook_delivered`], called by the delivery route.
//! - schedules: the scheduler, as a schedule ticks.

use automations::{Cause, Event, FiringOutcome, ItemFacts, RuleFiring, SessionOutcome};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use attention::asks_a_question;
use sessions::{EntryBody, PageFrom, Session, SessionUpdate, Status};

use crate::error::blocking;
use crate::rule_items::{board, status_label, text_column, write_item};
use crate::services::App;
use crate::work_origins::follow_sessions;

/// Item events read in one go.
const BATCH: u32 = 200;
/// The reader looks this often on the app clock even when no write woke
/// it (a wake-up lost to a race), and looks over the firings whose session
/// has yet to end (a session's end the follower missed when it lagged).
const LOOK_EVERY: time::Duration = time::Duration::MINUTE;
/// The trigger kinds the board reader serves.
const ITEM_KINDS: &[&str] = &["item_status", "item_group"];
/// How far back a session's transcript is read for its last words.
const LAST_ENTRIES: u32 = 40;
/// How much of a session's last words an item's summary keeps.
const MAX_SUMMARY_CHARS: usize = 2_000;
/// Sessions whose last told turn is remembered; past it the memory starts
/// again (at worst one archive is told as a second end).
const MAX_REMEMBERED: usize = 10_000;

impl App {
    /// A delivery to one of the account's webhooks: the rules it fires run
    /// in the background, so the sender has its 202 at once.
    pub fn webhook_delivered(&self, account: &str, webhook_id: &str, title: &str, body: &[u8]) {
        let event = Event::Webhook {
            webhook_id: webhook_id.to_owned(),
            title: title.to_owned(),
            body: serde_json::from_slice(body).unwrap_or(Value::Null),
        };
        let (app, account) = (self.clone(), account.to_owned());
        tokio::spawn(async move { app.fire_rules(&account, event).await });
    }
}

/// Starts the board-event reader and the session follower.
pub(crate) fn start(app: &App) {
    let told = Arc::new(Mutex::new(HashMap::new()));
    follow_sessions(app, "automation rules", move |app, update| {
        let told = told.clone();
        async move { session_moved(&app, update, &told).await }
    });
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        let db = app.db.clone();
        let mut cursor = match blocking(move || boards::last_event_seq(&db)).await {
            Ok(seq) => seq,
            Err(error) => {
                tracing::warn!(%error, "the rules do not follow the boards");
                return;
            }
        };
        // A deadline rather than a fresh minute per wake, so busy boards
        // never put the look over the firings off.
        let mut next_look = app.clock.now();
        loop {
            cursor = read_board_events(&app, cursor).await;
            if app.clock.now() >= next_look {
                follow_unseen_ends(&app).await;
                next_look = app.clock.now() + LOOK_EVERY;
            }
            tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                () = app.rules_wake.notified() => {}
                () = app.clock.sleep_until(next_look) => {}
            }
        }
    });
}

/// Fires the rules of every item event after `cursor`; the new cursor.
async fn read_board_events(app: &App, mut cursor: i64) -> i64 {
    loop {
        let db = app.db.clone();
        let events = match blocking(move || boards::events_after(&db, cursor, BATCH)).await {
            Ok(events) => events,
            Err(error) => {
                tracing::warn!(%error, "the boards' events were not read");
                return cursor;
            }
        };
        let Some(last) = events.last() else {
            return cursor;
        };
        cursor = last.event.seq;
        // Whether each account has an item rule, asked once a batch: an
        // account without one costs no read of its items.
        let mut watching: HashMap<String, bool> = HashMap::new();
        for boards::AccountEvent { account_id, event } in events {
            if !matches!(
                event.kind,
                boards::EventKind::StatusChanged | boards::EventKind::GroupChanged
            ) {
                continue;
            }
            if !watches(app, &mut watching, &account_id).await {
                continue;
            }
            if let Some(event) = item_event(app, &account_id, event).await {
                app.fire_rules(&account_id, event).await;
            }
        }
    }
}

async fn watches(app: &App, watching: &mut HashMap<String, bool>, account: &str) -> bool {
    if let Some(known) = watching.get(account) {
        return *known;
    }
    let (automations, owner) = (app.automations.clone(), account.to_owned());
    let known = blocking(move || automations.watches(&owner, ITEM_KINDS))
        .await
        .unwrap_or(true);
    watching.insert(account.to_owned(), known);
    known
}

/// Brings along the item of every firing whose session ended unseen.
async fn follow_unseen_ends(app: &App) {
    let automations = app.automations.clone();
    let started = match blocking(move || automations.started_firings()).await {
        Ok(started) => started,
        Err(error) => {
            tracing::warn!(%error, "the rules' running sessions were not looked over");
            return;
        }
    };
    for (account, firing) in started {
        if let Some(session) = &firing.session_id {
            follow_if_ended(app, &account, session).await;
        }
    }
}

/// A status change or a move as the rules see it; `None` for an item
/// since deleted.
async fn item_event(app: &App, account: &str, event: boards::ItemEvent) -> Option<Event> {
    let (db, owner, id) = (app.db.clone(), account.to_owned(), event.item_id.clone());
    let item = blocking(move || boards::get_item(&db, &owner, &id))
        .await
        .ok()?;
    let cause = Cause {
        rule_id: event.actor.strip_prefix("rule:").map(str::to_owned),
    };
    let after = event.after.as_str().unwrap_or_default().to_owned();
    let mut facts = ItemFacts {
        board_id: item.board_id,
        item_id: item.id,
        name: item.name,
        group_id: item.group_id,
        values: item.values,
    };
    Some(match event.kind {
        boards::EventKind::GroupChanged => {
            // The group it entered, even if it has moved on since.
            facts.group_id = after;
            Event::ItemGroup { item: facts, cause }
        }
        _ => Event::ItemStatus {
            item: facts,
            column: event.column_id,
            status: after,
            cause,
        },
    })
}

/// How a session's move ends its work, with its last words: failed (or
/// stopped), finished (its process ended, or a turn ended without asking
/// anything), or waiting for the user (a turn ended asking a question, in
/// words or with Claude Code's `AskUserQuestion`). `None` for other moves.
pub(crate) async fn work_outcome(
    app: &App,
    session: &Session,
) -> Option<(SessionOutcome, Option<String>)> {
    let outcome = match session.status {
        Status::Finished => SessionOutcome::Finished,
        Status::Failed | Status::Stopped | Status::Interrupted => SessionOutcome::Failed,
        Status::WaitingForInput => SessionOutcome::NeedsUser,
        _ => return None,
    };
    let page = app
        .sessions
        .entries(
            &session.account_id,
            &session.id,
            PageFrom::Tail,
            LAST_ENTRIES,
        )
        .await
        .ok();
    let entries = page.map(|p| p.entries).unwrap_or_default();
    let last_turn = entries.last().map(|e| e.turn);
    let mut asked = false;
    let mut words = None;
    for entry in entries
        .iter()
        .rev()
        .take_while(|e| Some(e.turn) == last_turn)
    {
        match &entry.body {
            EntryBody::ToolCall { name, .. } if name == "AskUserQuestion" => asked = true,
            EntryBody::Final { text } | EntryBody::Text { text } | EntryBody::Stdout { text }
                if words.is_none() && !text.trim().is_empty() =>
            {
                words = Some(
                    text.trim()
                        .chars()
                        .take(MAX_SUMMARY_CHARS)
                        .collect::<String>(),
                );
            }
            _ => {}
        }
    }
    let outcome = match outcome {
        SessionOutcome::NeedsUser
            if !asked
                && words
                    .as_deref()
                    .is_none_or(|w| asks_a_question(w).is_none()) =>
        {
            SessionOutcome::Finished
        }
        other => other,
    };
    Some((outcome, words))
}

/// A session's move: its rule's item follows it, then the rules hear of
/// it, once per turn (an archive after a finished turn is no second end).
/// A session no rule started, in an account with no `session_end` rule,
/// costs two small reads and no read of its transcript.
async fn session_moved(app: &App, update: SessionUpdate, told: &Mutex<HashMap<String, i64>>) {
    let ends = matches!(
        update.status,
        Status::Finished
            | Status::Failed
            | Status::Stopped
            | Status::Interrupted
            | Status::WaitingForInput
    );
    if !update.moved || !ends {
        return;
    }
    let automations = app.automations.clone();
    let (id, account) = (update.session_id.clone(), update.account_id.clone());
    let found = blocking(move || {
        let firing = automations.firing_for_session(&id)?.map(|(_, f)| f);
        let listened = automations.watches(&account, &["session_end"])?;
        let run = if listened {
            automations.run_for_session(&id)?
        } else {
            None
        };
        Ok::<_, automations::AutomationError>((firing, listened, run))
    })
    .await;
    let (firing, listened, run) = match found {
        Ok(found) => found,
        Err(error) => {
            tracing::warn!(%error, "a session's rule was not looked up");
            return;
        }
    };
    if firing.is_none() && !listened {
        return;
    }
    let Ok(session) = app
        .sessions
        .get(&update.account_id, &update.session_id)
        .await
    else {
        return;
    };
    let Some((outcome, summary)) = work_outcome(app, &session).await else {
        return;
    };
    {
        let Ok(mut told) = told.lock() else {
            return;
        };
        if told.get(&session.id) == Some(&session.turns) {
            return;
        }
        if told.len() > MAX_REMEMBERED {
            told.clear();
        }
        told.insert(session.id.clone(), session.turns);
    }
    let account = session.account_id.clone();
    if let Some(firing) = &firing
        && outcome != SessionOutcome::NeedsUser
    {
        follow_item(app, &account, firing, outcome, summary.as_deref()).await;
    }
    if !listened {
        return;
    }
    let event = Event::SessionEnd {
        session_id: session.id,
        title: session.title.unwrap_or_default(),
        outcome,
        recipe_id: run.map(|run| run.recipe_id),
        summary,
        cause: Cause {
            rule_id: firing.map(|f| f.rule_id),
        },
    };
    app.fire_rules(&account, event).await;
}

/// Brings the item along when the session a firing just started has
/// already ended: its end went by before the firing knew its session.
pub(crate) async fn follow_if_ended(app: &App, account: &str, session_id: &str) {
    let Ok(session) = app.sessions.get(account, session_id).await else {
        return;
    };
    let Some((outcome, summary)) = work_outcome(app, &session).await else {
        return;
    };
    if outcome == SessionOutcome::NeedsUser {
        return;
    }
    let automations = app.automations.clone();
    let id = session_id.to_owned();
    if let Ok(Some((_, firing))) = blocking(move || automations.firing_for_session(&id)).await {
        follow_item(app, account, &firing, outcome, summary.as_deref()).await;
    }
}

/// The item of a firing whose session just ended takes its status and
/// summary; the firing ends done, or failed with why. Once: whichever of
/// the two sightings of the end claims the firing brings the item along.
async fn follow_item(
    app: &App,
    account: &str,
    firing: &RuleFiring,
    outcome: SessionOutcome,
    summary: Option<&str>,
) {
    let (ended, reason) = match outcome {
        SessionOutcome::Finished => (FiringOutcome::Done, None),
        _ => (
            FiringOutcome::Failed,
            Some("its session did not finish".to_owned()),
        ),
    };
    let automations = app.automations.clone();
    let id = firing.id.clone();
    match blocking(move || automations.end_firing(&id, ended, reason.as_deref())).await {
        Ok(true) => {}
        Ok(false) => return,
        Err(error) => {
            tracing::warn!(%error, "a rule's firing was not ended");
            return;
        }
    }
    let (Some(item_id), Some(follow)) = (&firing.item_id, &firing.follow_up) else {
        return;
    };
    if let Err(reason) = item_follows(app, account, firing, item_id, follow, outcome, summary).await
    {
        let automations = app.automations.clone();
        let id = firing.id.clone();
        let recorded = blocking(move || {
            automations.settle_firing(&id, FiringOutcome::Failed, Some(&reason), None)
        })
        .await;
        if let Err(error) = recorded {
            tracing::warn!(%error, "a rule's firing was not settled");
        }
    }
}

async fn item_follows(
    app: &App,
    account: &str,
    firing: &RuleFiring,
    item_id: &str,
    follow: &automations::ItemFollowUp,
    outcome: SessionOutcome,
    summary: Option<&str>,
) -> Result<(), String> {
    let (db, owner, id) = (app.db.clone(), account.to_owned(), item_id.to_owned());
    let item = blocking(move || boards::get_item(&db, &owner, &id))
        .await
        .map_err(|e| format!("its item: {e}"))?;
    let board = board(app, account, &item.board_id).await?;
    let mut values = Map::new();
    let status = match outcome {
        SessionOutcome::Finished => follow.finished_status.as_ref(),
        _ => follow.failed_status.as_ref(),
    };
    if let Some(status) = status {
        let (column, label) = status_label(&board, follow.status_column.as_deref(), status)?;
        values.insert(column, Value::from(label));
    }
    if let (Some(column), Some(summary)) = (
        text_column(&board, follow.summary_column.as_deref(), "summary"),
        summary,
    ) {
        values.insert(column, Value::from(summary));
    }
    if values.is_empty() {
        return Ok(());
    }
    write_item(app, account, &firing.rule_id, item_id, values, None).await
}

//! Reviews on return (`cloudSessionReviewsEnabled`, docs/work.md): when a
//! session ends (finished, failed, stopped, interrupted), here or on a
//! runner, and its piece of work has commits no reviewer has seen, each
//! reviewer that `engines.toml` names reads the branch's diff once (read
//! by the runner's helper for work on a runner), as a utility-model
//! question on that engine (tool-less, confined, on the ledger), and its
//! findings are kept on the work entry. A review with a high-severity
//! finding makes one inbox row. Nothing waits on a review: the branch can
//! be pushed, merged or pruned while it runs.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use inbox::{Category, NewRow, Source};
use sessions::Status;
use utility::{Ask, Feature};

use crate::error::blocking;
use crate::services::App;
use crate::utility_model;

pub(crate) fn start(app: &App) {
    // A piece of work under review is not asked of again until that review
    // is done, however many of its sessions end meanwhile.
    let running: Arc<Mutex<HashSet<String>>> = Arc::default();
    crate::work_origins::follow_sessions(app, "work reviews", move |app, update| {
        let ended = matches!(
            update.status,
            Status::Finished | Status::Failed | Status::Stopped | Status::Interrupted
        );
        if ended && app.settings.cloud_session_reviews_enabled() {
            let running = running.clone();
            tokio::spawn(async move {
                review(&app, &update.account_id, &update.session_id, &running).await;
            });
        }
        async {}
    });
}

/// Reviews the work of session `id`, if it has commits and reviewers that
/// have not seen its head.
async fn review(app: &App, account: &str, id: &str, running: &Mutex<HashSet<String>>) {
    let dir = app.data_dir.clone();
    let reviewers = match blocking(move || sessions::engines::reviewers(&dir)).await {
        Ok(reviewers) => reviewers,
        Err(error) => {
            tracing::warn!(%error, "work reviews: the reviewers in engines.toml cannot be read");
            return;
        }
    };
    if reviewers.is_empty() {
        return;
    }
    let Ok(entries) = app.work_entries(account).await else {
        return;
    };
    let Some(entry) = entries
        .into_iter()
        .find(|e| e.sessions.iter().any(|s| s == id))
    else {
        return;
    };
    if entry.commits == 0 || entry.state == work::State::InProgress {
        return;
    }
    if !running
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(entry.id.clone())
    {
        return;
    }
    match diff_of(app, account, &entry).await {
        Ok(diff) => {
            for (name, spec) in reviewers {
                review_once(app, account, &entry, &diff, &name, &spec).await;
            }
        }
        Err(error) => {
            tracing::warn!(%error, work = entry.id, "work reviews: the diff cannot be read");
        }
    }
    running
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(&entry.id);
}

/// A piece of work's head, its diff since its base, and whether the diff
/// was cut: read here, or by the helper of the runner its checkout is on.
async fn diff_of(
    app: &App,
    account: &str,
    entry: &work::Entry,
) -> Result<(String, String, bool), String> {
    if let Some(runner) = &entry.runner {
        let sessions = app
            .sessions
            .list_records(account)
            .await
            .map_err(|e| e.to_string())?;
        let (_, group) = app
            .runner_work_group(account, &sessions, &entry.id)
            .ok_or_else(|| format!("no work {} on the runner `{runner}`", entry.id))?;
        return app.runner_work_diff(runner, &group.piece).await;
    }
    let base = app
        .work_base(account, &entry.id)
        .await
        .ok_or_else(|| format!("the base of {} is not known", entry.id))?;
    let piece = work::facts::Piece {
        repository: Path::new(&entry.repository).to_owned(),
        branch: entry.branch.clone(),
        base,
        checkout: None,
    };
    blocking(move || work::reviews::diff(&piece).map_err(work::WorkError::from))
        .await
        .map_err(|e| e.to_string())
}

async fn review_once(
    app: &App,
    account: &str,
    entry: &work::Entry,
    (head, diff, cut): &(String, String, bool),
    reviewer: &str,
    spec: &sessions::EngineSpec,
) {
    let db = app.db.clone();
    let (work_id, name, seen_head) = (entry.id.clone(), reviewer.to_owned(), head.clone());
    let seen = blocking(move || {
        work::reviews::reviewed(&db, &work_id, &name, &seen_head).map_err(work::WorkError::from)
    })
    .await;
    match seen {
        Ok(true) => return,
        Ok(false) => {}
        Err(error) => {
            tracing::warn!(%error, work = entry.id, "work reviews: earlier reviews cannot be read");
            return;
        }
    }
    let prompt = work::reviews::question(&entry.branch, diff, *cut);
    let ask = Ask {
        feature: Feature::Review,
        model: None,
        prompt: &prompt,
        budget: utility_model::budget(app, Feature::Review),
    };
    let engine = utility_model::engine_of(reviewer, spec);
    let answer = app
        .utility
        .json_on::<work::reviews::Answer>(&engine, &ask, &work::reviews::schema())
        .await;
    let mut review = work::reviews::Review {
        reviewer: reviewer.to_owned(),
        head: head.clone(),
        at: app.clock.timestamp(),
        findings: Vec::new(),
        error: None,
    };
    match answer {
        Ok((answer, _)) => {
            review.findings = answer
                .findings
                .into_iter()
                .take(work::reviews::MOST_FINDINGS)
                .collect();
        }
        Err(error) => review.error = Some(error.to_string()),
    }
    let db = app.db.clone();
    let (work_id, stored) = (entry.id.clone(), review.clone());
    if let Err(error) = blocking(move || {
        work::reviews::record(&db, &work_id, &stored).map_err(work::WorkError::from)
    })
    .await
    {
        tracing::warn!(%error, work = entry.id, "work reviews: a review was not kept");
        return;
    }
    if review.high() > 0 {
        tell(app, account, entry, &review).await;
    }
}

/// One inbox row for a review that found something that must not merge.
async fn tell(app: &App, account: &str, entry: &work::Entry, review: &work::reviews::Review) {
    let high = review.high();
    let mut row = NewRow::new(
        Category::Session,
        format!(
            "{} found {high} high-severity problem{} in {}",
            review.reviewer,
            if high == 1 { "" } else { "s" },
            entry.branch
        ),
    );
    row.body = Some(
        review
            .findings
            .iter()
            .filter(|f| f.severity == work::reviews::Severity::High)
            .map(|f| match f.line {
                Some(line) => format!("{}:{line}: {}", f.file, f.text),
                None => format!("{}: {}", f.file, f.text),
            })
            .collect::<Vec<_>>()
            .join("\n"),
    );
    row.source = Source {
        session_id: Some(entry.session_id.clone()),
        ..Source::default()
    };
    let row = row.dedup(&format!("review of {} at {}", entry.id, review.head));
    let inbox = app.inbox.clone();
    let owner = account.to_owned();
    match blocking(move || inbox.add(&owner, row)).await {
        Ok(added) => {
            crate::publish::inbox_added(app, account, added);
        }
        Err(error) => tracing::warn!(%error, "work reviews: the inbox row was not added"),
    }
}

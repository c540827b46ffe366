//! Tells the inbox of agent work stranded for a day (docs/work.md): at
//! start and every ten minutes on the app clock, each account's work is read (from the
//! cached facts) and each piece stranded for a day that the inbox has not
//! heard of goes into one row per repository, folded as more of it
//! strands ("3 pieces of agent work stranded in app/api for a day").

use inbox::{Category, NewRow, Source};

use crate::error::blocking;
use crate::services::App;

const LOOK_EVERY: time::Duration = time::Duration::minutes(10);

pub(crate) fn start(app: &App) {
    let app = app.clone();
    let mut stop = app.stop.subscribe();
    tokio::spawn(async move {
        // The first look is at start: it also fills the index, so the
        // first page of work after a restart reads cached facts instead of
        // running git for every piece while the user waits.
        loop {
            if let Err(e) = look(&app).await {
                tracing::warn!("stranded work was not looked for: {e}");
            }
            tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                () = app.clock.sleep(LOOK_EVERY) => {}
            }
        }
    });
}

async fn look(app: &App) -> crate::error::AppResult<()> {
    let store = app.accounts.clone();
    let accounts = blocking(move || store.list()).await?;
    let db = app.db.clone();
    let told = blocking(move || {
        work::notices::told(&db, work::notices::STRANDED).map_err(work::WorkError::from)
    })
    .await?;
    let now = app.clock.now().unix_timestamp();
    for account in accounts {
        let entries = app.work_entries(&account.id).await?;
        let stranded = work::notices::newly_stranded(&entries, &told, now);
        for (repository, pieces) in stranded {
            tell(app, &account.id, &repository, &pieces).await?;
            let db = app.db.clone();
            let ids: Vec<String> = pieces.iter().map(|p| p.id.clone()).collect();
            blocking(move || {
                work::notices::tell(&db, work::notices::STRANDED, &ids, now)
                    .map_err(work::WorkError::from)
            })
            .await?;
        }
    }
    Ok(())
}

async fn tell(
    app: &App,
    account: &str,
    repository: &str,
    pieces: &[&work::Entry],
) -> crate::error::AppResult<()> {
    let name = short(repository);
    let mut row = NewRow::new(
        Category::Session,
        format!("Agent work stranded in {name} for a day"),
    );
    row.body = Some(
        pieces
            .iter()
            .map(|p| match &p.reason {
                Some(reason) => format!("{}: {reason}", p.branch),
                None => p.branch.clone(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
    );
    row.source = Source {
        session_id: pieces.first().map(|p| p.session_id.clone()),
        ..Source::default()
    };
    let row = row.dedup(&format!("stranded work in {repository}"));
    let inbox = app.inbox.clone();
    let owner = account.to_owned();
    let count = u32::try_from(pieces.len()).unwrap_or(u32::MAX);
    let added = blocking(move || {
        inbox.add_counted(&owner, row, count, &|total| {
            (total > 1)
                .then(|| format!("{total} pieces of agent work stranded in {name} for a day"))
        })
    })
    .await?;
    crate::publish::inbox_added(app, account, added);
    Ok(())
}

/// The last two folders of a repository's path: enough to tell it apart.
pub(crate) fn short(repository: &str) -> String {
    let parts: Vec<&str> = repository
        .trim_end_matches('/')
        .rsplit('/')
        .take(2)
        .collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

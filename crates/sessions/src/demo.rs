//! Agent sessions for `switchboard serve --demo`: four that finished, one
//! that failed, one waiting for an answer, each with a short transcript, and
//! one whose first prompt is still queued, so the supervisor runs its turn on
//! the demo engine as the server starts and the app opens on a running agent.
//!
//! They are written the way a turn writes them (the session row and its
//! status moves, the prompt consumed by turn 1, typed entries with the reply
//! text beside them, the engine's cost and tokens, the session's activity),
//! so the sessions page lists and opens them like any other and the waiting
//! one takes a follow-up. No engine ran to write them; they name the
//! built-in demo engine (`engines::demo_spec`, a scripted stand-in for
//! Claude Code), so a follow-up runs a real turn without any model or
//! `engines.toml`. The finished ones are archived: archiving a session that
//! waits is the only way one finishes. Each step took its own time, and a
//! command that failed is stored as Claude Code reports one: an error result
//! whose text starts `Exit code N`.
//!
//! Each session works in its repository's folder under the folder the
//! caller names ([`DemoSeed::seed_in`]), so the sessions page's Folder
//! agrees with the Repository of the agent task that links to it. Those
//! folders are made real git repositories (`git`), and the sessions that
//! changed code each have a worktree of their own on a branch, left in the
//! state its session would have left it, so the Work page shows work in
//! progress, stranded, waiting on review, landed and turned down.

mod git;
mod scripts;

use std::path::{Path, PathBuf};

use serde_json::json;
use store::Db;
use store::rusqlite::Transaction;
use time::{Duration, OffsetDateTime};

use self::scripts::{DAY, End, SCRIPTS, Script, Step};
use crate::activity::Tracker;
use crate::adapters::TurnMeta;
use crate::db::{self, NewSession};
use crate::engines::{self, EngineSpec};
use crate::error::{Result, SessionError};
use crate::model::{Activity, EntryBody, InputSource, Status, TodoItem};
use crate::pages::{self, Piece};
use crate::{isolation, schema};

/// One session the demo made, for the board items that link to it.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoSession {
    pub id: String,
    pub title: String,
    pub prompt: String,
    /// `finished` (archived), `failed`, `waiting_for_input`, or `queued`:
    /// its turn starts with the supervisor.
    pub status: Status,
    /// When its turn ended (for the queued one, when it was asked for).
    pub ended_at: OffsetDateTime,
    /// The repository it works in (`acme/web`), whose folder is its own
    /// (or a worktree of it).
    pub repository: String,
}

/// For whom, where and when the demo sessions are made.
pub struct DemoSeed<'a> {
    pub account_id: &'a str,
    /// A session started without a folder runs in the home folder, else here.
    pub data_dir: &'a Path,
    /// The engine the sessions are stored with, named
    /// [`engines::DEMO_ENGINE`]: the demo engine, whose turns answer
    /// their follow-ups.
    pub engine: &'a EngineSpec,
    pub now: OffsetDateTime,
    /// The ceilings a spawn stores with each session (shown, never enforced).
    pub max_dollars_per_session: f64,
    pub max_turns_per_session: u32,
}

/// The repositories the demo sessions work in.
const REPOSITORIES: [&str; 2] = ["acme/platform", "acme/web"];

impl DemoSeed<'_> {
    /// The folders the demo sessions work in under `projects`, one per
    /// repository (`projects/acme/web`): the caller makes them, since a
    /// session's folder must exist for its engine to start there.
    pub fn folders(projects: &Path) -> Vec<PathBuf> {
        REPOSITORIES.iter().map(|r| projects.join(r)).collect()
    }

    /// [`seed_demo`], each session in its repository's folder under
    /// `projects` (one that does not exist leaves it in the home folder).
    pub fn seed_in(&self, db: &Db, projects: &Path) -> Result<Vec<DemoSession>> {
        seed(db, self, Some(projects))
    }
}

/// Writes the demo sessions of `seed.account_id` and returns them, oldest
/// first, all in the home folder. Runs before the supervisor starts, so it
/// opens the feature's tables itself; the supervisor then restores the
/// waiting one as it restores any session a previous server left waiting,
/// and starts the queued one.
pub fn seed_demo(db: &Db, seed: &DemoSeed<'_>) -> Result<Vec<DemoSession>> {
    self::seed(db, seed, None)
}

fn seed(db: &Db, seed: &DemoSeed<'_>, projects: Option<&Path>) -> Result<Vec<DemoSession>> {
    db.migrate(schema::MIGRATIONS)?;
    let spec_json = serde_json::to_string(seed.engine)
        .map_err(|e| SessionError::InvalidInput(e.to_string()))?;
    let home = crate::supervisor::resolve_cwd(seed.data_dir, None)?;
    let folder = |repository: &str| {
        projects
            .map(|p| p.join(repository))
            .filter(|p| p.is_dir())
            .map_or_else(|| home.clone(), |p| p.to_string_lossy().into_owned())
    };
    let ids: Vec<String> = SCRIPTS.iter().map(|_| store::new_id()).collect();
    let worktrees = projects.map_or_else(Vec::new, |p| make_worktrees(seed, p, &ids));
    db.write(|tx| {
        SCRIPTS
            .iter()
            .zip(&ids)
            .enumerate()
            .map(|(index, (script, id))| {
                let made = worktrees.iter().find(|(i, _)| *i == index).map(|(_, m)| m);
                let cwd = made.map_or_else(|| folder(script.repository), |m| m.cwd.clone());
                let session = write_session(tx, seed, &spec_json, id, &cwd, index, script)?;
                if let Some(made) = made {
                    isolation::insert_worktree(tx, id, &made.record)?;
                    if made.record.removed {
                        isolation::set_worktree_outcome(tx, id, true, None)?;
                    }
                }
                Ok(session)
            })
            .collect()
    })
}

/// Makes the demo's repositories under `projects` and a worktree for each
/// session that changed code, by the session's index: one thread per
/// repository, as git's runs add up. What git refuses is logged, and that
/// session works in its plain folder.
fn make_worktrees(seed: &DemoSeed<'_>, projects: &Path, ids: &[String]) -> Vec<(usize, git::Made)> {
    std::thread::scope(|scope| {
        let threads: Vec<_> = REPOSITORIES
            .into_iter()
            .map(|repository| scope.spawn(move || make_repository(seed, projects, ids, repository)))
            .collect();
        threads
            .into_iter()
            .flat_map(|thread| thread.join().unwrap_or_default())
            .collect()
    })
}

/// [`make_worktrees`] for one repository.
fn make_repository(
    seed: &DemoSeed<'_>,
    projects: &Path,
    ids: &[String],
    repository: &str,
) -> Vec<(usize, git::Made)> {
    let first = seed.now - Duration::minutes(FIRST_COMMIT_AGO);
    match git::make_repository(projects, repository, first) {
        Ok(true) => {}
        Ok(false) => return Vec::new(),
        Err(error) => {
            tracing::warn!(%repository, %error, "the demo repository is a plain folder");
            return Vec::new();
        }
    }
    let folder = projects.join(repository);
    SCRIPTS
        .iter()
        .zip(ids)
        .enumerate()
        .filter(|(_, (script, _))| script.repository == repository)
        .filter_map(|(index, (script, id))| {
            let change = script.change.as_ref()?;
            let at = ended_at(script, seed.now);
            match git::make_worktree(seed.data_dir, &folder, id, change, at) {
                Ok(made) => Some((index, made)),
                Err(error) => {
                    tracing::warn!(title = script.title, %error, "the demo session works without its worktree");
                    None
                }
            }
        })
        .collect()
}

/// When a script's turn ended (when it was asked for, for the queued one).
fn ended_at(script: &Script, now: OffsetDateTime) -> OffsetDateTime {
    let started = now - Duration::minutes(script.started_ago);
    let last = entries(script).last().map_or(2, |(second, _)| *second);
    started + Duration::seconds(last)
}

/// How long before now the demo repositories' first commit was made: before
/// the oldest session started.
const FIRST_COMMIT_AGO: i64 = 5 * DAY;

/// A believable process id for the turn's status move.
const FIRST_PID: u32 = 48_213;

fn write_session(
    tx: &Transaction<'_>,
    seed: &DemoSeed<'_>,
    engine_spec: &str,
    id: &str,
    cwd: &str,
    index: usize,
    script: &Script,
) -> Result<DemoSession> {
    let started = seed.now - Duration::minutes(script.started_ago);
    let at = |seconds: i64| clock::timestamp(started + Duration::seconds(seconds));
    db::insert_session(
        tx,
        &NewSession {
            id,
            account_id: seed.account_id,
            engine: engines::DEMO_ENGINE,
            engine_kind: seed.engine.kind.as_str(),
            engine_spec,
            title: Some(script.title),
            cwd,
            prompt: script.prompt,
            status: if matches!(script.end, End::Queued) {
                Status::Queued
            } else {
                Status::Starting
            },
            agent_driven: false,
            parent_id: None,
            starts_at: None,
            follow_up_added: None,
            first_added: None,
            max_dollars: seed.max_dollars_per_session,
            max_turns: i64::from(seed.max_turns_per_session),
            reason: "spawned",
            trigger: None,
            permission_level: None,
            now: &at(0),
            forked_from: None,
            fork_engine_session_id: None,
            runner: runners::LOCAL,
            awaiting_approval: false,
        },
    )?;
    let made = |status, ended_at| DemoSession {
        id: id.to_owned(),
        title: script.title.to_owned(),
        prompt: script.prompt.to_owned(),
        status,
        ended_at,
        repository: script.repository.to_owned(),
    };
    if matches!(script.end, End::Queued) {
        return Ok(made(Status::Queued, started));
    }
    let turn = db::take_input(tx, id, &at(1))?
        // The prompt was queued just above.
        .ok_or(SessionError::NotFound)?
        .turn;
    let pid = FIRST_PID + u32::try_from(index).unwrap_or_default() * 1_379;
    db::set_status(
        tx,
        id,
        Status::Running,
        &format!("turn {turn} started (pid {pid})"),
        &at(2),
    )?;
    let input = EntryBody::Input {
        text: script.prompt.to_owned(),
        source: InputSource::Prompt,
    };
    pages::append(tx, id, turn, &at(1), vec![Piece::entry(input)])?;
    let entries = entries(script);
    let mut tracker = Tracker::default();
    entries.iter().for_each(|(_, e)| tracker.observe(e));
    let ended_after = entries.last().map_or(2, |(second, _)| *second);
    let ended = started + Duration::seconds(ended_after);
    for (second, piece) in pieces(entries) {
        pages::append(tx, id, turn, &at(second), vec![piece])?;
    }
    let finished_at = clock::timestamp(ended);
    if let Some((kind, text)) = tracker.current() {
        let activity = Activity {
            kind,
            text,
            at: finished_at.clone(),
        };
        pages::set_activity(tx, id, &activity)?;
    }
    let meta = TurnMeta {
        // A conversation id as Claude Code's would be, so a follow-up
        // resumes it (the demo engine takes an id it has not seen as a
        // conversation that began elsewhere).
        engine_session_id: Some(format!("demo-{id}")),
        cost_usd: Some(script.cost_usd),
        engine_turns: Some(script.engine_turns),
        input_tokens: Some(script.tokens[0]),
        cached_input_tokens: Some(script.tokens[1]),
        output_tokens: Some(script.tokens[2]),
        model: Some("claude-sonnet-4-5".to_owned()),
        ..TurnMeta::default()
    };
    db::save_meta(tx, id, turn, &meta)?;
    let status = match script.end {
        End::Failed(message) => {
            db::end_turn(tx, id, turn, "failed", Some(message), Some(1), &finished_at)?;
            db::set_status(tx, id, Status::Failed, message, &finished_at)?;
            Status::Failed
        }
        End::Finished(_) | End::Waiting(_) | End::Queued => {
            db::end_turn(tx, id, turn, "done", None, Some(0), &finished_at)?;
            db::set_status(tx, id, Status::WaitingForInput, "turn ended", &finished_at)?;
            Status::WaitingForInput
        }
    };
    let status = if let End::Finished(_) = script.end {
        // Read and archived a while after it ended.
        let archived_at = clock::timestamp(ended + Duration::minutes(35));
        db::set_status(tx, id, Status::Finished, "archived", &archived_at)?;
        db::set_archived(tx, id, &archived_at)?;
        Status::Finished
    } else {
        status
    };
    Ok(made(status, ended))
}

/// The seconds a step waits for the model before its tool is called: not
/// all alike, as no two model calls are.
fn thinking(n: usize) -> i64 {
    const GAPS: [i64; 5] = [4, 11, 6, 17, 8];
    GAPS[n % GAPS.len()]
}

/// Step `n`'s entries: the first after the seconds it waited, and for a
/// tool, its result after the seconds the tool ran.
fn step_entries(n: usize, step: &Step) -> (i64, EntryBody, Option<(i64, EntryBody)>) {
    let tool_id = Some(format!("toolu_demo_{n:02}"));
    let tool = |name: &str, input, took: i64, output: String, is_error| {
        let name = name.to_owned();
        let call = EntryBody::ToolCall {
            tool_id: tool_id.clone(),
            name,
            input,
        };
        let result = EntryBody::ToolResult {
            tool_id: tool_id.clone(),
            output,
            is_error,
        };
        (thinking(n), call, Some((took, result)))
    };
    let own = |text: &str| text.to_owned();
    match *step {
        Step::Run(took, command, output) => tool(
            "Bash",
            json!({ "command": command }),
            took,
            own(output),
            false,
        ),
        // Claude Code's words for a command that failed.
        Step::Fail(took, command, code, output) => {
            let output = format!("Exit code {code}\n{output}");
            tool("Bash", json!({ "command": command }), took, output, true)
        }
        Step::Read(took, path, output) => tool(
            "Read",
            json!({ "file_path": path }),
            took,
            own(output),
            false,
        ),
        Step::Edit(took, path, old, new) => {
            let input = json!({ "file_path": path, "old_string": old, "new_string": new });
            let output = format!("The file {path} has been updated.");
            tool("Edit", input, took, output, false)
        }
        Step::Say(after, text) => (after, EntryBody::Text { text: own(text) }, None),
        Step::Think(after, text) => (after, EntryBody::Thinking { text: own(text) }, None),
        Step::Todo(after, items) => {
            let items = items
                .iter()
                .map(|&(text, status)| TodoItem {
                    text: own(text),
                    status,
                })
                .collect();
            (after, EntryBody::Todo { items }, None)
        }
    }
}

/// The turn's entries as Claude Code's adapter makes them, in order, each
/// with the second of the turn it came at (the prompt came at 1).
fn entries(script: &Script) -> Vec<(i64, EntryBody)> {
    let mut out = Vec::new();
    let mut now = 2;
    for (n, step) in script.steps.iter().enumerate() {
        let (after, first, second) = step_entries(n, step);
        now += after;
        out.push((now, first));
        if let Some((took, result)) = second {
            now += took;
            out.push((now, result));
        }
    }
    // The last message takes the longest to write.
    now += 26;
    match script.end {
        End::Finished(text) | End::Waiting(text) => {
            let text = text.to_owned();
            out.push((now, EntryBody::Text { text: text.clone() }));
            out.push((now, EntryBody::Final { text }));
        }
        End::Failed(message) => {
            let message = message.to_owned();
            out.push((now, EntryBody::Error { message }));
        }
        End::Queued => {}
    }
    out
}

/// The rows of the turn's flushes, each at its second: the typed entries,
/// and with the last of them the reply text (the turn's prose, which only
/// the plain transcript shows).
fn pieces(entries: Vec<(i64, EntryBody)>) -> Vec<(i64, Piece)> {
    let reply: Vec<&str> = entries
        .iter()
        .filter_map(|(_, e)| match e {
            EntryBody::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let reply = Piece {
        stream: "reply",
        text: reply.join("\n\n"),
        entry: None,
    };
    let last = entries.last().map_or(2, |(second, _)| *second);
    entries
        .into_iter()
        .map(|(second, entry)| (second, Piece::entry(entry)))
        .chain(std::iter::once((last, reply)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::PageFrom;

    fn seed_at<'a>(dir: &'a Path, engine: &'a EngineSpec, now: OffsetDateTime) -> DemoSeed<'a> {
        DemoSeed {
            account_id: "owner",
            data_dir: dir,
            engine,
            now,
            max_dollars_per_session: 5.0,
            max_turns_per_session: 50,
        }
    }

    #[test]
    fn the_demo_sessions_read_back_like_sessions_that_ran() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        let now = time::macros::datetime!(2026-03-10 12:00 UTC);
        let engine = engines::demo_spec(Path::new("/usr/bin/switchboard"));
        let made = seed_demo(&db, &seed_at(dir.path(), &engine, now)).unwrap();
        let statuses: Vec<Status> = made.iter().map(|s| s.status).collect();
        assert_eq!(
            statuses,
            [
                Status::Finished,
                Status::Finished,
                Status::Finished,
                Status::Finished,
                Status::Failed,
                Status::WaitingForInput,
                Status::Queued,
            ]
        );
        assert!(made.iter().all(|s| s.ended_at <= now));
        let listed = db
            .read(|tx| crate::remembered::Remembered::default().list(tx, "owner"))
            .unwrap();
        assert_eq!(listed.len(), made.len());
        for demo in made.iter().filter(|s| s.status != Status::Queued) {
            let session = listed.iter().find(|s| s.id == demo.id).unwrap();
            assert_eq!(session.title.as_deref(), Some(demo.title.as_str()));
            assert_eq!(session.status, demo.status);
            assert_eq!(session.archived, demo.status == Status::Finished);
            assert_eq!(session.turns, 1);
            assert_eq!(session.engine, engines::DEMO_ENGINE);
            assert!(
                session.engine_session_id.is_some(),
                "a follow-up resumes it"
            );
            assert!(session.cost_usd.unwrap() > 0.0);
            assert!(session.activity.is_some());
            let page = db
                .read(|tx| pages::page(tx, &demo.id, PageFrom::After(0), 100))
                .unwrap();
            assert!(matches!(
                page.entries.first().map(|e| &e.body),
                Some(EntryBody::Input { .. })
            ));
            let last = page.entries.last().map(|e| &e.body);
            match demo.status {
                Status::Failed => assert!(matches!(last, Some(EntryBody::Error { .. }))),
                _ => assert!(matches!(last, Some(EntryBody::Final { .. }))),
            }
            let turns = db.read(|tx| db::turns(tx, &demo.id)).unwrap();
            assert!(turns[0].ended_at.is_some() && !turns[0].output.is_empty());
        }
        // The supervisor restores the waiting one and starts the queued one.
        let leftovers = db.read(db::leftovers).unwrap();
        let mut left: Vec<Status> = leftovers.iter().map(|l| l.status).collect();
        left.sort_by_key(|s| s.as_str());
        assert_eq!(left, [Status::Queued, Status::WaitingForInput]);
        let queued = &made[6];
        let pending = db.read(|tx| db::pending_inputs(tx, &queued.id)).unwrap();
        assert_eq!(pending, 1, "its prompt waits for the supervisor");
    }

    #[test]
    fn steps_take_their_own_time_and_failed_commands_say_their_exit_code() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        let now = time::macros::datetime!(2026-03-10 12:00 UTC);
        let engine = engines::demo_spec(Path::new("/usr/bin/switchboard"));
        let made = seed_demo(&db, &seed_at(dir.path(), &engine, now)).unwrap();
        let failed = made.iter().find(|s| s.status == Status::Failed).unwrap();
        let page = db
            .read(|tx| pages::page(tx, &failed.id, PageFrom::After(0), 100))
            .unwrap();
        let mut took = Vec::new();
        let mut calls = std::collections::HashMap::new();
        let mut errors = Vec::new();
        for entry in &page.entries {
            let at = entry.at.as_deref().unwrap();
            let at =
                OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).unwrap();
            match &entry.body {
                EntryBody::ToolCall { tool_id, .. } => {
                    calls.insert(tool_id.clone(), at);
                }
                EntryBody::ToolResult {
                    tool_id,
                    is_error,
                    output,
                    ..
                } => {
                    took.push(at - calls[tool_id]);
                    if *is_error {
                        errors.push(output.clone());
                    }
                }
                _ => {}
            }
        }
        let mut distinct = took.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), took.len(), "{took:?}");
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors.iter().all(|e| e.starts_with("Exit code 1\n")));
    }

    #[test]
    fn each_session_works_in_its_repositorys_folder_or_a_worktree_of_it() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        let projects = dir.path().join("projects");
        for folder in DemoSeed::folders(&projects) {
            std::fs::create_dir_all(folder).unwrap();
        }
        let engine = engines::demo_spec(Path::new("/usr/bin/switchboard"));
        let now = time::macros::datetime!(2026-03-10 12:00 UTC);
        let made = seed_at(dir.path(), &engine, now)
            .seed_in(&db, &projects)
            .unwrap();
        let listed = db
            .read(|tx| crate::remembered::Remembered::default().list(tx, "owner"))
            .unwrap();
        let mut worktrees = 0;
        for demo in &made {
            let session = listed.iter().find(|s| s.id == demo.id).unwrap();
            let folder = projects.join(&demo.repository);
            let Some(worktree) = &session.worktree else {
                assert_eq!(Path::new(&session.cwd), folder, "{}", demo.title);
                continue;
            };
            worktrees += 1;
            let root = std::fs::canonicalize(&folder).unwrap();
            assert_eq!(Path::new(&worktree.repository), root, "{}", demo.title);
            assert_eq!(Path::new(&session.cwd), Path::new(&worktree.path));
            let branch = format!("refs/heads/{}", worktree.branch);
            let found = worktrees::git::run(&folder, ["rev-parse", "--verify", "--quiet", &branch]);
            assert!(found.unwrap().status.success(), "no branch {branch}");
            // Archiving took the clean worktrees of the finished ones away.
            assert_eq!(worktree.removed, demo.status == Status::Finished);
            assert_eq!(Path::new(&worktree.path).is_dir(), !worktree.removed);
        }
        assert_eq!(worktrees, 5);
        assert!(made.iter().any(|s| s.repository == "acme/web"));
    }

    #[test]
    fn a_folder_that_is_a_repository_already_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        let projects = dir.path().join("projects");
        let engine = engines::demo_spec(Path::new("/usr/bin/switchboard"));
        let now = time::macros::datetime!(2026-03-10 12:00 UTC);
        let seed = seed_at(dir.path(), &engine, now);
        seed.seed_in(&db, &projects).unwrap();
        let head = |repository: &str| {
            worktrees::git::checked(&projects.join(repository), ["rev-parse", "HEAD"]).unwrap()
        };
        let before = head("acme/platform");
        let again = seed.seed_in(&db, &projects).unwrap();
        assert_eq!(head("acme/platform"), before);
        let listed = db
            .read(|tx| crate::remembered::Remembered::default().list(tx, "owner"))
            .unwrap();
        for demo in &again {
            let session = listed.iter().find(|s| s.id == demo.id).unwrap();
            assert!(session.worktree.is_none(), "{}", demo.title);
        }
    }
}

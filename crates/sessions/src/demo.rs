//! Agent sessions for `switchboard serve --demo`: three that finished, one
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
//! agrees with the Repository of the agent task that links to it.

use std::path::{Path, PathBuf};

use serde_json::json;
use store::Db;
use store::rusqlite::Transaction;
use time::{Duration, OffsetDateTime};

use crate::activity::Tracker;
use crate::adapters::TurnMeta;
use crate::db::{self, NewSession};
use crate::engines::{self, EngineSpec};
use crate::error::{Result, SessionError};
use crate::model::{Activity, EntryBody, InputSource, Status, TodoItem, TodoStatus};
use crate::pages::{self, Piece};
use crate::schema;

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
    /// The repository it works in (`acme/web`), whose folder is its own.
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
    db.write(|tx| {
        SCRIPTS
            .iter()
            .enumerate()
            .map(|(index, script)| {
                let cwd = folder(script.repository);
                write_session(tx, seed, &spec_json, &cwd, index, script)
            })
            .collect()
    })
}

/// How a demo session ends.
enum End {
    /// The turn's final message; the user read it and archived the session.
    Finished(&'static str),
    /// The engine's failure, as Claude Code reports it.
    Failed(&'static str),
    /// The final message asks the user something.
    Waiting(&'static str),
    /// Not begun: its prompt waits for the supervisor, which runs the turn
    /// on the demo engine (whose script for it takes a minute or two).
    Queued,
}

/// One step of a transcript, made into Claude Code's entries. The number
/// is seconds: for prose, a plan or thinking, the time before it came; for
/// a tool, how long it ran.
enum Step {
    Say(i64, &'static str),
    Think(i64, &'static str),
    Todo(i64, &'static [(&'static str, TodoStatus)]),
    /// A command that passed, and its output.
    Run(i64, &'static str, &'static str),
    /// A command that exited with a code other than 0, and its output.
    Fail(i64, &'static str, i32, &'static str),
    Read(i64, &'static str, &'static str),
    Edit(i64, &'static str, &'static str, &'static str),
}

struct Script {
    title: &'static str,
    prompt: &'static str,
    repository: &'static str,
    /// Minutes before now the session started.
    started_ago: i64,
    steps: &'static [Step],
    end: End,
    cost_usd: f64,
    /// Model calls, then input tokens (cached ones included), the cached part, output tokens.
    engine_turns: i64,
    tokens: [i64; 3],
}

const DAY: i64 = 24 * 60;

const SCRIPTS: [Script; 6] = [
    Script {
        title: "Triage flaky CI jobs",
        prompt: "Find the CI jobs that failed on main this week without a code change, say why each one is flaky, and fix the ones you can.",
        repository: "acme/platform",
        started_ago: 3 * DAY + 130,
        steps: &[
            Step::Todo(
                9,
                &[
                    (
                        "List this week's failed runs on main",
                        TodoStatus::InProgress,
                    ),
                    ("Group the failures by cause", TodoStatus::Pending),
                    ("Fix what can be fixed here", TodoStatus::Pending),
                ],
            ),
            Step::Run(
                3,
                "gh run list --branch main --status failure --limit 20",
                "integration  main  push  2h   #4821\nintegration  main  push  9h   #4817\ne2e-web      main  push  1d   #4799\nintegration  main  push  2d   #4788",
            ),
            Step::Say(
                48,
                "Three of the four failures are the same integration test timing out while the search indexer warms up; the e2e failure is a screenshot diff from a font change.",
            ),
            Step::Read(
                1,
                ".github/workflows/ci.yml",
                "  integration:\n    runs-on: ubuntu-latest\n    timeout-minutes: 10\n    steps:\n      - run: make integration",
            ),
            Step::Fail(
                134,
                "go test ./tests/integration -run TestSearch -count 20",
                1,
                "--- FAIL: TestSearch (2.01s)\n    search_test.go:57: index not ready after 2s\nFAIL\tacme/platform/tests/integration\t131.9s",
            ),
            Step::Edit(
                2,
                "tests/integration/search_test.go",
                "time.Sleep(2 * time.Second)",
                "waitUntil(t, 30*time.Second, indexer.Ready)",
            ),
            Step::Run(
                41,
                "go test ./tests/integration -run TestSearch -count 20",
                "ok  \tacme/platform/tests/integration\t41.2s",
            ),
            Step::Todo(
                6,
                &[
                    (
                        "List this week's failed runs on main",
                        TodoStatus::Completed,
                    ),
                    ("Group the failures by cause", TodoStatus::Completed),
                    ("Fix what can be fixed here", TodoStatus::Completed),
                ],
            ),
        ],
        end: End::Finished(
            "Three of the four failures came from `TestSearch` sleeping two seconds instead of waiting for the indexer; it now waits for readiness and passed 20 runs in a row. The e2e failure is a real screenshot change from the new font: I left it for design to approve.",
        ),
        cost_usd: 0.84,
        engine_turns: 11,
        tokens: [412_000, 371_000, 6_900],
    },
    Script {
        title: "Write tests for the rate limiter",
        prompt: "The rate limiter in internal/ratelimit has no tests. Add table tests for the burst and refill behaviour and run them.",
        repository: "acme/platform",
        started_ago: 2 * DAY + 310,
        steps: &[
            Step::Read(
                1,
                "internal/ratelimit/bucket.go",
                "func (b *Bucket) Allow(now time.Time) bool {\n\tb.refill(now)\n\tif b.tokens < 1 {\n\t\treturn false\n\t}\n\tb.tokens--\n\treturn true\n}",
            ),
            Step::Think(
                37,
                "Refill is proportional to elapsed time, so the tests need a fake clock rather than sleeps.",
            ),
            Step::Edit(
                3,
                "internal/ratelimit/bucket_test.go",
                "",
                "func TestBucket(t *testing.T) {\n\tcases := []struct{ name string; burst, calls, allowed int }{\n\t\t{\"within burst\", 5, 5, 5},\n\t\t{\"over burst\", 5, 8, 5},\n\t}\n\t// ...\n}",
            ),
            Step::Run(
                7,
                "go test ./internal/ratelimit/...",
                "ok  \tacme/platform/internal/ratelimit\t0.014s\tcoverage: 92.3% of statements",
            ),
        ],
        end: End::Finished(
            "Added `bucket_test.go` with six table cases (within and over the burst, partial and full refill, a clock that goes backwards, zero rate) on a fake clock. All pass; coverage of the package is 92%.",
        ),
        cost_usd: 1.37,
        engine_turns: 17,
        tokens: [688_000, 620_000, 11_400],
    },
    Script {
        title: "Summarise the error budget report",
        prompt: "Read reports/slo-october.md and summarise in five lines which services burned their error budget and why.",
        repository: "acme/platform",
        started_ago: DAY + 190,
        steps: &[
            Step::Read(
                1,
                "reports/slo-october.md",
                "| Service | SLO | Budget used |\n| checkout | 99.9% | 134% |\n| search | 99.5% | 61% |\n| notifications | 99.0% | 108% |",
            ),
            Step::Say(
                22,
                "Two services went over budget; both incidents are in the report's timeline.",
            ),
        ],
        end: End::Finished(
            "- **checkout** used 134% of its budget: the payment provider's outage on the 14th (52 minutes).\n- **notifications** used 108%: a retry storm after the queue upgrade.\n- **search** stayed at 61%.\n- Both overruns have follow-ups filed in the report.\n- No service without an incident lost more than 20%.",
        ),
        cost_usd: 0.21,
        engine_turns: 3,
        tokens: [96_000, 80_000, 1_800],
    },
    Script {
        title: "Upgrade the search indexer's dependencies",
        prompt: "Upgrade the search indexer's Go dependencies to their latest minor versions and make the build and tests pass.",
        repository: "acme/platform",
        started_ago: 20 * 60,
        steps: &[
            Step::Run(
                19,
                "go get -u ./cmd/indexer/...",
                "go: upgraded github.com/blevesearch/bleve/v2 v2.3.10 => v2.4.2\ngo: upgraded golang.org/x/text v0.14.0 => v0.19.0",
            ),
            Step::Fail(
                12,
                "go build ./...",
                1,
                "# acme/platform/cmd/indexer\ncmd/indexer/mapping.go:41:17: undefined: mapping.NewTextFieldMapping",
            ),
            Step::Say(
                64,
                "bleve 2.4 moved the field mappings; I am porting the index mapping to the new constructors.",
            ),
            Step::Edit(
                2,
                "cmd/indexer/mapping.go",
                "mapping.NewTextFieldMapping()",
                "bleve.NewTextFieldMapping()",
            ),
            Step::Run(9, "go build ./...", ""),
            Step::Fail(
                87,
                "go test ./cmd/indexer/...",
                1,
                "--- FAIL: TestReindex (3.02s)\n    reindex_test.go:88: got 412 documents, want 415\nFAIL\tacme/platform/cmd/indexer\t86.4s",
            ),
        ],
        end: End::Failed("error_max_turns"),
        cost_usd: 2.95,
        engine_turns: 40,
        tokens: [1_540_000, 1_390_000, 24_700],
    },
    Script {
        title: "Review open pull requests",
        prompt: "Review the open pull requests on acme/web that wait for a review, and tell me which can be merged.",
        repository: "acme/web",
        started_ago: 125,
        steps: &[
            Step::Run(
                2,
                "gh pr list --repo acme/web --search \"review:required\"",
                "#1432  Move settings to the new form components  maya-chen\n#1429  Cache the pricing table  jonas-weber",
            ),
            Step::Run(
                1,
                "gh pr diff 1429 --repo acme/web",
                "+const pricing = cache(() => fetchPricing(), { ttl: 3600 })",
            ),
            Step::Fail(
                24,
                "npm test -- --run src/settings",
                1,
                "FAIL src/settings/EmailField.test.tsx > reads the error to screen readers\n  expected element to have attribute aria-describedby\nTests  1 failed | 38 passed (39)",
            ),
            Step::Say(
                31,
                "#1429 is small and safe: the pricing table changes at most daily and the cache is invalidated on deploy.",
            ),
        ],
        end: End::Waiting(
            "#1429 can be merged as it is. #1432 works, but it drops the `aria-describedby` on the email field, so screen readers no longer read its error (its own test fails). Shall I request changes on #1432, or approve it with a comment?",
        ),
        cost_usd: 0.63,
        engine_turns: 8,
        tokens: [301_000, 266_000, 4_300],
    },
    Script {
        title: "Migrate billing webhooks to the job queue",
        prompt: "Migrate the billing webhooks from inline retries to the job queue, keep deliveries in order per customer, and run the billing tests.",
        repository: "acme/platform",
        started_ago: 0,
        steps: &[],
        end: End::Queued,
        cost_usd: 0.0,
        engine_turns: 0,
        tokens: [0; 3],
    },
];

/// A believable process id for the turn's status move.
const FIRST_PID: u32 = 48_213;

fn write_session(
    tx: &Transaction<'_>,
    seed: &DemoSeed<'_>,
    engine_spec: &str,
    cwd: &str,
    index: usize,
    script: &Script,
) -> Result<DemoSession> {
    let id = store::new_id();
    let started = seed.now - Duration::minutes(script.started_ago);
    let at = |seconds: i64| clock::timestamp(started + Duration::seconds(seconds));
    db::insert_session(
        tx,
        &NewSession {
            id: &id,
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
        id: id.clone(),
        title: script.title.to_owned(),
        prompt: script.prompt.to_owned(),
        status,
        ended_at,
        repository: script.repository.to_owned(),
    };
    if matches!(script.end, End::Queued) {
        return Ok(made(Status::Queued, started));
    }
    let turn = db::take_input(tx, &id, &at(1))?
        // The prompt was queued just above.
        .ok_or(SessionError::NotFound)?
        .turn;
    let pid = FIRST_PID + u32::try_from(index).unwrap_or_default() * 1_379;
    db::set_status(
        tx,
        &id,
        Status::Running,
        &format!("turn {turn} started (pid {pid})"),
        &at(2),
    )?;
    let input = EntryBody::Input {
        text: script.prompt.to_owned(),
        source: InputSource::Prompt,
    };
    pages::append(tx, &id, turn, &at(1), vec![Piece::entry(input)])?;
    let entries = entries(script);
    let mut tracker = Tracker::default();
    entries.iter().for_each(|(_, e)| tracker.observe(e));
    let ended_after = entries.last().map_or(2, |(second, _)| *second);
    let ended = started + Duration::seconds(ended_after);
    for (second, piece) in pieces(entries) {
        pages::append(tx, &id, turn, &at(second), vec![piece])?;
    }
    let finished_at = clock::timestamp(ended);
    if let Some((kind, text)) = tracker.current() {
        let activity = Activity {
            kind,
            text,
            at: finished_at.clone(),
        };
        pages::set_activity(tx, &id, &activity)?;
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
    db::save_meta(tx, &id, turn, &meta)?;
    let status = match script.end {
        End::Failed(message) => {
            db::end_turn(
                tx,
                &id,
                turn,
                "failed",
                Some(message),
                Some(1),
                &finished_at,
            )?;
            db::set_status(tx, &id, Status::Failed, message, &finished_at)?;
            Status::Failed
        }
        End::Finished(_) | End::Waiting(_) | End::Queued => {
            db::end_turn(tx, &id, turn, "done", None, Some(0), &finished_at)?;
            db::set_status(tx, &id, Status::WaitingForInput, "turn ended", &finished_at)?;
            Status::WaitingForInput
        }
    };
    let status = if let End::Finished(_) = script.end {
        // Read and archived a while after it ended.
        let archived_at = clock::timestamp(ended + Duration::minutes(35));
        db::set_status(tx, &id, Status::Finished, "archived", &archived_at)?;
        db::set_archived(tx, &id, &archived_at)?;
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
                Status::Failed,
                Status::WaitingForInput,
                Status::Queued,
            ]
        );
        assert!(made.iter().all(|s| s.ended_at <= now));
        let listed = db.read(|tx| db::list_sessions(tx, "owner")).unwrap();
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
        let queued = &made[5];
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
    fn each_session_works_in_its_repositorys_folder() {
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
        let listed = db.read(|tx| db::list_sessions(tx, "owner")).unwrap();
        for demo in &made {
            let session = listed.iter().find(|s| s.id == demo.id).unwrap();
            let folder = projects.join(&demo.repository);
            assert_eq!(Path::new(&session.cwd), folder, "{}", demo.title);
        }
        assert!(made.iter().any(|s| s.repository == "acme/web"));
    }
}

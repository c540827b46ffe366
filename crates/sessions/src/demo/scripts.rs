//! What the demo's sessions did: each one's prompt, steps and end, what
//! it cost, and what it changed in its repository.

use crate::model::TodoStatus;

use super::git::{Change, Commit, Outcome};

/// How a demo session ends.
pub(super) enum End {
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
pub(super) enum Step {
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

pub(super) struct Script {
    pub(super) title: &'static str,
    pub(super) prompt: &'static str,
    pub(super) repository: &'static str,
    /// Minutes before now the session started.
    pub(super) started_ago: i64,
    pub(super) steps: &'static [Step],
    pub(super) end: End,
    pub(super) cost_usd: f64,
    /// What it changed in its repository, in a worktree of its own.
    pub(super) change: Option<Change>,
    /// Model calls, then input tokens (cached ones included), the cached part, output tokens.
    pub(super) engine_turns: i64,
    pub(super) tokens: [i64; 3],
}

pub(super) const DAY: i64 = 24 * 60;

pub(super) const SCRIPTS: [Script; 7] = [
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
        change: Some(Change {
            outcome: Outcome::Squashed,
            commit: Some(Commit {
                file: "tests/integration/search_test.go",
                text: "package integration\n\nfunc TestSearch(t *testing.T) {\n\twaitUntil(t, 30*time.Second, indexer.Ready)\n}\n",
                subject: "Wait for the indexer instead of sleeping in TestSearch",
            }),
            left: None,
        }),
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
        change: Some(Change {
            outcome: Outcome::Pushed,
            commit: Some(Commit {
                file: "internal/ratelimit/bucket_test.go",
                text: "package ratelimit\n\nfunc TestBucket(t *testing.T) {\n\tcases := []struct{ name string; burst, calls, allowed int }{\n\t\t{\"within burst\", 5, 5, 5},\n\t\t{\"over burst\", 5, 8, 5},\n\t}\n\t_ = cases\n}\n",
                subject: "Add table tests for the rate limiter's burst and refill",
            }),
            left: None,
        }),
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
        change: None,
        engine_turns: 3,
        tokens: [96_000, 80_000, 1_800],
    },
    Script {
        title: "Replace the date picker with the native date input",
        prompt: "Replace our DatePicker in the settings forms with the browser's native date input and keep the tests passing.",
        repository: "acme/web",
        started_ago: DAY + 40,
        steps: &[
            Step::Read(
                1,
                "src/settings/DateField.tsx",
                "import { DatePicker } from \"./DatePicker\";\n\nexport const DateField = DatePicker;",
            ),
            Step::Edit(
                2,
                "src/settings/DateField.tsx",
                "export const DateField = DatePicker;",
                "export const DateField = (props: DateProps) => <input type=\"date\" {...props} />;",
            ),
            Step::Run(
                18,
                "npm test -- --run src/settings",
                "Tests  39 passed (39)",
            ),
        ],
        end: End::Finished(
            "The settings forms now use `<input type=\"date\">`; all 39 settings tests pass. I pushed the branch for review.",
        ),
        cost_usd: 0.48,
        change: Some(Change {
            outcome: Outcome::Deleted,
            commit: Some(Commit {
                file: "src/settings/DateField.tsx",
                text: "export const DateField = (props: DateProps) => <input type=\"date\" {...props} />;\n",
                subject: "Use the native date input in the settings forms",
            }),
            left: None,
        }),
        engine_turns: 6,
        tokens: [188_000, 160_000, 2_900],
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
        change: Some(Change {
            outcome: Outcome::Uncommitted,
            commit: Some(Commit {
                file: "go.mod",
                text: "module acme/platform\n\ngo 1.23\n\nrequire github.com/blevesearch/bleve/v2 v2.4.2\n",
                subject: "Upgrade bleve to v2.4.2",
            }),
            left: Some((
                "cmd/indexer/mapping.go",
                "package main\n\nvar text = bleve.NewTextFieldMapping()\n",
            )),
        }),
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
        change: None,
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
        change: Some(Change {
            outcome: Outcome::Begun,
            commit: None,
            left: None,
        }),
        engine_turns: 0,
        tokens: [0; 3],
    },
];

//! A believable demo workspace for `switchboard serve --demo`: members, boards
//! from several presets, sprints with efforts and done dates, budgets in dollars.
//!
//! Everything except the dates comes from a fixed-seed generator, so two runs on
//! the same day seed the same data; dates are laid out around today so that the
//! current sprint is current.

use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Map, Value, json};
use store::Db;
use store::rusqlite::Transaction;
use time::{Date, Duration};

use crate::boards::{insert_board, plan_board};
use crate::columns::{ColumnType, label_names};
use crate::error::Result;
use crate::items::insert_items_tx;
use crate::model::{Board, Column, Member, NewBoard, NewGroup, NewItem};
use crate::rules::BoardRules;
use crate::workspaces::{create_member_tx, create_workspace_tx};

const MEMBERS: [(&str, &str); 8] = [
    ("Maya Chen", "maya.chen@acme.example"),
    ("Jonas Weber", "jonas.weber@acme.example"),
    ("Priya Raman", "priya.raman@acme.example"),
    ("Lucas Martin", "lucas.martin@acme.example"),
    ("Amara Okafor", "amara.okafor@acme.example"),
    ("Diego Alvarez", "diego.alvarez@acme.example"),
    ("Sofia Rossi", "sofia.rossi@acme.example"),
    ("Kenji Sato", "kenji.sato@acme.example"),
];

/// One demo board: which preset, how many items, what they are about.
struct DemoBoard {
    preset: &'static str,
    name: &'static str,
    items: usize,
    /// Sprint naming for sprint-style boards ("Sprint" or "Cycle").
    sprint_word: Option<&'static str>,
    verbs: &'static [&'static str],
    subjects: &'static [&'static str],
}

const ENGINEERING_VERBS: &[&str] = &[
    "Fix", "Add", "Refactor", "Migrate", "Speed up", "Document", "Harden", "Test",
];
const ENGINEERING_SUBJECTS: &[&str] = &[
    "login flow",
    "billing webhooks",
    "search indexer",
    "CSV export",
    "rate limiter",
    "audit log",
    "notification service",
    "session cache",
    "API pagination",
    "onboarding wizard",
    "feature flags",
    "image uploads",
];

const BOARDS: [DemoBoard; 7] = [
    DemoBoard {
        preset: "engineering-jira",
        name: "Platform sprint board",
        items: 90,
        sprint_word: Some("Sprint"),
        verbs: ENGINEERING_VERBS,
        subjects: ENGINEERING_SUBJECTS,
    },
    DemoBoard {
        preset: "linear",
        name: "Mobile app",
        items: 70,
        sprint_word: Some("Cycle"),
        verbs: &[
            "Polish",
            "Build",
            "Fix",
            "Redesign",
            "Instrument",
            "Localise",
        ],
        subjects: &[
            "home screen",
            "push notifications",
            "offline mode",
            "dark theme",
            "settings page",
            "deep links",
            "crash on rotate",
            "sign-up form",
        ],
    },
    DemoBoard {
        preset: "first-agent-board",
        name: "Agent tasks",
        items: 50,
        sprint_word: Some("Sprint"),
        verbs: &[
            "Write tests for",
            "Upgrade",
            "Triage",
            "Review",
            "Summarise",
        ],
        subjects: &[
            "dependency updates",
            "flaky CI jobs",
            "open pull requests",
            "error budget report",
            "API docs",
            "release notes",
            "lint warnings",
        ],
    },
    DemoBoard {
        preset: "projects",
        name: "Product launches",
        items: 40,
        sprint_word: None,
        verbs: &["Launch", "Plan", "Pilot", "Roll out", "Evaluate"],
        subjects: &[
            "EU data region",
            "partner portal",
            "annual pricing",
            "SSO for teams",
            "mobile checkout",
            "usage analytics",
            "support chatbot",
            "marketplace listing",
        ],
    },
    DemoBoard {
        preset: "operations",
        name: "IT and facilities requests",
        items: 60,
        sprint_word: None,
        verbs: &["Replace", "Order", "Renew", "Set up", "Repair"],
        subjects: &[
            "laptops for new hires",
            "office Wi-Fi",
            "VPN licences",
            "meeting room display",
            "badge readers",
            "printer toner",
            "standing desks",
        ],
    },
    DemoBoard {
        preset: "trello",
        name: "Content calendar",
        items: 45,
        sprint_word: None,
        verbs: &["Draft", "Edit", "Publish", "Record", "Design"],
        subjects: &[
            "customer story",
            "release blog post",
            "webinar",
            "newsletter",
            "how-to video",
            "case study",
            "social thread",
        ],
    },
    DemoBoard {
        preset: "clickup",
        name: "Growth experiments",
        items: 55,
        sprint_word: Some("Sprint"),
        verbs: &["A/B test", "Measure", "Ship", "Iterate on"],
        subjects: &[
            "pricing page",
            "trial length",
            "referral bonus",
            "signup copy",
            "onboarding email",
            "in-app tips",
        ],
    },
];

const SPRINTS: i64 = 6;
const SPRINT_DAYS: i64 = 14;

/// Seeds the demo workspace when the account has no board yet and says
/// whether it did; an account that holds any board is left untouched.
pub fn seed_demo(db: &Db, account_id: &str) -> Result<bool> {
    let today = time::OffsetDateTime::now_utc().date();
    db.write(|tx| {
        let has_boards: bool = tx.query_row(
            "SELECT EXISTS (SELECT 1 FROM boards WHERE account_id = ?1)",
            [account_id],
            |r| r.get(0),
        )?;
        if has_boards {
            return Ok(false);
        }
        seed(tx, account_id, today)?;
        Ok(true)
    })
}

fn seed(tx: &Transaction<'_>, account_id: &str, today: Date) -> Result<()> {
    let mut rng = StdRng::seed_from_u64(0x5717_c4b0_a4d0);
    let workspace = create_workspace_tx(tx, account_id, "Acme Product")?;
    let members: Vec<Member> = MEMBERS
        .iter()
        .map(|(name, email)| create_member_tx(tx, account_id, name, Some(email)))
        .collect::<Result<_>>()?;
    let member_ids: Vec<&str> = members.iter().map(|m| m.id.as_str()).collect();
    for spec in &BOARDS {
        let new = NewBoard {
            workspace_id: workspace.id.clone(),
            name: spec.name.to_owned(),
            preset: Some(spec.preset.to_owned()),
            groups: spec
                .sprint_word
                .map(|_| NewGroup {
                    id: Some("completed".into()),
                    title: "Completed sprints".into(),
                })
                .into_iter()
                .collect(),
            columns: Vec::new(),
        };
        let board = insert_board(tx, account_id, &workspace.id, &plan_board(&new)?)?;
        let items: Vec<NewItem> = (0..spec.items)
            .map(|i| {
                let mut generator = ItemGen {
                    rng: &mut rng,
                    today,
                    members: &member_ids,
                };
                generator.item(spec, &board, i)
            })
            .collect();
        let rules = BoardRules::load(tx, account_id, &board.id)?;
        insert_items_tx(tx, &rules, None, &board.id, &items, |i| {
            format!("demo item {i}")
        })?;
    }
    Ok(())
}

fn date(d: Date) -> Value {
    Value::String(format!(
        "{:04}-{:02}-{:02}",
        d.year(),
        u8::from(d.month()),
        d.day()
    ))
}

struct ItemGen<'a> {
    rng: &'a mut StdRng,
    today: Date,
    members: &'a [&'a str],
}

impl ItemGen<'_> {
    fn day(&mut self, from: i64, to: i64) -> Date {
        self.today + Duration::days(self.rng.random_range(from..=to))
    }

    fn pick<'s>(&mut self, options: &'s [&'s str]) -> &'s str {
        options.choose(self.rng).copied().unwrap_or_default()
    }

    fn item(&mut self, spec: &DemoBoard, board: &Board, index: usize) -> NewItem {
        let verb = spec.verbs[index % spec.verbs.len()];
        let subject = spec.subjects[(index / spec.verbs.len() + index) % spec.subjects.len()];
        let name = format!("{verb} {subject}");
        let mut values = Map::new();
        // Sprint boards: sprint 1 is the oldest, SPRINTS the current one, and a
        // fifth of the items are unplanned backlog.
        let sprint = spec
            .sprint_word
            .filter(|_| self.rng.random_bool(0.8))
            .map(|_| self.rng.random_range(1..=SPRINTS));
        let mut group = board.groups.first().map(|g| g.id.clone());
        let mut done = false;
        let mut done_window = (-60, 0);
        if let (Some(word), Some(n)) = (spec.sprint_word, sprint) {
            let ends = SPRINT_DAYS * (n - SPRINTS) + 7;
            values.insert("sprint".into(), json!(format!("{word} {n}")));
            values.insert("due".into(), date(self.today + Duration::days(ends)));
            done = if n < SPRINTS {
                self.rng.random_bool(0.9)
            } else {
                self.rng.random_bool(0.4)
            };
            done_window = (ends - SPRINT_DAYS + 1, ends.min(0));
            if n < SPRINTS {
                group = Some("completed".into());
            }
        } else if spec.sprint_word.is_some() {
            group = Some("backlog".into());
        } else {
            done = self.rng.random_bool(0.35);
            group = board
                .groups
                .get(self.rng.random_range(0..board.groups.len().max(1)))
                .map(|g| g.id.clone());
        }
        for column in &board.columns {
            if values.contains_key(&column.id) {
                continue;
            }
            if let Some(value) = self.value(column, done, done_window) {
                values.insert(column.id.clone(), value);
            }
        }
        NewItem {
            group_id: group,
            name,
            values,
        }
    }

    /// A plausible value for one column, or `None` to leave it empty.
    fn value(&mut self, column: &Column, done: bool, done_window: (i64, i64)) -> Option<Value> {
        let labels = label_names(&column.settings);
        let done_labels: Vec<&str> = column.settings["labels"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|l| l["done"] == true)
            .filter_map(|l| l["name"].as_str())
            .collect();
        Some(match (column.kind, column.id.as_str()) {
            (ColumnType::Status, "status") => {
                let open: Vec<&str> = labels
                    .iter()
                    .map(String::as_str)
                    .filter(|l| !done_labels.contains(l))
                    .collect();
                json!(if done {
                    self.pick(&done_labels)
                } else {
                    self.pick(&open)
                })
            }
            (ColumnType::Status, _) => {
                let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
                json!(self.pick(&labels))
            }
            (ColumnType::Date, "done_on") if done => {
                date(self.day(done_window.0.min(done_window.1), done_window.1))
            }
            (ColumnType::Date, "done_on") => return None,
            (ColumnType::Date, _) => date(self.day(-20, 45)),
            (ColumnType::Number, "effort") => json!([1, 2, 3, 3, 5, 5, 8, 13].choose(self.rng)),
            (ColumnType::Number, "budget") => json!(self.rng.random_range(10..=500) * 500),
            (ColumnType::Number, "spent") => json!(self.rng.random_range(1..=400) * 250),
            (ColumnType::Number, "cost") => json!(self.rng.random_range(2..=300) * 25),
            (ColumnType::Number, _) => json!(self.rng.random_range(1..=40)),
            (ColumnType::People, _) => {
                let count = if self.rng.random_bool(0.2) { 2 } else { 1 };
                json!(
                    self.members
                        .choose_multiple(self.rng, count)
                        .collect::<Vec<_>>()
                )
            }
            (ColumnType::Timeline, _) => {
                let from = self.day(-60, 30);
                let to = from + Duration::days(self.rng.random_range(14..=120));
                json!({"from": date(from), "to": date(to)})
            }
            (ColumnType::Checkbox, _) => json!(done || self.rng.random_bool(0.3)),
            (ColumnType::Dropdown, _) => {
                let options: Vec<&str> = column.settings["options"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let count = self.rng.random_range(1..=2);
                json!(options.choose_multiple(self.rng, count).collect::<Vec<_>>())
            }
            (ColumnType::Text, _) => self.text(&column.id)?,
        })
    }

    fn text(&mut self, column_id: &str) -> Option<Value> {
        let n = self.rng.random_range(100..2000);
        let text = match column_id {
            "pull_request" => format!("https://github.com/acme/platform/pull/{n}"),
            "repository" => self
                .pick(&["acme/platform", "acme/web", "acme/mobile"])
                .into(),
            "epic" => format!(
                "EPIC-{} {}",
                n % 40,
                self.pick(&["Checkout revamp", "Reliability", "Self-serve onboarding"])
            ),
            "fix_version" => format!("v2.{}.0", n % 9),
            "project" => self
                .pick(&["Q3 reliability", "New onboarding", "Billing v2"])
                .into(),
            "session" | "prompt" if self.rng.random_bool(0.5) => return None,
            "session" => format!("session-{n}"),
            _ if self.rng.random_bool(0.6) => return None,
            _ => self
                .pick(&[
                    "Waiting on design sign-off.",
                    "See the thread in #eng for context.",
                    "Customer asked for this twice.",
                    "Blocked by the vendor until next week.",
                    "Follow-up from the retro.",
                ])
                .into(),
        };
        Some(Value::String(text))
    }
}

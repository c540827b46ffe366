//! A believable demo workspace for `switchboard serve --demo`: members, boards
//! from several presets, each with its team, and agent tasks that link to the
//! sessions that ran them. What each item holds is `demo_items.rs`'s.
//!
//! Everything except the dates and the session ids comes from a fixed-seed
//! generator, so two runs seed the same data; every date is laid out around
//! the `today` the caller gives, so the current sprint is current whatever
//! the day.

use rand::SeedableRng;
use rand::rngs::StdRng;
use store::Db;
use store::rusqlite::{Transaction, params};
use time::Date;

use crate::boards::{insert_board, plan_board};
pub use crate::demo_items::{AgentRun, DemoRun, RunOutcome, session_link};
use crate::demo_items::{ItemGen, Shape};
use crate::error::Result;
use crate::items::insert_items_tx;
use crate::model::{Member, NewBoard, NewGroup, NewItem};
use crate::presets;
use crate::rules::BoardRules;
use crate::workspaces::{create_member_tx, create_workspace_tx, self_member_id_tx};

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

/// One demo board: which preset, how many items, who works on them and what
/// they are about.
struct DemoBoard {
    preset: &'static str,
    name: &'static str,
    items: usize,
    /// Indexes into [`MEMBERS`]: the board's team, whom its items are assigned to.
    team: &'static [usize],
    /// How many open items are past their due date.
    overdue: usize,
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

/// Agent tasks, chores that come back each sprint among them.
const AGENT_TASKS: &[&str] = &[
    "Triage this week's new Sentry errors",
    "Update Go dependencies to their latest patch versions",
    "Write release notes for the next web release",
    "Fix the lint warnings in internal/billing",
    "Add tests for the CSV export",
    "Summarise last week's customer-reported bugs",
    "Review open pull requests on acme/mobile",
    "Document the public API's pagination",
    "Find slow queries in last night's database log",
    "Remove the feature flags shipped more than a month ago",
    "Check the docs site for broken links",
    "Port the onboarding emails to the new template",
    "Bump Node to 22 in the web CI images",
    "Explain why the nightly e2e run timed out",
    "Add request ids to the notification service's logs",
    "Write a migration guide for the v2 webhooks",
    "Translate the new settings strings",
    "Find unused CSS in acme/web",
    "Rename the session cache's metrics to the new scheme",
    "Draft the incident summary for the checkout outage",
    "Add retries to the image upload client",
    "Check the mobile crash reports for the 4.2 release",
];

const BOARDS: [DemoBoard; 7] = [
    DemoBoard {
        preset: "engineering-jira",
        name: "Platform sprint board",
        items: 90,
        team: &[0, 1, 2, 3],
        overdue: 1,
        verbs: ENGINEERING_VERBS,
        subjects: ENGINEERING_SUBJECTS,
    },
    DemoBoard {
        preset: "linear",
        name: "Mobile app",
        items: 70,
        team: &[4, 5, 6],
        overdue: 0,
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
            "photo picker",
            "sign-up form",
        ],
    },
    DemoBoard {
        preset: "first-agent-board",
        name: "Agent tasks",
        items: 50,
        team: &[0, 2],
        overdue: 0,
        // Whole titles: what one asks an agent rarely splits into a verb and a subject.
        verbs: &[],
        subjects: AGENT_TASKS,
    },
    DemoBoard {
        preset: "projects",
        name: "Product launches",
        items: 40,
        team: &[3, 4, 7],
        overdue: 0,
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
        team: &[5, 7],
        overdue: 1,
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
        team: &[6, 4, 2],
        overdue: 1,
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
        team: &[1, 3, 6],
        overdue: 0,
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

/// Whether the account holds any board: the demo seeds only accounts without one.
pub fn has_boards(db: &Db, account_id: &str) -> Result<bool> {
    db.read(|tx| has_boards_tx(tx, account_id))
}

fn has_boards_tx(tx: &Transaction<'_>, account_id: &str) -> Result<bool> {
    Ok(tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM boards WHERE account_id = ?1)",
        [account_id],
        |r| r.get(0),
    )?)
}

/// What the demo made: its workspace and boards, for what the rest of the
/// demo (a dashboard, task lists) builds on.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoWorkspace {
    pub workspace_id: String,
    pub boards: Vec<DemoBoardMade>,
}

/// One board of the demo workspace.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoBoardMade {
    pub id: String,
    pub name: String,
    /// The title of its sprint column ("Sprint", "Cycle"), which names its
    /// sprints, when its items are planned in sprints (the sprint, effort,
    /// status and done-on columns the sprint widgets read).
    pub sprint_word: Option<String>,
}

/// Seeds the demo workspace when the account has no board yet and says
/// whether it did; an account that holds any board is left untouched.
/// `runs` become the first items of the agent-tasks board.
pub fn seed_demo(db: &Db, account_id: &str, today: Date, runs: &[AgentRun]) -> Result<bool> {
    let runs: Vec<DemoRun> = runs.iter().map(DemoRun::from).collect();
    Ok(seed_workspace(db, account_id, today, &runs)?.is_some())
}

/// [`seed_demo`] with each session's repository and whether it runs, and
/// what it made (`None` when the account held a board already).
pub fn seed_workspace(
    db: &Db,
    account_id: &str,
    today: Date,
    runs: &[DemoRun],
) -> Result<Option<DemoWorkspace>> {
    db.write(|tx| {
        if has_boards_tx(tx, account_id)? {
            return Ok(None);
        }
        seed(tx, account_id, today, runs).map(Some)
    })
}

fn seed(
    tx: &Transaction<'_>,
    account_id: &str,
    today: Date,
    runs: &[DemoRun],
) -> Result<DemoWorkspace> {
    let mut rng = StdRng::seed_from_u64(0x5717_c4b0_a4d0);
    let workspace = create_workspace_tx(tx, account_id, "Acme Product")?;
    let members: Vec<Member> = MEMBERS
        .iter()
        .map(|(name, email)| create_member_tx(tx, account_id, name, Some(email)))
        .collect::<Result<_>>()?;
    let me = self_member_id_tx(tx, account_id)?;
    let mut made = Vec::new();
    for spec in &BOARDS {
        let has_sprints = presets::preset(spec.preset)
            .is_some_and(|t| t.columns.iter().any(|c| c.id.as_deref() == Some("sprint")));
        let new = NewBoard {
            workspace_id: workspace.id.clone(),
            name: spec.name.to_owned(),
            preset: Some(spec.preset.to_owned()),
            groups: has_sprints
                .then(|| NewGroup {
                    id: Some("completed".into()),
                    title: "Completed sprints".into(),
                })
                .into_iter()
                .collect(),
            columns: Vec::new(),
        };
        let board = insert_board(tx, account_id, &workspace.id, &plan_board(&new)?)?;
        let team: Vec<&str> = spec
            .team
            .iter()
            .filter_map(|&i| members.get(i))
            .map(|m| m.id.as_str())
            .collect();
        let runs = if board.columns.iter().any(|c| c.id == "session") {
            runs
        } else {
            &[]
        };
        let mut generator = ItemGen {
            rng: &mut rng,
            today,
            team: &team,
            me: me.as_deref(),
            overdue_left: spec.overdue,
            sprint_items: 0,
            shape: Shape::of(&board),
        };
        let names = (runs.len()..spec.items).map(|i| item_name(spec, i));
        let demo_items = generator.items(runs, names);
        let items: Vec<NewItem> = demo_items.iter().map(|d| d.item.clone()).collect();
        let rules = BoardRules::load(tx, account_id, &board.id)?;
        let ids = insert_items_tx(tx, &rules, None, &board.id, &items, |i| {
            format!("demo item {i}")
        })?;
        // Made "now" by the insert; backdated so that their sprints' plans hold.
        let mut backdate =
            tx.prepare_cached("UPDATE items SET created_at = ?2, updated_at = ?3 WHERE id = ?1")?;
        for (id, demo) in ids.iter().zip(&demo_items) {
            backdate.execute(params![id, demo.created, demo.updated])?;
        }
        made.push(DemoBoardMade {
            id: board.id.clone(),
            name: board.name.clone(),
            sprint_word: board
                .columns
                .iter()
                .find(|c| c.id == "sprint")
                .map(|c| c.title.clone()),
        });
    }
    Ok(DemoWorkspace {
        workspace_id: workspace.id,
        boards: made,
    })
}

/// Item `index`'s name: a verb and a subject, each going round its list;
/// a board without verbs names its items by whole titles.
fn item_name(spec: &DemoBoard, index: usize) -> String {
    if spec.verbs.is_empty() {
        return spec.subjects[index % spec.subjects.len()].to_owned();
    }
    let verb = spec.verbs[index % spec.verbs.len()];
    let subject = spec.subjects[(index / spec.verbs.len() + index) % spec.subjects.len()];
    format!("{verb} {subject}")
}

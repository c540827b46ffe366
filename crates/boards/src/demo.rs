//! A believable demo workspace for `switchboard serve --demo`: members, boards
//! from several presets, each with its team, and agent tasks that link to the
//! sessions that ran them. What each item holds is `demo_items.rs`'s.
//!
//! Everything except the dates and the session ids comes from a fixed-seed
//! generator, so two runs seed the same data; every date is laid out around
//! the `today` the caller gives, so the current sprint is current whatever
//! the day.

use std::collections::HashSet;

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
    "Triage the support inbox's unanswered tickets",
    "Update the Terraform providers to their latest minor versions",
    "Write the changelog for the 3.8 API release",
    "Fix the flaky checkout e2e test",
    "Add tests for the webhook signature check",
    "Summarise the beta users' feedback survey",
    "Review the open Dependabot pull requests on acme/web",
    "Document the on-call runbook for the search cluster",
    "Find the N+1 queries on the orders page",
    "Remove the unused endpoints of the v1 API",
    "Check the status page's uptime checks",
    "Port the invoice PDFs to the new renderer",
    "Bump Go to 1.23 in acme/platform",
    "Explain the spike in 502s on Tuesday night",
    "Add structured logging to the billing worker",
    "Write a how-to for the new feature flag SDK",
    "Translate the pricing page into German",
    "Find dead code in the mobile app's networking layer",
    "Rename the legacy tables in the reporting schema",
    "Draft the quarterly security review",
    "Add pagination to the admin user list",
    "Check the Android build for deprecation warnings",
    "Triage the crash reports from the iOS beta",
    "Update the Python scripts' pinned dependencies",
    "Write onboarding notes for the new data engineer",
    "Fix the timezone bug in the weekly digest",
    "Add a health check to the export worker",
    "Summarise the open questions from the design review",
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
            "search screen",
            "order history",
            "profile editor",
            "payment sheet",
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
            "conference phones",
            "parking passes",
            "monitor arms",
            "coffee machine",
            "guest Wi-Fi",
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
            "podcast episode",
            "product tour",
        ],
    },
    DemoBoard {
        preset: "clickup",
        name: "Growth experiments",
        items: 55,
        team: &[1, 3, 6],
        overdue: 0,
        verbs: &["A/B test", "Measure", "Ship", "Iterate on", "Roll back"],
        subjects: &[
            "pricing page",
            "trial length",
            "referral bonus",
            "signup copy",
            "onboarding email",
            "in-app tips",
            "upgrade banner",
            "checkout button",
            "welcome video",
            "team invites",
            "annual discount",
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
        let taken = runs.iter().map(|r| r.run.title.clone()).collect();
        let names = item_names(spec, taken, spec.items.saturating_sub(runs.len()));
        let demo_items = generator.items(runs, names.into_iter());
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

/// `count` names for a board's items, none alike and none among `taken`
/// (the titles of the sessions' items): a verb and a subject, going round
/// each list at its own pace so neighbours differ, then every pairing not yet
/// used; a board without verbs names its items by whole titles. Fewer than
/// `count` when the lists run out.
fn item_names(spec: &DemoBoard, taken: HashSet<String>, count: usize) -> Vec<String> {
    let subjects = spec.subjects.len();
    let name = |index: usize| {
        if spec.verbs.is_empty() {
            return spec.subjects[index % subjects].to_owned();
        }
        let verb = spec.verbs[index % spec.verbs.len()];
        let subject = spec.subjects[(index / spec.verbs.len() + index) % subjects];
        format!("{verb} {subject}")
    };
    let pairings = spec.verbs.len().max(1) * subjects;
    let every = spec.verbs.iter().flat_map(|verb| {
        spec.subjects
            .iter()
            .map(move |subject| format!("{verb} {subject}"))
    });
    let mut seen = taken;
    (0..pairings)
        .map(name)
        .chain(every)
        .filter(|name| seen.insert(name.clone()))
        .take(count)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_demo_board_names_two_items_alike() {
        let runs = HashSet::from(["Fix login flow".to_owned()]);
        for spec in &BOARDS {
            let names = item_names(spec, runs.clone(), spec.items);
            assert_eq!(names.len(), spec.items, "{} runs out of names", spec.name);
            let distinct: HashSet<&String> = names.iter().collect();
            assert_eq!(distinct.len(), names.len(), "{}", spec.name);
            assert!(!names.contains(&"Fix login flow".to_owned()));
        }
    }
}

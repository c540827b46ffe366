//! Board templates for the 13 values of the `pmSetupPreset` setting, each
//! modelled on the tool it mimics.
//!
//! Sprint-style presets (first-agent-board, jira, linear, clickup,
//! engineering-linear, engineering-jira) share the column ids `sprint` (text),
//! `effort` (number), `status`, `done_on` (date), `owner` (people) and `due`
//! (date), so that velocity and burndown widgets can address them together.
//! Other presets reuse `status`, `owner` and `due` where they have such a column.

use serde_json::{Value, json};

use crate::model::{NewColumn, NewGroup, View};

pub const PRESETS: [&str; 13] = [
    "tasks",
    "projects",
    "operations",
    "first-agent-board",
    "trello",
    "jira",
    "asana",
    "linear",
    "notion",
    "clickup",
    "airtable",
    "engineering-linear",
    "engineering-jira",
];

/// What a preset puts on a new board.
#[derive(Debug, Clone)]
pub struct Template {
    /// A name for a board made from it, used by the demo data.
    pub board_name: &'static str,
    pub columns: Vec<NewColumn>,
    pub groups: Vec<NewGroup>,
    pub views: Vec<View>,
}

fn column(id: &str, title: &str, kind: &str, settings: Option<Value>) -> NewColumn {
    NewColumn {
        id: Some(id.to_owned()),
        title: title.to_owned(),
        kind: kind.to_owned(),
        settings,
    }
}

fn plain(id: &str, title: &str, kind: &str) -> NewColumn {
    column(id, title, kind, None)
}

/// A status column; a label written with a trailing `*` counts as done.
fn status(id: &str, title: &str, labels: &[(&str, &str)]) -> NewColumn {
    let labels: Vec<Value> = labels
        .iter()
        .map(|(name, color)| match name.strip_suffix('*') {
            Some(name) => json!({"name": name, "done": true, "color": color}),
            None => json!({"name": name, "color": color}),
        })
        .collect();
    column(id, title, "status", Some(json!({ "labels": labels })))
}

fn money(id: &str, title: &str) -> NewColumn {
    column(
        id,
        title,
        "number",
        Some(json!({"unit": "$", "unitPosition": "left"})),
    )
}

fn number_with(id: &str, title: &str, unit: &str) -> NewColumn {
    column(
        id,
        title,
        "number",
        Some(json!({"unit": unit, "unitPosition": "right"})),
    )
}

fn dropdown(id: &str, title: &str, options: &[&str]) -> NewColumn {
    column(id, title, "dropdown", Some(json!({ "options": options })))
}

fn groups(titles: &[(&str, &str)]) -> Vec<NewGroup> {
    titles
        .iter()
        .map(|(id, title)| NewGroup {
            id: Some((*id).to_owned()),
            title: (*title).to_owned(),
        })
        .collect()
}

fn views(list: &[(&str, &str)]) -> Vec<View> {
    list.iter()
        .map(|(name, kind)| View {
            name: (*name).to_owned(),
            kind: (*kind).to_owned(),
        })
        .collect()
}

const GREY: &str = "#c4c4c4";
const BLUE: &str = "#579bfc";
const ORANGE: &str = "#fdab3d";
const PURPLE: &str = "#a25ddc";
const GREEN: &str = "#00c875";
const RED: &str = "#e2445c";

/// The six columns every sprint-style preset shares, with the tool's titles.
fn sprint_columns(
    status_title: &str,
    labels: &[(&str, &str)],
    owner: &str,
    effort: &str,
    sprint: &str,
    done_on: &str,
) -> Vec<NewColumn> {
    vec![
        status("status", status_title, labels),
        plain("owner", owner, "people"),
        number_with("effort", effort, "pts"),
        plain("sprint", sprint, "text"),
        plain("due", "Due date", "date"),
        plain("done_on", done_on, "date"),
    ]
}

const LOW_MEDIUM_HIGH: &[(&str, &str)] = &[("Low", BLUE), ("Medium", ORANGE), ("High", RED)];
const JIRA_STATUS: &[(&str, &str)] = &[
    ("To Do", GREY),
    ("In Progress", BLUE),
    ("In Review", PURPLE),
    ("Done*", GREEN),
];
const JIRA_PRIORITY: &[(&str, &str)] = &[
    ("Highest", RED),
    ("High", ORANGE),
    ("Medium", BLUE),
    ("Low", GREY),
    ("Lowest", GREY),
];
const LINEAR_STATUS: &[(&str, &str)] = &[
    ("Backlog", GREY),
    ("Todo", GREY),
    ("In Progress", ORANGE),
    ("In Review", PURPLE),
    ("Done*", GREEN),
    ("Canceled", RED),
];
const LINEAR_PRIORITY: &[(&str, &str)] = &[
    ("No priority", GREY),
    ("Urgent", RED),
    ("High", ORANGE),
    ("Medium", BLUE),
    ("Low", GREY),
];

fn jira(engineering: bool) -> Template {
    let mut columns = vec![status(
        "issue_type",
        "Issue type",
        &[
            ("Story", GREEN),
            ("Task", BLUE),
            ("Bug", RED),
            ("Epic", PURPLE),
        ],
    )];
    columns.extend(sprint_columns(
        "Status",
        JIRA_STATUS,
        "Assignee",
        "Story points",
        "Sprint",
        "Resolved",
    ));
    columns.push(status("priority", "Priority", JIRA_PRIORITY));
    columns.push(plain("reporter", "Reporter", "people"));
    if engineering {
        columns.push(dropdown(
            "components",
            "Components",
            &["API", "Web", "Mobile", "Infra", "Data"],
        ));
        columns.push(plain("epic", "Epic link", "text"));
        columns.push(plain("fix_version", "Fix version", "text"));
        columns.push(plain("pull_request", "Pull request", "text"));
        Template {
            board_name: "Platform sprint board",
            columns,
            groups: groups(&[
                ("current_sprint", "Current sprint"),
                ("next_sprint", "Next sprint"),
                ("backlog", "Backlog"),
            ]),
            views: views(&[
                ("Scrum board", "kanban"),
                ("Backlog", "table"),
                ("Sprint report", "chart"),
                ("Velocity chart", "chart"),
                ("Releases", "timeline"),
            ]),
        }
    } else {
        columns.push(dropdown(
            "labels",
            "Labels",
            &["frontend", "backend", "customer", "tech-debt"],
        ));
        Template {
            board_name: "Jira project",
            columns,
            groups: groups(&[("current_sprint", "Current sprint"), ("backlog", "Backlog")]),
            views: views(&[
                ("Backlog", "table"),
                ("Active sprint", "kanban"),
                ("Timeline", "timeline"),
                ("Reports", "chart"),
            ]),
        }
    }
}

fn linear(engineering: bool) -> Template {
    let mut columns = sprint_columns(
        "Status",
        LINEAR_STATUS,
        "Assignee",
        "Estimate",
        "Cycle",
        "Completed",
    );
    columns.push(status("priority", "Priority", LINEAR_PRIORITY));
    columns.push(dropdown(
        "labels",
        "Labels",
        &["Bug", "Feature", "Improvement", "Chore"],
    ));
    if engineering {
        columns.push(plain("project", "Project", "text"));
        columns.push(plain("repository", "Repository", "text"));
        columns.push(plain("pull_request", "Pull request", "text"));
        Template {
            board_name: "Engineering cycles",
            columns,
            groups: groups(&[
                ("triage", "Triage"),
                ("current_cycle", "Current cycle"),
                ("next_cycle", "Next cycle"),
                ("backlog", "Backlog"),
            ]),
            views: views(&[
                ("My issues", "table"),
                ("Active cycle", "kanban"),
                ("Triage", "table"),
                ("Roadmap", "timeline"),
            ]),
        }
    } else {
        Template {
            board_name: "Linear team",
            columns,
            groups: groups(&[
                ("current_cycle", "Current cycle"),
                ("next_cycle", "Next cycle"),
                ("backlog", "Backlog"),
            ]),
            views: views(&[
                ("Active issues", "table"),
                ("Board", "kanban"),
                ("Backlog", "table"),
                ("Cycles", "chart"),
            ]),
        }
    }
}

/// The template for one `pmSetupPreset` value, or `None` for an unknown name.
pub fn preset(name: &str) -> Option<Template> {
    let template = match name {
        "tasks" => Template {
            board_name: "Team tasks",
            columns: vec![
                status(
                    "status",
                    "Status",
                    &[
                        ("Not started", GREY),
                        ("Working on it", ORANGE),
                        ("Stuck", RED),
                        ("Done*", GREEN),
                    ],
                ),
                plain("owner", "Owner", "people"),
                plain("due", "Due date", "date"),
                status(
                    "priority",
                    "Priority",
                    &[
                        ("Low", BLUE),
                        ("Medium", PURPLE),
                        ("High", ORANGE),
                        ("Critical", RED),
                    ],
                ),
                plain("notes", "Notes", "text"),
            ],
            groups: groups(&[
                ("this_week", "This week"),
                ("next_week", "Next week"),
                ("later", "Later"),
            ]),
            views: views(&[
                ("Main table", "table"),
                ("Kanban", "kanban"),
                ("Calendar", "calendar"),
            ]),
        },
        "projects" => Template {
            board_name: "Project portfolio",
            columns: vec![
                status(
                    "status",
                    "Status",
                    &[
                        ("Planning", GREY),
                        ("On track", GREEN),
                        ("At risk", ORANGE),
                        ("Off track", RED),
                        ("Complete*", BLUE),
                    ],
                ),
                plain("owner", "Project lead", "people"),
                plain("timeline", "Timeline", "timeline"),
                money("budget", "Budget"),
                money("spent", "Spent"),
                status(
                    "priority",
                    "Priority",
                    &[("Low", BLUE), ("Medium", PURPLE), ("High", RED)],
                ),
                plain("due", "Due date", "date"),
            ],
            groups: groups(&[
                ("active", "Active projects"),
                ("planned", "Planned"),
                ("completed", "Completed"),
            ]),
            views: views(&[
                ("Main table", "table"),
                ("Gantt", "gantt"),
                ("Budget chart", "chart"),
                ("Workload", "workload"),
            ]),
        },
        "operations" => Template {
            board_name: "Operations requests",
            columns: vec![
                status(
                    "status",
                    "Status",
                    &[
                        ("New", GREY),
                        ("In progress", ORANGE),
                        ("Waiting on vendor", PURPLE),
                        ("Resolved*", GREEN),
                    ],
                ),
                dropdown(
                    "request_type",
                    "Request type",
                    &["Facilities", "IT", "Procurement", "Finance", "HR"],
                ),
                plain("owner", "Owner", "people"),
                plain("due", "Due date", "date"),
                status(
                    "priority",
                    "Priority",
                    &[("Low", BLUE), ("Normal", PURPLE), ("Urgent", RED)],
                ),
                money("cost", "Cost"),
                plain("approved", "Approved", "checkbox"),
            ],
            groups: groups(&[
                ("incoming", "Incoming"),
                ("in_progress", "In progress"),
                ("closed", "Closed"),
            ]),
            views: views(&[
                ("Main table", "table"),
                ("Kanban", "kanban"),
                ("Workload", "workload"),
                ("Request form", "form"),
            ]),
        },
        "first-agent-board" => {
            let mut columns = sprint_columns(
                "Status",
                &[
                    ("Queued", GREY),
                    ("Ready for agent", ORANGE),
                    ("Running", BLUE),
                    ("Review", PURPLE),
                    ("Done*", GREEN),
                    ("Failed", RED),
                ],
                "Reviewer",
                "Effort",
                "Sprint",
                "Done on",
            );
            columns.push(dropdown("engine", "Agent", &["claude", "codex", "command"]));
            columns.push(plain("repository", "Repository", "text"));
            columns.push(plain("session", "Session", "text"));
            columns.push(plain("prompt", "Prompt", "text"));
            columns.push(plain("summary", "Summary", "text"));
            Template {
                board_name: "Agent tasks",
                columns,
                groups: groups(&[
                    ("this_sprint", "This sprint"),
                    ("backlog", "Backlog"),
                    ("finished", "Finished"),
                ]),
                views: views(&[
                    ("Main table", "table"),
                    ("Agent kanban", "kanban"),
                    ("Velocity", "chart"),
                ]),
            }
        }
        "trello" => Template {
            board_name: "Trello board",
            columns: vec![
                status(
                    "status",
                    "List",
                    &[("To Do", GREY), ("Doing", BLUE), ("Done*", GREEN)],
                ),
                plain("owner", "Members", "people"),
                plain("due", "Due date", "date"),
                dropdown(
                    "labels",
                    "Labels",
                    &["green", "yellow", "orange", "red", "purple", "blue"],
                ),
                plain("checklist_done", "Checklist complete", "checkbox"),
                plain("description", "Description", "text"),
            ],
            groups: groups(&[("to_do", "To Do"), ("doing", "Doing"), ("done", "Done")]),
            views: views(&[
                ("Board", "kanban"),
                ("Table", "table"),
                ("Calendar", "calendar"),
            ]),
        },
        "jira" => jira(false),
        "engineering-jira" => jira(true),
        "linear" => linear(false),
        "engineering-linear" => linear(true),
        "asana" => Template {
            board_name: "Asana project",
            columns: vec![
                status(
                    "status",
                    "Status",
                    &[
                        ("Not started", GREY),
                        ("In progress", BLUE),
                        ("Waiting", ORANGE),
                        ("Done*", GREEN),
                    ],
                ),
                plain("owner", "Assignee", "people"),
                plain("due", "Due date", "date"),
                status("priority", "Priority", LOW_MEDIUM_HIGH),
                status(
                    "health",
                    "Project status",
                    &[("On track", GREEN), ("At risk", ORANGE), ("Off track", RED)],
                ),
                plain("completed", "Completed", "checkbox"),
                plain("collaborators", "Collaborators", "people"),
            ],
            groups: groups(&[("to_do", "To do"), ("doing", "Doing"), ("done", "Done")]),
            views: views(&[
                ("List", "table"),
                ("Board", "kanban"),
                ("Timeline", "timeline"),
                ("Calendar", "calendar"),
            ]),
        },
        "notion" => Template {
            board_name: "Notion task database",
            columns: vec![
                status(
                    "status",
                    "Status",
                    &[
                        ("Not started", GREY),
                        ("In progress", BLUE),
                        ("Done*", GREEN),
                    ],
                ),
                plain("owner", "Assignee", "people"),
                plain("due", "Due", "date"),
                dropdown(
                    "tags",
                    "Tags",
                    &["Docs", "Research", "Meeting", "Design", "Engineering"],
                ),
                status("priority", "Priority", LOW_MEDIUM_HIGH),
                plain("notes", "Notes", "text"),
            ],
            groups: groups(&[("tasks", "Tasks")]),
            views: views(&[
                ("Table", "table"),
                ("Board", "kanban"),
                ("Calendar", "calendar"),
                ("Timeline", "timeline"),
            ]),
        },
        "clickup" => {
            let mut columns = sprint_columns(
                "Status",
                &[
                    ("TO DO", GREY),
                    ("IN PROGRESS", PURPLE),
                    ("REVIEW", ORANGE),
                    ("COMPLETE*", GREEN),
                ],
                "Assignees",
                "Sprint points",
                "Sprint",
                "Date closed",
            );
            columns.push(status(
                "priority",
                "Priority",
                &[
                    ("Urgent", RED),
                    ("High", ORANGE),
                    ("Normal", BLUE),
                    ("Low", GREY),
                ],
            ));
            columns.push(number_with("time_estimate", "Time estimate", "h"));
            columns.push(dropdown(
                "tags",
                "Tags",
                &["bug", "feature", "design", "ops"],
            ));
            Template {
                board_name: "ClickUp sprint list",
                columns,
                groups: groups(&[
                    ("sprint_current", "Current sprint"),
                    ("sprint_next", "Next sprint"),
                    ("backlog", "Backlog"),
                ]),
                views: views(&[
                    ("List", "table"),
                    ("Board", "kanban"),
                    ("Calendar", "calendar"),
                    ("Gantt", "gantt"),
                    ("Sprint burndown", "chart"),
                ]),
            }
        }
        "airtable" => Template {
            board_name: "Airtable base",
            columns: vec![
                status(
                    "status",
                    "Status",
                    &[("Todo", GREY), ("In progress", BLUE), ("Done*", GREEN)],
                ),
                plain("owner", "Assignee", "people"),
                plain("due", "Due date", "date"),
                dropdown("tags", "Tags", &["Marketing", "Sales", "Product", "Ops"]),
                money("cost", "Cost"),
                plain("approved", "Approved", "checkbox"),
                plain("notes", "Notes", "text"),
            ],
            groups: groups(&[("all_records", "All records")]),
            views: views(&[
                ("Grid view", "table"),
                ("Kanban", "kanban"),
                ("Calendar", "calendar"),
                ("Gallery", "gallery"),
                ("Form", "form"),
            ]),
        },
        _ => return None,
    };
    Some(template)
}

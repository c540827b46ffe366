//! `switchboard boards export | import`: a board as the full-board JSON, and
//! back, both through the running server like every other client command.
//!
//! An exported board can be far larger than the 1 MiB a request may carry, so
//! import plans the file locally with the boards crate's pure parsing (CSV
//! column types inferred, rows checked, no database), then creates the board
//! with `POST /boards` and sends its items with `POST /boards/<id>/items/batch`
//! in batches under the body limit and [`boards::MAX_BATCH_ITEMS`], marked as
//! an import (no item events), showing progress. The server checks every value
//! and answers with its usual codes; if any step fails once the board exists,
//! the board is deleted, so a failed import leaves nothing behind. (A process
//! killed mid-import can leave a partial board, like any client killed
//! between two requests.)

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Subcommand;
use serde_json::{Value, json};

use crate::client::{Client, Refusal};
use crate::settings_cmd::report;

#[derive(Subcommand)]
pub enum BoardsCommand {
    /// Print a board's full JSON (or write it to --out)
    Export {
        id: String,
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Create a new board from a full-board JSON export or a CSV file (first
    /// row the column titles; types are inferred and reported)
    Import {
        file: PathBuf,
        /// The workspace the new board goes into
        #[arg(long, value_name = "ID")]
        workspace: String,
        /// The new board's name (CSV only; default: the file's name)
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: BoardsCommand, data_dir: &Path) -> anyhow::Result<ExitCode> {
    match command {
        BoardsCommand::Export { id, out } => {
            let board = match Client::discover(data_dir)?.get(&format!("/boards/{id}/full"))? {
                Ok(board) => board,
                refused => return report(refused, false, |_| {}),
            };
            let text = board.to_string();
            match &out {
                Some(path) => {
                    std::fs::write(path, text)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    eprintln!("wrote {}", path.display());
                }
                None => println!("{text}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        BoardsCommand::Import {
            file,
            workspace,
            name,
            json,
        } => import(data_dir, &file, &workspace, name, json),
    }
}

/// The most bytes of items one batch request carries: the contract refuses
/// bodies over 1 MiB (413), and the envelope fits in what is left.
const BATCH_BYTES: usize = 1_000_000;

/// The server gives a board created without columns its default preset's;
/// an import without any asks for this one and removes it again.
const PLACEHOLDER_COLUMN: &str = "import-placeholder";

fn import(
    data_dir: &Path,
    file: &Path,
    workspace: &str,
    name: Option<String>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", file.display()))?;
    let client = Client::discover(data_dir)?;
    let is_json = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        || bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let reply = if is_json {
        import_json(&client, workspace, &bytes)?
    } else {
        let name = name.unwrap_or_else(|| {
            file.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "Imported board".to_owned())
        });
        import_csv(&client, workspace, &name, &bytes)?
    };
    report(reply, json, |report| {
        let board = &report["board"];
        println!(
            "imported board {} \"{}\" ({} items)",
            board["id"].as_str().unwrap_or("?"),
            board["name"].as_str().unwrap_or("?"),
            report
                .get("rows")
                .or(report.get("items"))
                .unwrap_or(&Value::Null)
        );
        if let Some(columns) = report["columns"].as_array() {
            for column in columns {
                println!(
                    "  {} -> {}",
                    column["title"].as_str().unwrap_or("?"),
                    column["type"].as_str().unwrap_or("?")
                );
            }
        }
    })
}

/// A file the boards crate refused while planning: the code the server gives
/// the same refusal.
fn refused_locally(error: boards::BoardsError) -> Refusal {
    Refusal {
        status: 400,
        code: "invalid_request".to_owned(),
        message: error.to_string(),
    }
}

fn import_json(client: &Client, workspace: &str, bytes: &[u8]) -> anyhow::Result<Reply> {
    let mut import = match boards::plan_board_json(bytes) {
        Ok(import) => import,
        Err(error) => return Ok(Err(refused_locally(error))),
    };
    let dropped_members = if import.has_people() {
        let members = match client.get("/members")? {
            Ok(members) => members,
            Err(refusal) => return Ok(Err(refusal)),
        };
        let known: HashSet<String> = members
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|m| m["id"].as_str().map(str::to_owned))
            .collect();
        import.drop_unknown_members(&known)
    } else {
        Vec::new()
    };
    import.board.workspace_id = workspace.to_owned();
    let created = create(client, &import.board, &import.items, "items", |i| {
        format!("items[{i}]")
    })?;
    Ok(created.map(|board| {
        json!(boards::ImportReport {
            board,
            items: import.items.len() as u64,
            dropped_members,
        })
    }))
}

fn import_csv(client: &Client, workspace: &str, name: &str, bytes: &[u8]) -> anyhow::Result<Reply> {
    let mut import = match boards::plan_csv(name, bytes, &mut |_| ()) {
        Ok(import) => import,
        Err(error) => return Ok(Err(refused_locally(error))),
    };
    import.board.workspace_id = workspace.to_owned();
    let lines = import.lines.clone();
    let created = create(client, &import.board, &import.items, "rows", |i| {
        format!("line {}", lines[i])
    })?;
    Ok(created.map(|board| json!(import.report(board))))
}

type Reply = Result<Value, Refusal>;

/// Creates the board, then its items in batches under the body limit, with a
/// progress bar. If anything fails after the board exists, the board is
/// deleted, so a failed import leaves nothing behind. `label(i)` names item
/// `i` of the whole file in a refusal.
fn create(
    client: &Client,
    board: &boards::NewBoard,
    items: &[boards::NewItem],
    unit: &str,
    label: impl Fn(usize) -> String,
) -> anyhow::Result<Result<boards::Board, Refusal>> {
    let mut body = serde_json::to_value(board)?;
    if board.columns.is_empty() {
        body["columns"] = json!([{"id": PLACEHOLDER_COLUMN, "title": "-", "type": "text"}]);
    }
    let id = match client.send("POST", "/boards", Some(&body))? {
        Ok(created) => created["id"]
            .as_str()
            .context("the server's new board has no id")?
            .to_owned(),
        Err(refusal) => return Ok(Err(refusal)),
    };
    let filled = fill(client, &id, board, items, unit, &label);
    if !matches!(filled, Ok(Ok(_))) {
        match client.send("DELETE", &format!("/boards/{id}"), None) {
            Ok(Ok(_)) => {}
            Ok(Err(refusal)) => eprintln!(
                "switchboard: the partly imported board {id} could not be removed: {}",
                refusal.message
            ),
            Err(error) => eprintln!(
                "switchboard: the partly imported board {id} could not be removed: {error:#}"
            ),
        }
    }
    filled
}

fn fill(
    client: &Client,
    id: &str,
    board: &boards::NewBoard,
    items: &[boards::NewItem],
    unit: &str,
    label: &impl Fn(usize) -> String,
) -> anyhow::Result<Result<boards::Board, Refusal>> {
    if board.columns.is_empty() {
        let path = format!("/boards/{id}/columns/{PLACEHOLDER_COLUMN}");
        if let Err(refusal) = client.send("DELETE", &path, None)? {
            return Ok(Err(refusal));
        }
    }
    let bar = indicatif::ProgressBar::new(items.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit} {{elapsed}}"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let path = format!("/boards/{id}/items/batch");
    let mut start = 0;
    for end in batch_ends(items)? {
        let body = json!({"items": &items[start..end], "import": true});
        if let Err(mut refusal) = client.send("POST", &path, Some(&body))? {
            bar.finish_and_clear();
            if let Some((index, reason)) = boards::batch_refusal(&refusal.message) {
                refusal.message = format!("{}: {reason}", label(start + index));
            }
            return Ok(Err(refusal));
        }
        bar.set_position(end as u64);
        start = end;
    }
    bar.finish_and_clear();
    let board = match client.get(&format!("/boards/{id}"))? {
        Ok(board) => board,
        Err(refusal) => return Ok(Err(refusal)),
    };
    Ok(Ok(
        serde_json::from_value(board).context("the server's board is not a board")?
    ))
}

/// Where each batch ends: at most [`boards::MAX_BATCH_ITEMS`] items and
/// [`BATCH_BYTES`] of JSON each.
fn batch_ends(items: &[boards::NewItem]) -> anyhow::Result<Vec<usize>> {
    let mut ends = Vec::new();
    let (mut count, mut bytes) = (0, 0);
    for (index, item) in items.iter().enumerate() {
        let size = serde_json::to_string(item)?.len() + 1;
        if size > BATCH_BYTES {
            bail!("item {index} alone is larger than a request may be ({size} bytes)");
        }
        if count == boards::MAX_BATCH_ITEMS || bytes + size > BATCH_BYTES {
            ends.push(index);
            (count, bytes) = (0, 0);
        }
        count += 1;
        bytes += size;
    }
    if count > 0 {
        ends.push(items.len());
    }
    Ok(ends)
}

//! `switchboard boards export | import`: a board as the full-board JSON, and
//! back. Export asks the running server; import is a local maintenance
//! command that writes straight into the data directory's database (safe
//! beside a running server: SQLite serialises the writers), so a large file
//! needs no request-size limit and shows its progress.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Subcommand;

use crate::client::Client;
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

fn import(
    data_dir: &Path,
    file: &Path,
    workspace: &str,
    name: Option<String>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let database = data_dir.join("switchboard.db");
    if !database.exists() {
        bail!(
            "{} does not exist; start Switchboard once with `switchboard serve`",
            database.display()
        );
    }
    let db = store::Db::open(&database)?;
    let owner = accounts::owner(&db)?.context("the database has no owner account yet")?;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", file.display()))?;
    let is_json = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        || bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let outcome = if is_json {
        boards::import_board_json(&db, &owner.id, workspace, &bytes).map(|r| serde_json::json!(r))
    } else {
        let name = name.unwrap_or_else(|| {
            file.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "Imported board".to_owned())
        });
        let total_lines = bytes.iter().filter(|b| **b == b'\n').count() as u64;
        let bar = indicatif::ProgressBar::new(total_lines.saturating_sub(1));
        bar.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} rows {elapsed}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let result = boards::import_csv(
            &db,
            &owner.id,
            workspace,
            &name,
            bytes.as_slice(),
            &mut |rows| bar.set_position(rows),
        );
        bar.finish_and_clear();
        result.map(|r| serde_json::json!(r))
    };
    let reply = outcome.map_err(|e| crate::client::Refusal {
        status: 400,
        code: match e {
            boards::BoardsError::NotFound { .. } => "not_found",
            _ => "invalid_request",
        }
        .to_owned(),
        message: e.to_string(),
    });
    report(reply, json, |report| {
        let board = &report["board"];
        println!(
            "imported board {} \"{}\" ({} items)",
            board["id"].as_str().unwrap_or("?"),
            board["name"].as_str().unwrap_or("?"),
            report
                .get("rows")
                .or(report.get("items"))
                .unwrap_or(&serde_json::Value::Null)
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

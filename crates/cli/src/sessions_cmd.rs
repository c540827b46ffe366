//! `switchboard spawn | send | sessions | stop | alert | runners`: the
//! commands an agent (or a person) uses to start and steer sessions and to
//! see where they can run. Inside a session they authenticate with its
//! scoped token and name it as the source session.

use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

pub struct Spawn {
    pub engine: Option<String>,
    pub cwd: Option<String>,
    pub title: Option<String>,
    pub worktree: bool,
    pub trigger: Option<String>,
    /// `local`, a runner of `runners.toml`, or `auto`.
    pub runner: Option<String>,
    pub prompt: String,
    pub json: bool,
}

pub fn spawn(data_dir: &Path, args: Spawn) -> anyhow::Result<ExitCode> {
    let mut body = json!({ "prompt": args.prompt });
    for (field, value) in [
        ("engine", args.engine),
        ("cwd", args.cwd),
        ("title", args.title),
        ("trigger", args.trigger),
        ("runner", args.runner),
    ] {
        if let Some(value) = value {
            body[field] = Value::String(value);
        }
    }
    if args.worktree {
        body["isolation"] = json!("worktree");
    }
    let reply = Client::discover(data_dir)?.send("POST", "/sessions", Some(&body))?;
    report(reply, args.json, |session| {
        let id = session["id"].as_str().unwrap_or("?");
        match session["startsAt"].as_str() {
            Some(at) if session["status"] == "queued" => {
                println!("{id} queued; starts at {at} (spawn spacing)")
            }
            _ => println!("{id} {}", session["status"].as_str().unwrap_or("?")),
        }
    })
}

pub fn send(data_dir: &Path, id: &str, text: &str, json: bool) -> anyhow::Result<ExitCode> {
    let body = json!({ "text": text });
    let reply = Client::discover(data_dir)?.send(
        "POST",
        &format!("/sessions/{id}/messages"),
        Some(&body),
    )?;
    report(reply, json, |session| {
        println!(
            "sent to {id} ({})",
            session["status"].as_str().unwrap_or("?")
        )
    })
}

pub fn list(data_dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let reply = Client::discover(data_dir)?.get("/sessions")?;
    report(reply, json, |sessions| {
        let rows = sessions.as_array().map(Vec::as_slice).unwrap_or_default();
        if rows.is_empty() {
            println!("no sessions");
        }
        for s in rows {
            let cost = s["costUsd"]
                .as_f64()
                .map(|c| format!("${c:.2}"))
                .unwrap_or_else(|| "-".to_owned());
            println!(
                "{}  {:<17} {:<10} turns {:<3} {:>8}  {}",
                s["id"].as_str().unwrap_or("?"),
                s["status"].as_str().unwrap_or("?"),
                s["engine"].as_str().unwrap_or("?"),
                s["turns"],
                cost,
                s["title"].as_str().unwrap_or_default(),
            );
        }
    })
}

pub fn stop(data_dir: &Path, id: &str, tree: bool, json: bool) -> anyhow::Result<ExitCode> {
    // Without --tree no body is sent, which the server reads as today's single stop.
    let body = tree.then(|| json!({ "tree": true }));
    let reply =
        Client::discover(data_dir)?.send("POST", &format!("/sessions/{id}/stop"), body.as_ref())?;
    report(reply, json, |session| {
        println!("{id} {}", session["status"].as_str().unwrap_or("?"))
    })
}

pub fn alert(
    data_dir: &Path,
    title: &str,
    body: Option<&str>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let mut alert = json!({ "title": title });
    if let Some(body) = body {
        alert["body"] = Value::String(body.to_owned());
    }
    let reply = Client::discover(data_dir)?.send("POST", "/alert", Some(&alert))?;
    report(reply, json, |row| {
        println!("inbox row {}", row["id"].as_str().unwrap_or("?"))
    })
}

/// `GET /runners`: one line per runner, `local` first.
pub fn runners(data_dir: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let reply = Client::discover(data_dir)?.get("/runners")?;
    report(reply, json, |runners| {
        for runner in runners.as_array().map(Vec::as_slice).unwrap_or_default() {
            println!("{}", runner_line(runner));
        }
    })
}

/// `devbox  ssh    unreachable  sessions 0/8  -  ssh: connect to host …`.
fn runner_line(runner: &Value) -> String {
    let max = runner["maxSessions"]
        .as_u64()
        .map_or_else(|| "-".to_owned(), |m| m.to_string());
    let sessions = format!("{}/{max}", runner["sessions"].as_u64().unwrap_or(0));
    let memory = runner["memory"]["availableMb"]
        .as_u64()
        .map_or_else(|| "-".to_owned(), |mb| format!("{mb} MB free"));
    let state = runner["state"].as_str().unwrap_or("?");
    let reason = match runner["reason"].as_str() {
        Some(reason) if state != "connected" => format!("  {reason}"),
        _ => String::new(),
    };
    format!(
        "{:<16} {:<5} {:<11} sessions {:<7} {:>12}{reason}",
        runner["name"].as_str().unwrap_or("?"),
        runner["kind"].as_str().unwrap_or("?"),
        state,
        sessions,
        memory,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runner_line_names_its_state_room_memory_and_reason() {
        let local = json!({
            "name": "local", "kind": "local", "state": "connected", "reason": null,
            "sessions": 2, "maxSessions": null, "memory": {"totalMb": 16000, "availableMb": 9000},
        });
        assert_eq!(
            runner_line(&local),
            "local            local connected   sessions 2/-     9000 MB free"
        );
        let devbox = json!({
            "name": "devbox", "kind": "ssh", "state": "unreachable",
            "reason": "ssh: connect to host devbox port 22: Connection refused",
            "sessions": 0, "maxSessions": 8, "memory": null,
        });
        assert_eq!(
            runner_line(&devbox),
            "devbox           ssh   unreachable sessions 0/8                -  \
             ssh: connect to host devbox port 22: Connection refused"
        );
    }
}

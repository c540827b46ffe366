//! `switchboard runner`: the helper side of a runner host. The server starts
//! `runner --stdio` over SSH for each request; `runner --connect URL` is a
//! pool runner that dials the server's runner listener and serves turns on
//! the connection it holds; `runner --keep DIR` is the detached keeper of
//! one turn that the helper starts, `runner --keep-app DIR` of one app.
//! Also `switchboard runners`: the list, and the tokens pool runners
//! connect with.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use serde_json::{Value, json};

use crate::client::Client;
use crate::settings_cmd::report;

/// How a pool runner confines engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Isolation {
    /// The kernel's sandbox (namespaces or Landlock); a turn it cannot
    /// confine does not start
    Sandbox,
    /// The pod is the boundary: where the kernel offers no sandbox, engines
    /// run in the pod unconfined (locked-down sessions never run here)
    Pod,
}

#[derive(Debug, clap::Args)]
pub struct PoolArgs {
    /// Be a pool runner: connect to the server's runner listener
    /// (https://HOST:PORT) and take turns there, reconnecting when the
    /// connection drops
    #[arg(long, value_name = "URL", requires = "token_file")]
    pub connect: Option<String>,
    /// A file holding the runner token (`switchboard runners token
    /// create`), read again at each connection
    #[arg(long, value_name = "PATH")]
    pub token_file: Option<PathBuf>,
    /// The runner's name in Switchboard (default: this host's name)
    #[arg(long, value_name = "NAME", env = "SWITCHBOARD_RUNNER_NAME")]
    pub name: Option<String>,
    /// Labels to show with the runner, comma-separated
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub labels: Vec<String>,
    /// Trust the listener's certificate by its SHA-256 fingerprint (as
    /// `GET /runners/listener` shows it): a self-signed listener
    #[arg(long, value_name = "SHA256", conflicts_with = "ca_file")]
    pub ca_fingerprint: Option<String>,
    /// Trust the listener's certificate through this CA's PEM file
    #[arg(long, value_name = "PATH")]
    pub ca_file: Option<PathBuf>,
    /// How engines are confined here
    #[arg(long, value_enum, default_value_t = Isolation::Sandbox, env = "SWITCHBOARD_RUNNER_ISOLATION")]
    pub isolation: Isolation,
    /// The most sessions this runner runs at once; more wait, queued
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_sessions: Option<u32>,
    /// A file read in place of /proc/meminfo (tests give runners on one
    /// machine memory of their own)
    #[arg(long, hide = true, value_name = "PATH")]
    pub meminfo_file: Option<PathBuf>,
}

pub fn run(
    keep: Option<&Path>,
    keep_app: Option<&Path>,
    pool: PoolArgs,
) -> anyhow::Result<ExitCode> {
    if let Some(dir) = keep {
        runners::helper::keep(dir).with_context(|| format!("turn {}", dir.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = keep_app {
        runners::helper::keep_app(dir).with_context(|| format!("app {}", dir.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(url) = pool.connect.clone() {
        return connect(url, pool);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("the helper's runtime could not start")?;
    runtime
        .block_on(runners::helper::serve_stdio(env!("CARGO_PKG_VERSION")))
        .context("the runner channel failed")?;
    Ok(ExitCode::SUCCESS)
}

fn connect(url: String, pool: PoolArgs) -> anyhow::Result<ExitCode> {
    use runners::pool::tls::Trust;
    let trust = match (pool.ca_fingerprint, pool.ca_file) {
        (Some(fingerprint), _) => Trust::Fingerprint(fingerprint),
        (None, Some(path)) => Trust::CaFile(path),
        (None, None) => Trust::PublicRoots,
    };
    if let Some(path) = pool.meminfo_file {
        runners::helper::read_memory_from(path);
    }
    let options = runners::pool::runner::ConnectOptions {
        url,
        token_file: pool.token_file.context("--token-file is required")?,
        name: pool.name.unwrap_or_else(host_name),
        labels: pool.labels,
        max_sessions: pool.max_sessions,
        trust,
        pod_isolation: pool.isolation == Isolation::Pod,
        version: env!("CARGO_PKG_VERSION").to_owned(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("the runner's runtime could not start")?;
    match runtime.block_on(runners::pool::runner::run(options)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(message) => {
            eprintln!("switchboard runner: {message}");
            Ok(ExitCode::from(2))
        }
    }
}

/// This host's name as a runner's name: what a name may hold, the rest `-`.
fn host_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let name: String = host
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(64)
        .collect();
    if name.is_empty() {
        "runner".to_owned()
    } else {
        name
    }
}

#[derive(Debug, clap::Subcommand)]
pub enum RunnersCommand {
    /// The tokens pool runners connect with
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// The runner listener: where pool runners connect, and the
    /// fingerprint they pin
    Listener,
}

#[derive(Debug, clap::Subcommand)]
pub enum TokenCommand {
    /// Mint a runner token (printed once; only its digest is kept)
    Create {
        #[arg(long, default_value = "runner")]
        name: String,
    },
    /// List the runner tokens (never the tokens themselves)
    List,
    /// Revoke a runner token: its runners' connections close at once
    Revoke { id: String },
}

pub fn runners(
    command: Option<RunnersCommand>,
    data_dir: &Path,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let Some(command) = command else {
        return crate::sessions_cmd::runners(data_dir, json);
    };
    let client = Client::discover(data_dir)?;
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or("-").to_owned();
    match command {
        RunnersCommand::Listener => report(client.get("/runners/listener")?, json, |l| {
            println!("{}", listener_line(l));
        }),
        RunnersCommand::Token {
            command: TokenCommand::Create { name },
        } => {
            let reply = client.send("POST", "/runners/tokens", Some(&json!({ "name": name })))?;
            report(reply, json, |t| {
                println!("{}", text(t, "token"));
                eprintln!(
                    "Runner token {} ({}). It is shown only now.\n{}",
                    text(t, "id"),
                    text(t, "name"),
                    listener_line(&t["listener"])
                );
            })
        }
        RunnersCommand::Token {
            command: TokenCommand::List,
        } => report(client.get("/runners/tokens")?, json, |list| {
            let tokens = list.as_array().cloned().unwrap_or_default();
            if tokens.is_empty() {
                println!("No runner tokens.");
            }
            for t in tokens {
                println!(
                    "{}  {}  {}",
                    text(&t, "id"),
                    text(&t, "name"),
                    text(&t, "createdAt")
                );
            }
        }),
        RunnersCommand::Token {
            command: TokenCommand::Revoke { id },
        } => {
            let reply = client.send("DELETE", &format!("/runners/tokens/{id}"), None)?;
            report(reply, json, |_| println!("Revoked {id}."))
        }
    }
}

/// Where runners connect and what they pin, or why they cannot.
fn listener_line(listener: &Value) -> String {
    match (
        listener["address"].as_str(),
        listener["fingerprint"].as_str(),
    ) {
        (Some(address), Some(fingerprint)) => format!(
            "Runners connect to https://{address} with --ca-fingerprint {fingerprint} (when its certificate is the self-signed one)"
        ),
        _ => match listener["error"].as_str() {
            Some(error) => format!("The runner listener is not listening: {error}"),
            None => "The runner listener is off: add [listener] to runners.toml".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_line_says_where_to_connect_or_why_not() {
        let up = json!({"configured": true, "address": "0.0.0.0:19521", "fingerprint": "ab12", "error": null});
        assert!(listener_line(&up).contains("https://0.0.0.0:19521 with --ca-fingerprint ab12"));
        let off = json!({"configured": true, "address": null, "fingerprint": null, "error": "cloudControlPlaneEnabled is off"});
        assert!(listener_line(&off).contains("cloudControlPlaneEnabled is off"));
        let none =
            json!({"configured": false, "address": null, "fingerprint": null, "error": null});
        assert!(listener_line(&none).contains("add [listener]"));
    }

    #[test]
    fn a_host_name_becomes_a_runner_name() {
        let name = host_name();
        assert!(runners::config::valid_name(&name), "{name}");
    }
}

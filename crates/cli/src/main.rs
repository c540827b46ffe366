//! `switchboard`: runs the application (`serve`) and talks to a running one.
//!
//! Only this crate knows clap. `serve` hands its flags to the server crate;
//! every other subcommand is a client that finds the running server through
//! `server.json` and `cli-token` in the data directory, or through
//! `APP_CONTROL_URL` and `APP_CLI_TOKEN` inside an agent session.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

mod approvals_cmd;
mod apps_cmd;
mod backup_cmd;
mod boards_cmd;
mod bookmarks_cmd;
mod client;
mod demo_engine_cmd;
mod doctor_cmd;
mod messages_cmd;
mod recipes_cmd;
mod runner_cmd;
mod secrets_cmd;
mod serve_cmd;
mod sessions_cmd;
mod settings_cmd;
mod shell_cmd;
mod work_cmd;

#[derive(Parser)]
#[command(
    name = "switchboard",
    version,
    about = "A local control plane for people who run many AI coding agents at once.",
    long_about = "A local control plane for people who run many AI coding agents at once.\n\n\
        `switchboard serve` starts the application: a control server for scripts and agents on \
        127.0.0.1:19519 and the web UI on 127.0.0.1:19520. The other commands talk to the running \
        server (found through server.json in the data directory, or APP_CONTROL_URL and \
        APP_CLI_TOKEN inside an agent session)."
)]
struct Cli {
    /// Where Switchboard keeps its database, token and server.json
    /// [default: $SWITCHBOARD_DATA_DIR, else ~/.local/share/switchboard]
    #[arg(long, global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the application: control server, UI server and agent sessions
    Serve {
        /// Port of the control server on 127.0.0.1 (0 picks a free one)
        #[arg(long, default_value_t = server::DEFAULT_CONTROL_PORT, value_name = "N")]
        control_port: u16,
        /// Port of the UI server on 127.0.0.1 (0 picks a free one)
        #[arg(long, default_value_t = server::DEFAULT_UI_PORT, value_name = "N")]
        ui_port: u16,
        /// Port of the Running apps proxy on 127.0.0.1 (default 19521, or a
        /// free one when that is taken; 0 picks a free one)
        #[arg(long, value_name = "N")]
        apps_port: Option<u16>,
        /// Seed a demo workspace (boards, members, sprints, agent sessions) if there are no boards yet
        #[arg(long)]
        demo: bool,
        /// How often an idle event stream sends a keep-alive comment (tests shorten it)
        #[arg(long, hide = true, default_value_t = server::STREAM_KEEP_ALIVE_MS, value_name = "MS")]
        stream_keep_alive_ms: u64,
        /// Run on a clock that stands still until `POST /test/clock` moves it (tests only)
        #[arg(long, hide = true)]
        manual_clock: bool,
        /// Start that manual clock at this moment, in Unix milliseconds (tests only)
        #[arg(long, hide = true, value_name = "UNIX_MS")]
        manual_clock_start_ms: Option<i64>,
        /// Read this file in place of /proc/meminfo for the memory guard (tests only)
        #[arg(long, hide = true, value_name = "PATH")]
        meminfo_file: Option<PathBuf>,
        /// Leave engines in the server's own cgroup (benchmarks only: what
        /// the session trees give is measured against it)
        #[arg(long, hide = true)]
        without_session_trees: bool,
    },
    /// Read and change settings, or print the catalog generated from the schema
    #[command(subcommand)]
    Settings(settings_cmd::SettingsCommand),
    /// Start an agent session (inside a session: a helper session)
    Spawn {
        /// The engine named in engines.toml [default: primary]
        #[arg(long)]
        engine: Option<String>,
        /// The folder the engine runs in [default: your home]
        #[arg(long)]
        cwd: Option<String>,
        #[arg(long)]
        title: Option<String>,
        /// Run in a new git worktree of the repository --cwd is in, on a branch of its own
        #[arg(long)]
        worktree: bool,
        /// What started the session: `email` locks it down (read-only, no spawning)
        #[arg(long, value_parser = ["email"])]
        trigger: Option<String>,
        /// Where the engine runs: local (default), a runner of runners.toml, or auto
        #[arg(long, value_name = "NAME")]
        runner: Option<String>,
        prompt: String,
        #[arg(long)]
        json: bool,
    },
    /// Send a follow-up message to a session (queued while a turn runs)
    Send {
        id: String,
        text: String,
        #[arg(long)]
        json: bool,
    },
    /// List sessions, newest first
    Sessions {
        #[arg(long)]
        json: bool,
    },
    /// Stop a session and its whole process tree
    Stop {
        id: String,
        /// Also stop every session it spawned, and theirs
        #[arg(long)]
        tree: bool,
        #[arg(long)]
        json: bool,
    },
    /// Drop a persistent row into the inbox
    Alert {
        title: String,
        body: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Export and import boards
    #[command(subcommand)]
    Boards(boards_cmd::BoardsCommand),
    /// Hooks the engines run (Claude Code's PreToolUse: the permission broker)
    #[command(subcommand)]
    Hook(approvals_cmd::HookCommand),
    /// List the tool calls waiting for your approval, or answer one
    Approvals {
        #[command(subcommand)]
        command: Option<approvals_cmd::ApprovalsCommand>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// Inside a session: ask the user for a value (an API key) written to a
    /// dotenv file in the session's folder; the value never reaches the model
    RequestInput {
        /// The variable's name, as written in the file
        name: String,
        /// What the user is asked
        #[arg(long)]
        prompt: String,
        /// The dotenv file, relative to the session's folder [default: .env]
        #[arg(long, value_name = "PATH")]
        file: Option<String>,
    },
    /// Inside a session: offer a key it holds for the user to review and save
    ProposeKey {
        name: String,
        /// A file holding the key (a dotenv file's NAME= line, else the whole file)
        #[arg(long, value_name = "PATH")]
        from_file: PathBuf,
    },
    /// List, add, remove, reorder or launch bookmarks
    Bookmarks {
        #[command(subcommand)]
        command: Option<bookmarks_cmd::BookmarksCommand>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// The Running apps: list (no subcommand), start, stop, restart, output, proxy (docs/apps.md)
    Apps {
        #[command(subcommand)]
        command: Option<apps_cmd::AppsCommand>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// List your saved keys (names only), or delete one
    Keys {
        #[command(subcommand)]
        command: Option<secrets_cmd::KeysCommand>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// Check what a session needs here: engines and their versions, the
    /// sandbox, the ports, the data directory's permissions (exit 1 when no
    /// session could start; no server needed)
    Doctor {
        /// The control port `serve` would bind, when no server runs
        #[arg(long, default_value_t = server::DEFAULT_CONTROL_PORT, value_name = "N")]
        control_port: u16,
        /// The UI port `serve` would bind, when no server runs
        #[arg(long, default_value_t = server::DEFAULT_UI_PORT, value_name = "N")]
        ui_port: u16,
        #[arg(long)]
        json: bool,
    },
    /// On a runner host: the helper the server starts over SSH, or a pool
    /// runner that connects to the server (docs/runners.md)
    Runner {
        /// Serve one request of the runner protocol on stdin and stdout
        #[arg(long, required_unless_present_any = ["keep", "keep_app", "connect"], conflicts_with = "connect")]
        stdio: bool,
        /// Run one turn's engine and spool its output (started by the helper)
        #[arg(long, hide = true, value_name = "DIR", conflicts_with_all = ["stdio", "connect"])]
        keep: Option<PathBuf>,
        /// Run one app of a session and keep its output (started by the helper)
        #[arg(long, hide = true, value_name = "DIR", conflicts_with_all = ["stdio", "keep", "connect"])]
        keep_app: Option<PathBuf>,
        #[command(flatten)]
        pool: runner_cmd::PoolArgs,
    },
    /// List where sessions can run: local, the runners of runners.toml and
    /// pool runners, with their state, sessions and memory; or manage the
    /// tokens pool runners connect with (docs/runners.md)
    Runners {
        #[command(subcommand)]
        command: Option<runner_cmd::RunnersCommand>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// What became of your agents' work (landed, waiting on review, turned down, stranded), and prune, discard, push or continue one piece
    Work {
        #[command(subcommand)]
        command: Option<work_cmd::WorkCommand>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// List your recipes, or run one by name with values for its placeholders (docs/automations.md)
    Recipes {
        #[command(subcommand)]
        command: Option<recipes_cmd::RecipesCommand>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// List your scheduled messages, or schedule a Markdown note for the inbox once or on a rule (docs/automations.md)
    Messages {
        #[command(subcommand)]
        command: Option<messages_cmd::MessagesCommand>,
        #[arg(long, global = true)]
        json: bool,
    },
    /// Write a consistent backup of the data directory (database, keys,
    /// config files) to FILE, while the server runs or not (docs/backup.md)
    Backup {
        /// The archive to write (a zstd-compressed tar)
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Restore a backup into --data-dir, which must be missing or empty (docs/backup.md)
    Restore {
        /// An archive `switchboard backup` wrote
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Print the shell completion script for SHELL (see the README to install it)
    Completions { shell: clap_complete::Shell },
    /// Print the manual page (roff), e.g. `switchboard man | man -l -`
    Man,
}

fn main() -> ExitCode {
    // The built-in demo engine takes Claude Code's flags, not Switchboard's:
    // clap never sees them, and `--help` does not list it (it is only
    // ever run by a server started with `--demo`).
    let mut raw = std::env::args_os().skip(1);
    if raw
        .next()
        .is_some_and(|first| first == sessions::engines::DEMO_ENGINE_SUBCOMMAND)
    {
        return demo_engine_cmd::run(raw.collect());
    }
    let cli = Cli::parse();
    let data_dir = cli.data_dir.clone().unwrap_or_else(default_data_dir);
    let outcome = match cli.command {
        Command::Serve {
            control_port,
            ui_port,
            apps_port,
            demo,
            stream_keep_alive_ms,
            manual_clock,
            manual_clock_start_ms,
            meminfo_file,
            without_session_trees,
        } => serve_cmd::run(serve_cmd::Serve {
            app: app::Options {
                data_dir,
                demo,
                manual_clock,
                manual_clock_start_ms,
                meminfo_file,
                without_session_trees,
                demo_projects: None,
            },
            control_port,
            ui_port,
            apps_port,
            stream_keep_alive: std::time::Duration::from_millis(stream_keep_alive_ms),
        }),
        Command::Settings(command) => settings_cmd::run(command, &data_dir),
        Command::Spawn {
            engine,
            cwd,
            title,
            worktree,
            trigger,
            runner,
            prompt,
            json,
        } => sessions_cmd::spawn(
            &data_dir,
            sessions_cmd::Spawn {
                engine,
                cwd,
                title,
                worktree,
                trigger,
                runner,
                prompt,
                json,
            },
        ),
        Command::Send { id, text, json } => sessions_cmd::send(&data_dir, &id, &text, json),
        Command::Sessions { json } => sessions_cmd::list(&data_dir, json),
        Command::Stop { id, tree, json } => sessions_cmd::stop(&data_dir, &id, tree, json),
        Command::Alert { title, body, json } => {
            sessions_cmd::alert(&data_dir, &title, body.as_deref(), json)
        }
        Command::Boards(command) => boards_cmd::run(command, &data_dir),
        Command::Hook(command) => approvals_cmd::hook(command, &data_dir),
        Command::Approvals { command, json } => approvals_cmd::approvals(command, &data_dir, json),
        Command::RequestInput { name, prompt, file } => {
            secrets_cmd::request_input(&data_dir, &name, &prompt, file.as_deref())
        }
        Command::ProposeKey { name, from_file } => {
            secrets_cmd::propose_key(&data_dir, &name, &from_file)
        }
        Command::Keys { command, json } => secrets_cmd::keys(command, &data_dir, json),
        Command::Bookmarks { command, json } => bookmarks_cmd::run(command, &data_dir, json),
        Command::Apps { command, json } => apps_cmd::run(command, &data_dir, json),
        Command::Runner {
            stdio: _,
            keep,
            keep_app,
            pool,
        } => runner_cmd::run(keep.as_deref(), keep_app.as_deref(), pool),
        Command::Runners { command, json } => runner_cmd::runners(command, &data_dir, json),
        Command::Work { command, json } => work_cmd::run(command, &data_dir, json),
        Command::Recipes { command, json } => recipes_cmd::run(command, &data_dir, json),
        Command::Messages { command, json } => messages_cmd::run(command, &data_dir, json),
        Command::Doctor {
            control_port,
            ui_port,
            json,
        } => doctor_cmd::run(
            &data_dir,
            doctor::Listeners::Expected {
                control: control_port,
                ui: ui_port,
            },
            json,
        ),
        Command::Backup { out, json } => backup_cmd::backup(&data_dir, &out, json),
        Command::Restore { file, json } => backup_cmd::restore(&file, &data_dir, json),
        Command::Completions { shell } => shell_cmd::completions(shell, Cli::command()),
        Command::Man => shell_cmd::man(Cli::command()),
    };
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("switchboard: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn default_data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SWITCHBOARD_DATA_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    dirs::data_dir()
        .or_else(|| dirs::home_dir().map(|h| h.join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."))
        .join("switchboard")
}

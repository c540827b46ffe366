//! What Switchboard's permission hook costs the real Claude Code per tool
//! call: the pinned CLI (`make engines-deps`) runs a scripted conversation of
//! allowed `Bash` calls against the Anthropic stand-in, once on its own
//! (`--allowedTools Bash`, no hook) and once as a Switchboard session at
//! `autonomous` (the hook asks the server, which allows). A tool call's round
//! trip is the time from the stand-in's request that answered with the call
//! to the next request, which carries its result; the difference between the
//! two runs' percentiles is the hook's decision (a fresh `switchboard hook`
//! process, its request to the server, the broker's rules) plus the
//! sandboxed spawn. Printed, not asserted.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use standins::{Api, Message, Standin};
use support::{Addresses, percentile, signal_term, start_with_home};

/// Tool calls per run: the first is dropped from the figures (the CLI's
/// first tool use loads more than later ones).
const CALLS: usize = 41;

fn main() {
    let dir = support::engines_dir();
    let claude = dir.join("claude");
    assert!(
        claude.exists(),
        "the real Claude Code is not in {} (run `make engines-deps`)",
        dir.display()
    );
    let mut alone = round_trips(|standin, home, work| cli_alone(&claude, standin, home, work));
    let mut through = round_trips(|standin, home, work| switchboard(&claude, standin, home, work));
    println!("Claude Code tool call round trip (stand-in request to the next), {CALLS} calls:");
    for (name, samples) in [
        ("CLI alone (no hook)", &mut alone),
        ("through Switchboard (hook allows)", &mut through),
    ] {
        println!(
            "  {name:<36} p50 {:>6.1} ms  p95 {:>6.1} ms",
            ms(percentile(samples, 0.5)),
            ms(percentile(samples, 0.95))
        );
    }
    println!(
        "  the hook's share: p50 {:+.1} ms  p95 {:+.1} ms",
        ms(percentile(&mut through, 0.5)) - ms(percentile(&mut alone, 0.5)),
        ms(percentile(&mut through, 0.95)) - ms(percentile(&mut alone, 0.95)),
    );
}

/// Scripts `CALLS` allowed `Bash` calls and a final text, runs the
/// conversation with `run`, and returns each call's round trip but the first.
fn round_trips(run: impl FnOnce(&Standin, &Path, &Path)) -> Vec<Duration> {
    let standin = Standin::start(Api::Anthropic).expect("stand-in");
    for n in 0..CALLS {
        standin.push(Message::tool_call(
            format!("toolu_{n}"),
            "Bash",
            // Each call differs: the governor's loop guard stops a session
            // that repeats one call.
            json!({"command": format!("echo {n}"), "description": "count"}),
        ));
    }
    standin.push(Message::text("Done."));
    let home = tempfile::tempdir().expect("home");
    let work = tempfile::tempdir().expect("work");
    run(&standin, home.path(), work.path());
    let requests = standin.main_requests();
    assert_eq!(
        requests.len(),
        CALLS + 1,
        "the conversation did not finish: {} requests",
        requests.len()
    );
    requests
        .windows(2)
        .skip(1)
        .map(|pair| pair[1].at - pair[0].at)
        .collect()
}

fn claude_env(command: &mut Command, standin: &Standin, home: &Path) {
    command
        .env("HOME", home)
        .env("ANTHROPIC_BASE_URL", standin.url())
        .env("ANTHROPIC_API_KEY", "sk-ant-standin")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env_remove("IS_SANDBOX");
}

fn cli_alone(claude: &Path, standin: &Standin, home: &Path, work: &Path) {
    let mut command = Command::new(claude);
    command
        .args(["-p", "go", "--output-format", "stream-json", "--verbose"])
        .args(["--allowedTools", "Bash"])
        .current_dir(work)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    claude_env(&mut command, standin, home);
    let status = command.status().expect("run claude");
    assert!(status.success(), "claude alone failed: {status}");
}

fn switchboard(claude: &Path, standin: &Standin, home: &Path, work: &Path) {
    let data = tempfile::tempdir().expect("data dir");
    std::fs::write(
        data.path().join("engines.toml"),
        support::claude_engines_toml(claude, &standin.url()),
    )
    .expect("engines.toml");
    let mut child = start_with_home(data.path(), home);
    let server = Addresses::read(data.path());
    let control = server.control.clone().expect("the control server");
    let auth = format!("Bearer {}", server.token);
    for (key, value) in [
        ("agentPermissionLevel", json!("autonomous")),
        ("agentDrivenSessionsEnabled", json!(true)),
        ("requireSpawnSourceSession", json!(false)),
    ] {
        ureq::patch(format!("http://{control}/settings/{key}"))
            .header("Authorization", &auth)
            .send_json(json!({"value": value}))
            .expect("a setting");
    }
    let session: Value = ureq::post(format!("http://{control}/sessions"))
        .header("Authorization", &auth)
        .send_json(json!({"engine": "primary", "prompt": "go", "cwd": work}))
        .expect("spawn")
        .body_mut()
        .read_json()
        .expect("the session");
    let id = session["id"].as_str().expect("a session id").to_owned();
    let deadline = Instant::now() + Duration::from_secs(300);
    while standin.main_requests().len() < CALLS + 1 {
        if Instant::now() > deadline {
            let state = ureq::get(format!("http://{control}/sessions/{id}"))
                .header("Authorization", &auth)
                .call()
                .ok()
                .and_then(|mut reply| reply.body_mut().read_to_string().ok());
            panic!("the session stalled: {state:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    signal_term(&child);
    let _ = child.wait();
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

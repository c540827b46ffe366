//! Prints the session engine's figures: spawn request → engine process running,
//! memory per live session with 200 waiting, and transcript throughput (with
//! read latency meanwhile) for an engine writing 50 MB to stdout.
//!
//! Run with `cargo bench -p sessions`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sessions::{
    Caller, PromptSettings, SpawnPolicy, SpawnRequest, Status, Supervisor, TokenIssuer, Via,
};

struct Issuer;

impl TokenIssuer for Issuer {
    fn mint(&self, _account_id: &str, session_id: &str, _: sessions::TokenAccess) -> String {
        format!("tok-{session_id}")
    }
    fn revoke(&self, _session_id: &str) {}
}

const ENGINES: &str = r#"
[engines.echo]
kind = "command"
command = ["/bin/cat"]

[engines.flood]
kind = "command"
command = ["/bin/sh", "-c", "head -c 52428800 /dev/zero | tr '\\0' 'x'"]
"#;

fn caller() -> Caller {
    Caller {
        account_id: "bench".into(),
        via: Via::Ui,
        source_session_header: None,
    }
}

fn policy() -> SpawnPolicy {
    SpawnPolicy {
        agent_driven_sessions_enabled: true,
        allow_agent_token_spawn: true,
        require_spawn_source_session: false,
        agent_driven_max_concurrent: 10,
        cli_spawn_spacing_seconds: 0,
        max_dollars_per_session: 0.0,
        max_turns_per_session: 0,
        remote_runners: false,
        remote_started_sessions: false,
    }
}

fn request(engine: &str) -> SpawnRequest {
    SpawnRequest {
        engine: Some(engine.into()),
        prompt: "hello".into(),
        ..SpawnRequest::default()
    }
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

async fn spawn(sup: &Supervisor, engine: &str) -> Option<String> {
    sup.spawn(
        &caller(),
        &policy(),
        &PromptSettings::default(),
        request(engine),
    )
    .await
    .ok()
    .map(|spawned| spawned.session.id)
}

async fn wait_status(sup: &Supervisor, id: &str, status: Status) {
    loop {
        if sup.get("bench", id).await.ok().map(|s| s.status) == Some(status) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

async fn spawn_latency(sup: &Supervisor) {
    let mut updates = sup.subscribe();
    let mut samples = Vec::new();
    for _ in 0..100 {
        let began = Instant::now();
        let id = spawn(sup, "echo").await.unwrap_or_default();
        loop {
            match updates.recv().await {
                Ok(update) if update.session_id == id && update.status == Status::Running => {
                    samples.push(began.elapsed());
                    break;
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        wait_status(sup, &id, Status::WaitingForInput).await;
        let _ = sup.stop(&caller(), &id).await;
    }
    samples.sort();
    println!(
        "spawn request -> engine process running (pid exists): median {:.2} ms, p90 {:.2} ms ({} spawns)",
        percentile(&samples, 0.5).as_secs_f64() * 1e3,
        percentile(&samples, 0.9).as_secs_f64() * 1e3,
        samples.len()
    );
}

async fn memory_per_session(sup: &Supervisor) {
    let before = rss_kib();
    let mut ids = Vec::new();
    for _ in 0..200 {
        ids.extend(spawn(sup, "echo").await);
    }
    for id in &ids {
        wait_status(sup, id, Status::WaitingForInput).await;
    }
    let after = rss_kib();
    let live = ids.iter().filter(|id| sup.is_live(id)).count();
    println!(
        "memory: RSS {before} KiB -> {after} KiB with {live} sessions waiting for input: {:.1} KiB per live session",
        (after.saturating_sub(before)) as f64 / live.max(1) as f64
    );
    for id in &ids {
        let _ = sup.stop(&caller(), id).await;
    }
}

async fn throughput(sup: &Supervisor) {
    let began = Instant::now();
    let Some(id) = spawn(sup, "flood").await else {
        println!("flood engine did not start");
        return;
    };
    let mut reads = Vec::new();
    loop {
        let t = Instant::now();
        let status = sup.get("bench", &id).await.ok().map(|s| s.status);
        reads.push(t.elapsed());
        if matches!(status, Some(Status::WaitingForInput | Status::Failed)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let elapsed = began.elapsed();
    let bytes = sup
        .transcript("bench", &id)
        .await
        .map(|t| t.turns.iter().map(|t| t.output.len()).sum::<usize>())
        .unwrap_or(0);
    reads.sort();
    println!(
        "transcript: {:.1} MB stored in {:.2} s ({:.0} MB/s); GET session meanwhile: p50 {:.2} ms, p99 {:.2} ms over {} reads",
        bytes as f64 / 1e6,
        elapsed.as_secs_f64(),
        bytes as f64 / 1e6 / elapsed.as_secs_f64(),
        percentile(&reads, 0.5).as_secs_f64() * 1e3,
        percentile(&reads, 0.99).as_secs_f64() * 1e3,
        reads.len()
    );
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::write(dir.path().join("engines.toml"), ENGINES).expect("engines.toml");
        let db = Arc::new(store::Db::open(&dir.path().join("bench.db")).expect("the database"));
        let sup = Supervisor::start(
            db,
            Arc::new(clock::SystemClock),
            dir.path().to_owned(),
            None,
            Arc::new(Issuer),
            sessions::Hooks::default(),
            false,
        )
        .await
        .expect("the supervisor");
        spawn_latency(&sup).await;
        memory_per_session(&sup).await;
        throughput(&sup).await;
        sup.shutdown().await;
    });
}

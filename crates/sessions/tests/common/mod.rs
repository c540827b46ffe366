//! Shared set-up for the integration tests: a data dir with an engines.toml, a
//! database, a recording token issuer, a manual clock and polling helpers.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clock::ManualClock;
use sessions::{
    Caller, PromptSettings, Session, SpawnPolicy, SpawnRequest, Status, Supervisor, TokenIssuer,
    Turn, Via,
};

#[derive(Default)]
pub struct Issuer {
    pub minted: Mutex<Vec<String>>,
    pub revoked: Mutex<Vec<String>>,
}

impl TokenIssuer for Issuer {
    fn mint(&self, _account_id: &str, session_id: &str, _: sessions::TokenAccess) -> String {
        self.minted.lock().unwrap().push(session_id.to_owned());
        format!("tok-{session_id}")
    }
    fn revoke(&self, session_id: &str) {
        self.revoked.lock().unwrap().push(session_id.to_owned());
    }
}

impl Issuer {
    pub fn was_revoked(&self, id: &str) -> bool {
        self.revoked.lock().unwrap().iter().any(|r| r == id)
    }
}

pub fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// A test's folders under `root`: the data directory, which the sandbox hides
/// from engines, and beside it the scratch folder the test engines write to.
pub fn folders(root: &Path) -> (PathBuf, PathBuf) {
    let (data, scratch) = (root.join("data"), root.join("scratch"));
    for dir in [&data, &scratch] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(data.join("engines.toml"), engines_toml(&scratch)).unwrap();
    (data, scratch)
}

/// engines.toml text with the engines the tests use; `dir` is where scripts write.
pub fn engines_toml(dir: &Path) -> String {
    let d = dir.display();
    format!(
        r#"
[engines.echo]
kind = "command"
command = ["/bin/cat"]

[engines.env]
kind = "command"
command = ["/bin/sh", "-c", "cat; echo; echo \"turn=$APP_TURN sid=$APP_SESSION_ID url=$APP_CONTROL_URL tok=$APP_CLI_TOKEN pwd=$(pwd) extra=$EXTRA\""]
env = {{ EXTRA = "from-engines-toml" }}

[engines.gated]
kind = "command"
command = ["/bin/sh", "-c", "cat; while [ ! -e {d}/gate-$APP_SESSION_ID ] && [ -d {d} ]; do sleep 0.01; done"]

[engines.fail]
kind = "command"
command = ["/bin/sh", "-c", "echo partial; echo 'something broke' >&2; exit 3"]

[engines.missing]
kind = "command"
command = ["/nonexistent/engine-binary"]

[engines.tree]
kind = "command"
command = ["/bin/sh", "-c", "echo $$ > {d}/leader-$APP_SESSION_ID; sleep 1000 & echo $! > {d}/grandchild-$APP_SESSION_ID; wait"]

[engines.escapee]
kind = "command"
command = ["/bin/sh", "-c", "setsid sleep 1000 & echo $! > {d}/escapee-$APP_SESSION_ID; wait"]

[engines.long]
kind = "command"
command = ["/bin/sh", "-c", "if [ \"$APP_TURN\" = 1 ]; then sleep 1000 & echo $! > {d}/orphan-$APP_SESSION_ID; wait; else cat; fi"]

[engines.flood]
kind = "command"
command = ["/bin/sh", "-c", "head -c 52428800 /dev/zero | tr '\\0' 'x'"]

[engines.primary]
kind = "claude"
command = ["/bin/sh", "{claude}"]
args = ["--model", "sonnet"]
env = {{ FAKE_LOG = "{d}/claude.log" }}

[engines.second]
kind = "codex"
command = ["/bin/sh", "{codex}"]
"#,
        claude = fixture("fake-claude"),
        codex = fixture("fake-codex"),
    )
}

pub struct Harness {
    pub dir: tempfile::TempDir,
    pub db: Arc<store::Db>,
    pub issuer: Arc<Issuer>,
    /// Stands still unless a test advances it; starts at the real now.
    pub clock: Arc<ManualClock>,
    pub sup: Supervisor,
}

pub const CONTROL_URL: &str = "http://127.0.0.1:19519";

impl Harness {
    pub async fn new() -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let (data, _) = folders(dir.path());
        let db = Arc::new(store::Db::open(&data.join("switchboard.db")).unwrap());
        let issuer = Arc::new(Issuer::default());
        let clock = Arc::new(ManualClock::starting_now());
        let sup = start(&db, &clock, &data, &issuer, true).await;
        Harness {
            dir,
            db,
            issuer,
            clock,
            sup,
        }
    }

    /// Where the test engines write (their gates, pids and logs).
    pub fn path(&self) -> PathBuf {
        self.dir.path().join("scratch")
    }

    pub fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub async fn spawn_ui(&self, account: &str, engine: &str, prompt: &str) -> Session {
        self.sup
            .spawn(
                &ui(account),
                &open_policy(),
                &PromptSettings::default(),
                request(engine, prompt),
            )
            .await
            .unwrap()
            .session
    }

    pub async fn wait_status(&self, account: &str, id: &str, status: Status) -> Session {
        wait_status(&self.sup, account, id, status).await
    }
}

pub async fn start(
    db: &Arc<store::Db>,
    clock: &Arc<ManualClock>,
    dir: &Path,
    issuer: &Arc<Issuer>,
    auto: bool,
) -> Supervisor {
    let issuer: Arc<dyn TokenIssuer> = issuer.clone();
    let clock: Arc<dyn clock::Clock> = clock.clone();
    Supervisor::start(
        Arc::clone(db),
        clock,
        dir.to_owned(),
        Some(CONTROL_URL.to_owned()),
        issuer,
        sessions::Hooks::default(),
        auto,
    )
    .await
    .unwrap()
}

pub async fn wait_status(sup: &Supervisor, account: &str, id: &str, status: Status) -> Session {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let session = sup.get(account, id).await.unwrap();
        if session.status == status {
            return session;
        }
        assert!(
            Instant::now() < deadline,
            "session {id} stayed {:?} (wanted {status:?}): {:?}",
            session.status,
            session.error
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Polls until `check` holds, for up to 20 s.
pub async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub fn request(engine: &str, prompt: &str) -> SpawnRequest {
    SpawnRequest {
        engine: Some(engine.to_owned()),
        prompt: prompt.to_owned(),
        ..SpawnRequest::default()
    }
}

pub fn ui(account: &str) -> Caller {
    Caller {
        account_id: account.to_owned(),
        via: Via::Ui,
        source_session_header: None,
    }
}

pub fn cli(account: &str, header: Option<&str>) -> Caller {
    Caller {
        account_id: account.to_owned(),
        via: Via::ControlCli,
        source_session_header: header.map(str::to_owned),
    }
}

pub fn agent(account: &str, own: &str, header: Option<&str>) -> Caller {
    Caller {
        account_id: account.to_owned(),
        via: Via::ControlAgent {
            session_id: own.to_owned(),
        },
        source_session_header: header.map(str::to_owned),
    }
}

/// Everything allowed, nothing required, no spacing.
pub fn open_policy() -> SpawnPolicy {
    SpawnPolicy {
        agent_driven_sessions_enabled: true,
        allow_agent_token_spawn: true,
        require_spawn_source_session: false,
        agent_driven_max_concurrent: 1000,
        cli_spawn_spacing_seconds: 0,
        max_dollars_per_session: 5.0,
        max_turns_per_session: 50,
        remote_runners: false,
        remote_started_sessions: false,
    }
}

/// True while `pid` exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next())
        })
        .is_some_and(|state| state != 'Z' && state != 'X')
}

pub async fn read_pid(path: &Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "no pid in {}", path.display());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Polls until the session has `count` turns and the last one has ended, then
/// waits for the session to wait for input again; returns the turns.
pub async fn wait_turns(sup: &Supervisor, account: &str, id: &str, count: usize) -> Vec<Turn> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let turns = sup.transcript(account, id).await.unwrap().turns;
        if turns.len() == count && turns.last().is_some_and(|t| t.status == "done") {
            wait_status(sup, account, id, Status::WaitingForInput).await;
            return turns;
        }
        assert!(
            Instant::now() < deadline,
            "session {id} never reached {count} finished turns: {turns:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A browser spawn that sends `X-App-Source-Session-Id` anyway.
pub fn ui_with_header(account: &str, header: &str) -> Caller {
    Caller {
        account_id: account.to_owned(),
        via: Via::Ui,
        source_session_header: Some(header.to_owned()),
    }
}

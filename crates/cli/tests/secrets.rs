//! Secrets the model never sees, against a real server: a `command` engine
//! runs the built binary's `switchboard request-input` inside its sandbox,
//! the user answers through the API, and the value lands in the session's
//! `.env` (mode 0600), where the engine uses it; then every place the value
//! could leak (each API answer, the event stream, the transcript, the
//! server's debug log, every file of the data directory) is searched for it.
//! Saved keys answer later requests by name; `propose-key` offers a key
//! that is kept only once the user saves it; both switches refuse when off;
//! an unanswered request expires on the server's clock.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::TestServer;
use common::sse::Stream;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const VALUE: &str = "sk-test-NEVER-SEEN-7c41f2a9";

/// `asker` asks for API_KEY, then proves it can use it by printing only
/// the value's SHA-256. `proposer` offers the key in its `key.txt`. Each
/// records its token first, so the test can act as the session.
fn server(args: &[&str], log: Option<&Path>) -> (TestServer, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let project = scratch.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let bin = common::binary();
    let record = format!(
        "printf '%s' \"$APP_CLI_TOKEN\" > {}/token-$APP_SESSION_ID",
        scratch.path().display()
    );
    let asker = format!(
        "{record}; {bin} request-input API_KEY --prompt 'Paste your OpenAI key' || exit 1; \
         . ./.env; printf 'key digest %s\\n' \"$(printf %s \"$API_KEY\" | sha256sum | cut -c1-64)\""
    );
    let proposer = format!(
        "{record}; printf 'GH_TOKEN=ghp_proposed_by_agent\\n' > key.txt; \
         {bin} propose-key GH_TOKEN --from-file key.txt"
    );
    let toml = format!(
        "[engines.asker]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {asker:?}]\n\n\
         [engines.proposer]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {proposer:?}]\n"
    );
    std::fs::write(dir.path().join("engines.toml"), toml).unwrap();
    let server = match log {
        Some(log) => TestServer::start_logging(dir, args, log),
        None => TestServer::start_in_with(dir, args),
    };
    (server.keeping(scratch), project)
}

fn spawn(server: &TestServer, engine: &str, project: &Path) -> String {
    let body = json!({"engine": engine, "prompt": "work", "cwd": project});
    let reply = server.browser_spawn(&server.browser_cookie(), &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_str().unwrap().to_owned()
}

/// Polls `path` (a list under `field`) until it holds one entry.
fn first_pending(server: &TestServer, path: &str, field: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let list = server.call("GET", path, None).json();
        if let Some(first) = list[field].as_array().and_then(|l| l.first()) {
            return first.clone();
        }
        assert!(Instant::now() < deadline, "nothing pending at {path}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The first unread `cli_pending` inbox row, polled: the row is written
/// beside the request, and a reader may come between the two.
fn pending_row(server: &TestServer) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let inbox = server
            .call("GET", "/inbox?category=cli_pending", None)
            .json();
        if let Some(first) = inbox.as_array().and_then(|rows| rows.first()) {
            return first.clone();
        }
        assert!(Instant::now() < deadline, "no cli_pending row: {inbox}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn holds(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

#[test]
fn an_input_request_reaches_the_file_and_nowhere_else() {
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("server.log");
    let (server, project) = server(&[], Some(&log));
    let mut stream = Stream::bearer(&server, &server.token, None);
    let id = spawn(&server, "asker", &project);
    let agent = server.agent_token(&id);

    let request = first_pending(&server, "/input-requests", "inputRequests");
    assert_eq!(request["sessionId"], id.as_str());
    assert_eq!(request["name"], "API_KEY");
    assert_eq!(request["prompt"], "Paste your OpenAI key");
    let env_file = project.canonicalize().unwrap().join(".env");
    assert_eq!(request["file"], env_file.display().to_string());
    let request_id = request["id"].as_str().unwrap().to_owned();
    let answer_path = format!("/input-requests/{request_id}");

    // The user's row asks for it; the session itself may not answer it.
    let row = &pending_row(&server);
    assert_eq!(row["reason"], "input_request");
    assert_eq!(row["source"]["requestId"], request_id.as_str());
    assert!(row["readAt"].is_null());
    let by_agent = server.call_as(&agent, "POST", &answer_path, Some(&json!({"value": "x"})));
    assert_eq!(by_agent.status, 403, "{}", by_agent.text());
    // A value that would add a second line to the file changes nothing.
    let split = server.call(
        "POST",
        &answer_path,
        Some(&json!({"value": "a\nEVIL=1", "remember": true})),
    );
    assert_eq!(
        (split.status, split.error_code().as_str()),
        (400, "invalid_request")
    );
    assert!(!env_file.exists());

    let answered = server.call(
        "POST",
        &answer_path,
        Some(&json!({"value": VALUE, "remember": true})),
    );
    assert_eq!(answered.status, 200, "{}", answered.text());
    assert_eq!(answered.json()["state"], "saved");
    server.wait_for_status(&id, "waiting_for_input");
    let events = stream.until(|e| e.is_waiting(&id));

    // The value is in the file, owner-only, and the engine could use it.
    assert_eq!(
        std::fs::read_to_string(&env_file).unwrap(),
        format!("API_KEY={VALUE}\n")
    );
    let mode = std::fs::metadata(&env_file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let transcript = server
        .call(
            "GET",
            &format!("/sessions/{id}/transcript?format=json"),
            None,
        )
        .text();
    let digest = hex::encode(Sha256::digest(VALUE.as_bytes()));
    assert!(
        transcript.contains(&format!("key digest {digest}")),
        "{transcript}"
    );
    assert!(
        transcript.contains(&format!(
            "The user saved API_KEY in {}.",
            env_file.display()
        )),
        "{transcript}"
    );

    // A saved key answers a later request by name, into another file.
    let again = server.call(
        "POST",
        "/input-requests",
        Some(&json!({"name": "OPENAI_API_KEY", "prompt": "Again", "sessionId": id, "file": "config.env"})),
    );
    assert_eq!(again.status, 201, "{}", again.text());
    let again_id = again.json()["id"].as_str().unwrap().to_owned();
    let reused = server.call(
        "POST",
        &format!("/input-requests/{again_id}"),
        Some(&json!({"key": "API_KEY"})),
    );
    assert_eq!(reused.status, 200, "{}", reused.text());
    assert_eq!(
        std::fs::read_to_string(project.join("config.env")).unwrap(),
        format!("OPENAI_API_KEY={VALUE}\n")
    );
    let twice = server.call(
        "POST",
        &format!("/input-requests/{again_id}"),
        Some(&json!({"decline": true})),
    );
    assert_eq!(
        (twice.status, twice.error_code().as_str()),
        (409, "already_answered")
    );
    let outside = server.call(
        "POST",
        "/input-requests",
        Some(&json!({"name": "X", "prompt": "p", "sessionId": id, "file": "../../.profile"})),
    );
    assert_eq!(
        (outside.status, outside.error_code().as_str()),
        (400, "file_outside_folder")
    );

    // Search everything for the value.
    let mut answers: Vec<(String, String)> = [
        "/sessions".to_owned(),
        format!("/sessions/{id}"),
        format!("/sessions/{id}/transcript?format=json"),
        format!("/sessions/{id}/transcript"),
        format!("/sessions/{id}/permissions"),
        "/inbox?state=all".to_owned(),
        "/input-requests?state=all".to_owned(),
        answer_path.clone(),
        format!("/input-requests/{again_id}"),
        "/keys".to_owned(),
        "/settings".to_owned(),
    ]
    .into_iter()
    .map(|path| (path.clone(), server.call("GET", &path, None).text()))
    .collect();
    answers.push(("the answer".into(), answered.text()));
    answers.push(("the reuse".into(), reused.text()));
    for event in &events {
        answers.push((format!("event {}", event.name), event.data.to_string()));
    }
    for (place, text) in &answers {
        assert!(!text.contains(VALUE), "the value is in {place}: {text}");
    }
    let mut files = Vec::new();
    files_under(server.data_dir(), &mut files);
    files.push(log.clone());
    assert!(files.iter().any(|f| f.ends_with("switchboard.db")));
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        assert!(!holds(&bytes, VALUE), "the value is in {}", file.display());
    }
    assert!(
        std::fs::metadata(&log).unwrap().len() > 0,
        "the log is empty"
    );

    // Answering read the row.
    let rows = server
        .call("GET", "/inbox?category=cli_pending&state=all", None)
        .json();
    let now = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == row["id"])
        .unwrap();
    assert!(!now["readAt"].is_null(), "{now}");

    server.set_setting("agentInputRequestsEnabled", json!(false));
    let off = server.call_as(
        &agent,
        "POST",
        "/input-requests",
        Some(&json!({"name": "X", "prompt": "p"})),
    );
    assert_eq!(
        (off.status, off.error_code().as_str()),
        (403, "input_requests_disabled")
    );
}

#[test]
fn a_proposed_key_is_kept_only_once_the_user_saves_it() {
    let (server, project) = server(&[], None);
    let id = spawn(&server, "proposer", &project);
    let agent = server.agent_token(&id);
    server.wait_for_status(&id, "waiting_for_input");
    let transcript = server
        .call("GET", &format!("/sessions/{id}/transcript"), None)
        .text();
    assert!(
        transcript.contains("Offered GH_TOKEN to the user for review"),
        "{transcript}"
    );

    let proposal = first_pending(&server, "/key-proposals", "keyProposals");
    assert_eq!(proposal["name"], "GH_TOKEN");
    assert!(proposal.get("value").is_none());
    assert_eq!(server.call("GET", "/keys", None).json()["keys"], json!([]));
    let path = format!("/key-proposals/{}", proposal["id"].as_str().unwrap());
    assert_eq!(server.call_as(&agent, "GET", &path, None).status, 403);
    let reviewed = server.call("GET", &path, None).json();
    assert_eq!(reviewed["value"], "ghp_proposed_by_agent");

    let saved = server.call(
        "POST",
        &path,
        Some(&json!({"decision": "save", "value": "ghp_edited_by_user"})),
    );
    assert_eq!(saved.status, 200, "{}", saved.text());
    assert_eq!(saved.json()["state"], "saved");
    let keys = server.call("GET", "/keys", None).json();
    assert_eq!(keys["keys"][0]["name"], "GH_TOKEN");
    assert!(!keys.to_string().contains("ghp_"));
    assert!(server.call("GET", &path, None).json()["value"].is_null());

    // The edited value is the one a request gets.
    let request = server.call(
        "POST",
        "/input-requests",
        Some(&json!({"name": "GH_TOKEN", "prompt": "p", "sessionId": id})),
    );
    let request_path = format!("/input-requests/{}", request.json()["id"].as_str().unwrap());
    let used = server.call("POST", &request_path, Some(&json!({"key": "GH_TOKEN"})));
    assert_eq!(used.status, 200, "{}", used.text());
    assert!(
        std::fs::read_to_string(project.join(".env"))
            .unwrap()
            .contains("GH_TOKEN=ghp_edited_by_user")
    );

    assert_eq!(server.call("DELETE", "/keys/GH_TOKEN", None).status, 204);
    assert_eq!(
        server.call("DELETE", "/keys/GH_TOKEN", None).error_code(),
        "key_not_found"
    );

    server.set_setting("agentKeyProposalsEnabled", json!(false));
    let off = server.call_as(
        &agent,
        "POST",
        "/key-proposals",
        Some(&json!({"name": "X", "value": "v"})),
    );
    assert_eq!(
        (off.status, off.error_code().as_str()),
        (403, "key_proposals_disabled")
    );
}

#[test]
fn an_unanswered_request_ends_after_ten_minutes_on_the_servers_clock() {
    let (server, project) = server(&["--manual-clock"], None);
    let id = spawn(&server, "proposer", &project);
    server.wait_for_status(&id, "waiting_for_input");
    let mut waiting = Command::new(common::binary())
        .args(["request-input", "LATE_KEY", "--prompt", "Anyone?"])
        .env("APP_CONTROL_URL", format!("http://{}", server.control()))
        .env("APP_CLI_TOKEN", &server.token)
        .env("APP_SESSION_ID", &id)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    first_pending(&server, "/input-requests", "inputRequests");
    let moved = server.call("POST", "/test/clock", Some(&json!({"advanceMs": 600_000})));
    assert_eq!(moved.status, 204, "{}", moved.text());
    let status = common::wait_with_timeout(&mut waiting, Duration::from_secs(20));
    let mut out = String::new();
    std::io::Read::read_to_string(&mut waiting.stdout.take().unwrap(), &mut out).unwrap();
    assert_eq!(status.code(), Some(1));
    assert_eq!(out.trim(), "Nobody provided LATE_KEY within 10 minutes.");
    assert!(!project.join(".env").exists());
}

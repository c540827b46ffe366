//! The Ask tutor against a real server (docs/ask.md): a `command` engine
//! stands in as the `primary` engine and records what its session was
//! given (its prompt on stdin, the files in its folder, its agent token),
//! so the test can read the fact sheet and act with the tutor's token.

mod common;

use std::path::Path;

use common::{TestServer, request, written};
use serde_json::{Value, json};

/// `engines.toml`: `primary` records each turn's prompt, its folder's files
/// and its token in `scratch`, then answers; `failer` fails at once.
fn engines(scratch: &Path) -> String {
    let s = scratch.display();
    let primary = format!(
        "n=$(ls {s} | grep -c \"^prompt-$APP_SESSION_ID-\"); \
         cat > {s}/.tmp-$APP_SESSION_ID; mv {s}/.tmp-$APP_SESSION_ID {s}/prompt-$APP_SESSION_ID-$n; \
         ls > {s}/.ls-$APP_SESSION_ID; mv {s}/.ls-$APP_SESSION_ID {s}/docs-$APP_SESSION_ID; \
         printf '%s' \"$APP_CLI_TOKEN\" > {s}/token-$APP_SESSION_ID; echo answered"
    );
    format!(
        "[engines.primary]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", {primary:?}]\n\n\
         [engines.failer]\nkind = \"command\"\ncommand = [\"/bin/sh\", \"-c\", \"exit 3\"]\n"
    )
}

fn server() -> TestServer {
    let dir = tempfile::tempdir().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("engines.toml"), engines(scratch.path())).unwrap();
    TestServer::start_in_with(dir, &[]).keeping(scratch)
}

/// `POST /api/ask` as the user in the browser.
fn ask(server: &TestServer, cookie: &str, question: &str) -> common::Reply {
    request(
        &server.ui,
        "POST",
        "/api/ask",
        &[("Cookie", cookie), ("Content-Type", "application/json")],
        Some(json!({ "question": question }).to_string().as_bytes()),
    )
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_tutor_reads_the_docs_and_a_live_fact_sheet_and_may_only_read() {
    let server = server();
    let cookie = server.browser_cookie();
    let failed = server.browser_session("failer", "fail please");
    let failed_id = failed["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&failed_id, "failed");
    server.set_setting("skillSlashAutocomplete", json!(false));

    let reply = ask(&server, &cookie, "Why did my session stop?");
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["sessionId"].as_str().unwrap().to_owned();
    let scratch = server.scratch().to_owned();

    let prompt = written(&scratch.join(format!("prompt-{id}-0")));
    assert!(prompt.contains("Why did my session stop?"), "{prompt}");
    assert!(prompt.contains("cite"), "{prompt}");
    assert!(
        prompt.contains(&format!(
            "- Switchboard version: {}",
            env!("CARGO_PKG_VERSION")
        )),
        "{prompt}"
    );
    let failed_line = prompt
        .lines()
        .find(|l| l.starts_with("- Failed sessions:"))
        .unwrap_or_else(|| panic!("{prompt}"));
    assert!(failed_line.contains(&failed_id), "{failed_line}");
    let settings_line = prompt
        .lines()
        .find(|l| l.starts_with("- Settings changed from their defaults:"))
        .unwrap_or_else(|| panic!("{prompt}"));
    assert!(
        settings_line.contains("skillSlashAutocomplete = false"),
        "{settings_line}"
    );
    // A `command` engine reports no version: a missing fact, said so.
    assert!(
        prompt.contains("primary (command, version unknown)"),
        "{prompt}"
    );
    assert!(prompt.contains("- Runners: local connected"), "{prompt}");
    assert!(
        !prompt.contains("- Recent warnings and errors in the log: unknown"),
        "{prompt}"
    );

    let docs = written(&scratch.join(format!("docs-{id}")));
    for doc in ["ask.md", "sessions.md", "runners.md", "settings.md"] {
        assert!(docs.lines().any(|l| l == doc), "{doc} in {docs}");
    }

    let session = server.wait_for_status(&id, "waiting_for_input");
    assert_eq!(session["project"], "ask");
    assert_eq!(session["trigger"], "ask");
    assert_eq!(failed["project"], Value::Null);

    let token = written(&scratch.join(format!("token-{id}")));
    let read = server.call_as(&token, "GET", "/sessions?project=ask", None);
    assert_eq!(read.status, 200, "{}", read.text());
    assert_eq!(ids(&read.json()), vec![id.clone()]);
    assert_eq!(server.call_as(&token, "GET", "/settings", None).status, 200);
    let writes = [
        (
            "POST",
            "/sessions".to_owned(),
            Some(json!({"engine": "failer", "prompt": "x"})),
        ),
        (
            "PATCH",
            "/settings/skillSlashAutocomplete".to_owned(),
            Some(json!({"value": true})),
        ),
        (
            "POST",
            format!("/sessions/{id}/messages"),
            Some(json!({"text": "more"})),
        ),
        ("POST", format!("/sessions/{failed_id}/archive"), None),
        (
            "POST",
            "/ask".to_owned(),
            Some(json!({"question": "again"})),
        ),
    ];
    for (method, path, body) in writes {
        let refused = server.call_as(&token, method, &path, body.as_ref());
        assert_eq!(refused.status, 403, "{method} {path}: {}", refused.text());
        assert_eq!(refused.error_code(), "forbidden", "{method} {path}");
    }
    assert_eq!(
        server
            .call("GET", "/settings/skillSlashAutocomplete", None)
            .json()["value"],
        false,
        "the refused write changed nothing"
    );

    // Off the agent board, on its own list.
    let board = ids(&server.call("GET", "/sessions", None).json());
    assert!(
        board.contains(&failed_id) && !board.contains(&id),
        "{board:?}"
    );
    let asked = ids(&server.call("GET", "/ask/sessions", None).json());
    assert_eq!(asked, vec![id.clone()]);
    assert_eq!(
        server.call("GET", "/sessions?project=work", None).status,
        400
    );

    // A follow-up carries a fresh sheet before the user's words.
    let more = request(
        &server.ui,
        "POST",
        &format!("/api/sessions/{id}/messages"),
        &[
            ("Cookie", cookie.as_str()),
            ("Content-Type", "application/json"),
        ],
        Some(json!({"text": "And now?"}).to_string().as_bytes()),
    );
    assert_eq!(more.status, 202, "{}", more.text());
    let next = written(&scratch.join(format!("prompt-{id}-1")));
    let sheet_at = next
        .find("## Fact sheet")
        .unwrap_or_else(|| panic!("{next}"));
    assert!(sheet_at < next.find("And now?").unwrap(), "{next}");
    assert!(next.contains("skillSlashAutocomplete = false"), "{next}");
    assert!(next.trim_end().ends_with("And now?"), "{next}");
}

#[test]
fn asking_is_refused_while_off_and_for_bad_questions() {
    let server = server();
    let cookie = server.browser_cookie();
    assert_eq!(ask(&server, &cookie, "   ").status, 400);
    server.set_setting("askAppEnabled", json!(false));
    let off = ask(&server, &cookie, "How do I add a runner?");
    assert_eq!(off.status, 403, "{}", off.text());
    assert_eq!(off.error_code(), "ask_disabled");
    let listed = server.call("GET", "/ask/sessions", None);
    assert_eq!(listed.error_code(), "ask_disabled");
    let all = server.call("GET", "/sessions?project=ask", None).json();
    assert!(ids(&all).is_empty(), "nothing was started");
}

#[test]
fn a_missing_engine_is_refused_in_the_doctors_words() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("engines.toml"),
        "[engines.primary]\nkind = \"command\"\ncommand = [\"/nonexistent/tutor\"]\n",
    )
    .unwrap();
    let server = TestServer::start_in_with(dir, &[]);
    let cookie = server.browser_cookie();
    let reply = ask(&server, &cookie, "What does askAppEnabled do?");
    assert_eq!(reply.status, 503, "{}", reply.text());
    assert_eq!(reply.error_code(), "ask_engine_unavailable");
    assert!(
        reply.text().contains("/nonexistent/tutor does not exist."),
        "{}",
        reply.text()
    );

    std::fs::write(
        server.data_dir().join("engines.toml"),
        "[engines.other]\nkind = \"command\"\ncommand = [\"/bin/true\"]\n",
    )
    .unwrap();
    let reply = ask(&server, &cookie, "What does askAppEnabled do?");
    assert_eq!(reply.status, 409, "{}", reply.text());
    assert_eq!(reply.error_code(), "ask_engine_missing");
}

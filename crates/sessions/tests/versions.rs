//! The engine's version per session: read from `--version` beside the first
//! turn, once per binary (a second session and a second turn reuse it), again
//! when the binary changes, and never for `command` engines.

mod common;

use std::time::{Duration, SystemTime};

use common::*;
use sessions::Status;

async fn version_of(h: &Harness, id: &str, wanted: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let session = h.sup.get("a", id).await.unwrap();
        if session.engine_version.as_deref() == Some(wanted) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{id} has version {:?}, not {wanted}",
            session.engine_version
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn lines(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |text| text.lines().count())
}

/// A Claude Code of `version` at `path`, writing a line to `probes` for each
/// `--version` it answers.
fn write_cli(path: &std::path::Path, probes: &std::path::Path, version: &str) {
    let script = format!(
        "#!/bin/sh\n\
         if [ \"$1\" = --version ]; then echo probe >> {probes}; echo '{version} (Claude Code)'; exit 0; fi\n\
         echo '{{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"ok\",\"session_id\":\"u-1\"}}'\n",
        probes = probes.display()
    );
    std::fs::write(path, script).unwrap();
    let mut permissions = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(path, permissions).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_session_shows_its_engines_version() {
    let h = Harness::new().await;
    let claude = h.spawn_ui("a", "primary", "hi").await.id;
    let codex = h.spawn_ui("a", "second", "go").await.id;
    let plain = h.spawn_ui("a", "echo", "hello").await.id;
    version_of(&h, &claude, "2.1.330").await;
    version_of(&h, &codex, "0.169.0").await;
    let session = h.wait_status("a", &plain, Status::WaitingForInput).await;
    assert_eq!(
        session.engine_version, None,
        "command engines are not asked"
    );
    let listed = h.sup.list("a").await.unwrap();
    let listed = listed.iter().find(|s| s.id == claude).unwrap();
    assert_eq!(listed.engine_version.as_deref(), Some("2.1.330"));
    assert_eq!(
        serde_json::to_value(listed).unwrap()["engineVersion"],
        "2.1.330"
    );

    // The same binary again: read from the cache, not asked again.
    let again = h.spawn_ui("a", "primary", "hi").await.id;
    version_of(&h, &again, "2.1.330").await;
    assert_eq!(lines(&h.path().join("claude.log.versions")), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upgraded_cli_is_read_again() {
    let h = Harness::new().await;
    let (cli, probes) = (h.path().join("claude-cli"), h.path().join("probes"));
    write_cli(&cli, &probes, "2.1.330");
    let toml = std::fs::read_to_string(h.data().join("engines.toml")).unwrap();
    std::fs::write(
        h.data().join("engines.toml"),
        format!(
            "{toml}\n[engines.upgradable]\nkind = \"claude\"\ncommand = [{:?}]\n",
            cli.display().to_string()
        ),
    )
    .unwrap();

    let id = h.spawn_ui("a", "upgradable", "hi").await.id;
    version_of(&h, &id, "2.1.330").await;
    h.wait_status("a", &id, Status::WaitingForInput).await;
    assert_eq!(lines(&probes), 1);

    // Upgraded in place: the next turn reads the new binary's version.
    write_cli(&cli, &probes, "2.2.0");
    std::fs::File::options()
        .write(true)
        .open(&cli)
        .and_then(|f| f.set_modified(SystemTime::now() + Duration::from_secs(3600)))
        .unwrap();
    h.sup
        .send(&ui("a"), &open_policy(), &id, "more")
        .await
        .unwrap();
    version_of(&h, &id, "2.2.0").await;
    assert_eq!(lines(&probes), 2);
}

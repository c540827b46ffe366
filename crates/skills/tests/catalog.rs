//! The catalog against a real process standing in for Claude Code: a
//! Python script that answers the `initialize` control request with the
//! skills it finds and counts how often it was asked, so the tests see
//! what is kept, what is asked again, and what an engine that fails gives.

use std::path::Path;

use skills::{Ask, Catalog, EngineKind, Scope};

/// Answers like Claude Code 2.1.330: each `.claude/skills/<name>` of its
/// folder as `<name>` with `(project)`, and one built-in.
const FAKE_CLAUDE: &str = r#"
import json, os, sys
with open(os.environ["ASKED"], "a") as f:
    f.write("asked\n")
request = json.loads(sys.stdin.readline())
folder = os.path.join(os.getcwd(), ".claude", "skills")
commands = [{"name": n, "description": "Skill " + n + " (project)", "argumentHint": ""}
            for n in sorted(os.listdir(folder))] if os.path.isdir(folder) else []
commands.append({"name": "compact", "description": "Free up context", "argumentHint": "", "builtin": True})
print(json.dumps({"type": "system", "subtype": "noise"}))
print(json.dumps({"type": "control_response", "response": {"subtype": "success",
    "request_id": request["request_id"], "response": {"commands": commands}}}), flush=True)
sys.stdin.read()
"#;

fn ask(cwd: &Path, version: &str) -> Ask {
    Ask {
        engine: "primary".into(),
        kind: EngineKind::Claude,
        cwd: cwd.to_owned(),
        home: None,
        codex_home: None,
        version: Some(version.into()),
    }
}

async fn list(catalog: &Catalog, ask: &Ask, script: &Path, asked: &Path) -> Vec<skills::Skill> {
    catalog
        .list(ask, |args| async move {
            assert_eq!(args, skills::list_args(EngineKind::Claude));
            let mut command = tokio::process::Command::new("python3");
            command
                .arg(script)
                .args(args)
                .current_dir(&ask.cwd)
                .env("ASKED", asked)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .process_group(0);
            Ok(command)
        })
        .await
}

fn times_asked(asked: &Path) -> usize {
    std::fs::read_to_string(asked).map_or(0, |text| text.lines().count())
}

#[tokio::test]
async fn kept_until_the_folder_or_the_version_changes() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("claude.py");
    std::fs::write(&script, FAKE_CLAUDE).unwrap();
    let asked = dir.path().join("asked");
    let work = dir.path().join("work");
    std::fs::create_dir_all(work.join(".claude/skills/deploy")).unwrap();
    std::fs::write(
        work.join(".claude/skills/deploy/SKILL.md"),
        "---\ndescription: Deploys\n---\n",
    )
    .unwrap();
    let catalog = Catalog::default();

    let first = list(&catalog, &ask(&work, "1.0.0"), &script, &asked).await;
    assert_eq!(times_asked(&asked), 1);
    let deploy = &first[0];
    assert_eq!(
        (
            deploy.name.as_str(),
            deploy.description.as_str(),
            deploy.scope,
            deploy.insert.as_str()
        ),
        ("deploy", "Skill deploy", Scope::Project, "/deploy")
    );
    assert_eq!(first[1].scope, Scope::Builtin);

    let again = list(&catalog, &ask(&work, "1.0.0"), &script, &asked).await;
    assert_eq!(again, first);
    assert_eq!(times_asked(&asked), 1, "kept: nothing changed");

    std::fs::create_dir_all(work.join(".claude/skills/ship")).unwrap();
    std::fs::write(work.join(".claude/skills/ship/SKILL.md"), "---\n: [\n---\n").unwrap();
    let changed = list(&catalog, &ask(&work, "1.0.0"), &script, &asked).await;
    assert_eq!(times_asked(&asked), 2, "a new skill is asked for");
    let ship = changed.iter().find(|s| s.name == "ship").unwrap();
    assert!(
        ship.error
            .as_deref()
            .is_some_and(|e| e.contains("not valid YAML")),
        "{ship:?}"
    );

    list(&catalog, &ask(&work, "1.0.1"), &script, &asked).await;
    assert_eq!(times_asked(&asked), 3, "a new version is asked again");
}

#[tokio::test]
async fn an_engine_that_fails_gives_its_files_and_the_reason_and_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("claude.py");
    std::fs::write(&script, "import sys\nsys.stdin.readline()\nsys.exit(3)\n").unwrap();
    let asked = dir.path().join("asked");
    let work = dir.path().join("work");
    std::fs::create_dir_all(work.join(".claude/skills/deploy")).unwrap();
    std::fs::write(
        work.join(".claude/skills/deploy/SKILL.md"),
        "---\ndescription: Deploys\n---\n",
    )
    .unwrap();
    let catalog = Catalog::default();
    let listed = list(&catalog, &ask(&work, "1.0.0"), &script, &asked).await;
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(listed[0].name, "deploy");
    assert_eq!(listed[0].description, "Deploys");
    assert_eq!(listed[1].name, "");
    assert_eq!(listed[1].insert, "");
    assert!(
        listed[1]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("it ended without answering")),
        "{listed:?}"
    );

    let not_started = catalog
        .list(&ask(&work, "1.0.0"), |_| async {
            Err::<tokio::process::Command, _>(
                "engine `primary` was not started: no sandbox".to_owned(),
            )
        })
        .await;
    assert!(
        not_started
            .last()
            .and_then(|s| s.error.as_deref())
            .is_some_and(|e| e.contains("no sandbox")),
        "a failure is not kept: {not_started:?}"
    );
}

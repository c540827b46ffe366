//! The composer's `/` menu with the real CLIs (docs/skills.md): Claude
//! Code's project and user skills asked of the CLI's `initialize` request,
//! Codex's asked of its app server, and a picked skill reaching the model.

use std::path::Path;

use serde_json::{Value, json};
use standins::{Api, Message};

use crate::rig::Rig;

fn write_skill(folder: &Path, name: &str, text: &str) {
    std::fs::create_dir_all(folder.join(name)).unwrap();
    std::fs::write(folder.join(name).join("SKILL.md"), text).unwrap();
}

fn list(rig: &Rig, engine: &str, cwd: &Path) -> Vec<Value> {
    let query = format!(
        "/skills?engine={engine}&cwd={}",
        cwd.display().to_string().replace('/', "%2F")
    );
    let reply = rig.server.call("GET", &query, None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json().as_array().unwrap().clone()
}

fn named<'a>(skills: &'a [Value], name: &str) -> &'a Value {
    skills
        .iter()
        .find(|skill| skill["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not in {skills:?}"))
}

/// A project skill and a user skill are listed with their descriptions,
/// a broken one with what is wrong; `/greet Ada` then runs the skill: its
/// text reaches the model.
#[test]
fn claude_lists_project_and_user_skills_and_runs_a_picked_one() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    write_skill(
        &rig.work.path().join(".claude/skills"),
        "deploy",
        "---\ndescription: Deploys the project\nargument-hint: \"[env]\"\n---\nDeploy it.\n",
    );
    write_skill(
        &rig.work.path().join(".claude/skills"),
        "broken",
        "---\ndescription: [unclosed\n---\nbody\n",
    );
    write_skill(
        &rig.home().join(".claude/skills"),
        "greet",
        "---\nname: greet\ndescription: Greets someone warmly\n---\nGreet $ARGUMENTS and say PINEAPPLE-7.\n",
    );

    let skills = list(&rig, "primary", rig.work.path());
    let deploy = named(&skills, "deploy");
    assert_eq!(deploy["description"], "Deploys the project");
    assert_eq!(deploy["argumentHint"], "[env]");
    assert_eq!(deploy["scope"], "project");
    assert_eq!(deploy["insert"], "/deploy");
    assert!(deploy.get("error").is_none(), "{deploy}");
    let greet = named(&skills, "greet");
    assert_eq!(greet["description"], "Greets someone warmly");
    assert_eq!(greet["scope"], "user");
    assert_eq!(greet["insert"], "/greet");
    let broken = named(&skills, "broken");
    assert!(
        broken["error"]
            .as_str()
            .is_some_and(|e| e.contains("not valid YAML")),
        "{broken}"
    );
    assert!(
        skills.iter().any(|s| s["scope"] == "builtin"),
        "the CLI's own commands are listed too"
    );
    assert!(
        rig.standin.requests().is_empty(),
        "listing costs no request to the model"
    );

    // A new skill shows at once: the folder's `.claude/` changed.
    write_skill(
        &rig.work.path().join(".claude/skills"),
        "ship",
        "---\ndescription: Ships it\n---\nShip.\n",
    );
    let again = list(&rig, "primary", rig.work.path());
    assert_eq!(named(&again, "ship")["scope"], "project");

    rig.standin.push(Message::text("Hello Ada."));
    let id = rig.spawn("/greet Ada");
    rig.wait_turn(&id, 1);
    let requests = rig.standin.main_requests();
    assert!(
        requests
            .iter()
            .any(|r| r.body.to_string().contains("Greet Ada and say PINEAPPLE-7")),
        "the skill's text did not reach the model: {:?}",
        requests
            .iter()
            .map(|r| r.body.to_string())
            .collect::<Vec<_>>()
    );
}

/// Bad input is refused in the contract's shape, and the setting turned
/// off closes the route.
#[test]
fn bad_input_and_the_setting() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    let unknown = rig
        .server
        .call("GET", "/skills?engine=nope&cwd=%2Ftmp", None);
    assert_eq!(unknown.status, 400);
    assert_eq!(unknown.json()["error"]["code"], "unknown_engine");
    let relative = rig
        .server
        .call("GET", "/skills?engine=primary&cwd=relative%2Fdir", None);
    assert_eq!(relative.status, 400);
    assert_eq!(relative.json()["error"]["code"], "invalid_cwd");
    let on_runner = |why: &str| {
        let reply = rig
            .server
            .call("GET", "/skills?engine=primary&runner=devbox", None);
        assert_eq!(reply.status, 200, "{}", reply.text());
        let listed = reply.json();
        assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");
        assert_eq!(listed[0]["name"], "");
        assert_eq!(listed[0]["insert"], "");
        assert!(
            listed[0]["error"].as_str().is_some_and(|e| e.contains(why)),
            "{listed}"
        );
    };
    on_runner("cloudControlPlaneEnabled");
    rig.server
        .set_setting("cloudControlPlaneEnabled", json!(true));
    on_runner("no runner is named `devbox`");

    rig.server
        .set_setting("skillSlashAutocomplete", json!(false));
    let off = rig
        .server
        .call("GET", "/skills?engine=primary&cwd=%2Ftmp", None);
    assert_eq!(off.status, 403);
    assert_eq!(off.json()["error"]["code"], "skills_disabled");
}

/// Codex's `.agents/skills` are listed with `$name`, and `$name` in a
/// prompt brings the skill to the model.
#[test]
fn codex_lists_agents_skills_and_dollar_name_reaches_the_model() {
    let Some(rig) = Rig::start(Api::OpenAi, &[]) else {
        return;
    };
    write_skill(
        &rig.work.path().join(".agents/skills"),
        "ship",
        "---\nname: ship\ndescription: Ships the build\n---\nShip it and say MANGO-3.\n",
    );
    write_skill(
        &rig.home().join(".agents/skills"),
        "lint",
        "---\nname: lint\ndescription: Lints things\n---\nLint.\n",
    );
    let skills = list(&rig, "second", rig.work.path());
    let ship = named(&skills, "ship");
    assert_eq!(ship["description"], "Ships the build");
    assert_eq!(ship["scope"], "project");
    assert_eq!(ship["insert"], "$ship");
    let lint = named(&skills, "lint");
    assert_eq!(lint["scope"], "user");
    assert_eq!(lint["insert"], "$lint");

    rig.standin.push(Message::text("Shipped."));
    let id = rig.spawn("Please use $ship now.");
    rig.wait_turn(&id, 1);
    let requests = rig.standin.main_requests();
    assert!(
        requests
            .iter()
            .any(|r| r.body.to_string().contains("MANGO-3")),
        "the skill's text did not reach the model: {:?}",
        requests
            .iter()
            .map(|r| r.body.to_string())
            .collect::<Vec<_>>()
    );
}

/// On a runner the list is asked there: a skill only the runner host's
/// folder has is listed, from the real Claude Code on that host.
#[test]
fn claude_on_a_runner_lists_the_runner_folders_skills() {
    let Some(rig) = Rig::start(Api::Anthropic, &[]) else {
        return;
    };
    let Some(sshd) = crate::sshd::Sshd::start("sbrunner") else {
        return;
    };
    let rig = rig.on_runner(&sshd);
    let Some((runner, work)) = rig.remote.clone() else {
        panic!("the rig has no runner");
    };
    sshd.as_user(&format!(
        "mkdir -p '{work}/.claude/skills/remote-only' && printf -- '---\\ndescription: Only on the runner\\n---\\nHi.\\n' > '{work}/.claude/skills/remote-only/SKILL.md'"
    ));
    let query = format!(
        "/skills?engine=primary&runner={runner}&cwd={}",
        work.replace('/', "%2F")
    );
    let reply = rig.server.call("GET", &query, None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let skills = reply.json().as_array().unwrap().clone();
    let remote = named(&skills, "remote-only");
    assert_eq!(remote["description"], "Only on the runner", "{skills:?}");
    assert_eq!(remote["scope"], "project");
    assert!(
        !skills.iter().any(|s| s["name"] == ""),
        "no reason entry: {skills:?}"
    );
}

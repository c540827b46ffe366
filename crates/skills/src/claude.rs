//! Claude Code's `/` list, asked of the CLI: its `initialize` control
//! request on `--input-format stream-json` answers with every command it
//! would accept (built-in, user, project and plugin ones) without a turn
//! and without tokens. Descriptions end with their scope (`(project)`);
//! plugin skills are named `plugin:skill`.

use serde_json::{Value, json};

use crate::model::{Ask, EngineKind, Scope, Skill};
use crate::scan::{self, SkillFile};

pub(crate) const ARGS: &[&str] = &[
    "-p",
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
];

const REQUEST_ID: &str = "switchboard-skills";

pub(crate) async fn list(ask: &Ask, command: tokio::process::Command) -> Vec<Skill> {
    let request = json!({
        "type": "control_request",
        "request_id": REQUEST_ID,
        "request": {"subtype": "initialize"},
    });
    let answer = crate::process::exchange(command, &[request], |line| {
        line["type"] == "control_response" && line["response"]["request_id"] == REQUEST_ID
    })
    .await;
    let files = scan::skill_files(ask);
    match answer.and_then(|line| commands(&line)) {
        Ok(commands) => with_broken_files(commands, &files),
        Err(why) => scan::fallback(ask, &why),
    }
}

/// One command as the CLI lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Command {
    pub skill: Skill,
    pub aliases: Vec<String>,
}

/// The commands in an `initialize` control response, or the CLI's error.
pub(crate) fn commands(line: &Value) -> Result<Vec<Command>, String> {
    let response = &line["response"];
    if response["subtype"] != "success" {
        let error = response["error"].as_str().unwrap_or("no reason given");
        return Err(format!("it refused the request: {error}"));
    }
    let listed = response["response"]["commands"]
        .as_array()
        .ok_or("its answer has no command list")?;
    Ok(listed.iter().filter_map(command).collect())
}

fn command(listed: &Value) -> Option<Command> {
    let name = listed["name"].as_str().filter(|name| !name.is_empty())?;
    let text = |key: &str| listed[key].as_str().unwrap_or_default().to_owned();
    let (scope, description) = if listed["builtin"].as_bool() == Some(true) {
        (Scope::Builtin, text("description"))
    } else {
        scope_of(name, &text("description"))
    };
    let aliases = listed["aliases"]
        .as_array()
        .map(|aliases| {
            aliases
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    Some(Command {
        skill: Skill {
            name: name.to_owned(),
            description,
            argument_hint: text("argumentHint"),
            scope,
            insert: scan::insert(EngineKind::Claude, name),
            error: None,
        },
        aliases,
    })
}

/// The scope a description ends with, and the description without it. A
/// plugin's skill is named `plugin:skill`; one with no scope word is the
/// user's.
pub(crate) fn scope_of(name: &str, description: &str) -> (Scope, String) {
    let trimmed = description.trim_end();
    for (suffix, scope) in [("(project)", Scope::Project), ("(user)", Scope::User)] {
        if let Some(rest) = trimmed.strip_suffix(suffix) {
            let scope = if is_plugin(name) {
                Scope::Plugin
            } else {
                scope
            };
            return (scope, rest.trim_end().to_owned());
        }
    }
    if is_plugin(name) {
        return (Scope::Plugin, trimmed.to_owned());
    }
    (Scope::User, trimmed.to_owned())
}

/// `plugin:skill`, both parts words.
fn is_plugin(name: &str) -> bool {
    name.split_once(':').is_some_and(|(plugin, skill)| {
        !plugin.is_empty() && !skill.is_empty() && !name.contains(char::is_whitespace)
    })
}

/// The CLI's list with each skill whose file is broken replaced by an
/// entry that says why: Claude Code lists such a file under a garbled
/// name taken from the broken YAML, with its folder's name as an alias.
pub(crate) fn with_broken_files(commands: Vec<Command>, files: &[SkillFile]) -> Vec<Skill> {
    let mut commands = commands;
    let mut broken = Vec::new();
    for file in files {
        let Err(error) = &file.front else { continue };
        commands.retain(|command| {
            command.skill.name != file.folder && !command.aliases.contains(&file.folder)
        });
        broken.push(scan::broken(EngineKind::Claude, file, error));
    }
    let mut skills: Vec<Skill> = commands.into_iter().map(|command| command.skill).collect();
    crate::model::by_scope(&mut skills);
    broken.extend(skills);
    broken
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::front_matter::FrontMatter;

    /// What Claude Code 2.1.330 answers, cut to one entry of each kind.
    const ANSWER: &str = r#"{"type":"control_response","response":{"subtype":"success","request_id":"switchboard-skills","response":{"commands":[
        {"name":"greet","description":"Greets the user warmly (user)","argumentHint":"[name]"},
        {"name":": :","description":"[unclosed (project)","argumentHint":"","aliases":["broken"]},
        {"name":"deploy","description":"Deploys the project (project)","argumentHint":""},
        {"name":"tools:lint","description":"Lints with the team's rules (user)","argumentHint":"[path]"},
        {"name":"code-review","description":"Review the current diff","argumentHint":"[low|high]","aliases":["review"],"builtin":true},
        {"name":"","description":"nameless"}
    ]}}}"#;

    fn answer() -> Vec<Command> {
        let line: Value = serde_json::from_str(ANSWER).unwrap();
        commands(&line).unwrap()
    }

    #[test]
    fn scopes_from_the_description_and_the_name() {
        let listed = answer();
        let view: Vec<(&str, &str, Scope, &str)> = listed
            .iter()
            .map(|c| {
                (
                    c.skill.name.as_str(),
                    c.skill.description.as_str(),
                    c.skill.scope,
                    c.skill.insert.as_str(),
                )
            })
            .collect();
        assert_eq!(
            view,
            vec![
                ("greet", "Greets the user warmly", Scope::User, "/greet"),
                (": :", "[unclosed", Scope::Project, "/: :"),
                ("deploy", "Deploys the project", Scope::Project, "/deploy"),
                (
                    "tools:lint",
                    "Lints with the team's rules",
                    Scope::Plugin,
                    "/tools:lint"
                ),
                (
                    "code-review",
                    "Review the current diff",
                    Scope::Builtin,
                    "/code-review"
                ),
            ]
        );
        assert_eq!(listed[0].skill.argument_hint, "[name]");
        assert_eq!(listed[4].aliases, vec!["review".to_owned()]);
    }

    #[test]
    fn no_scope_word_is_the_users() {
        assert_eq!(
            scope_of("mine", "Does a thing"),
            (Scope::User, "Does a thing".to_owned())
        );
    }

    #[test]
    fn a_refusal_is_the_reason() {
        let line = json!({"type": "control_response", "response": {"subtype": "error", "request_id": REQUEST_ID, "error": "not ready"}});
        assert_eq!(
            commands(&line),
            Err("it refused the request: not ready".to_owned())
        );
        let empty = json!({"type": "control_response", "response": {"subtype": "success"}});
        assert_eq!(
            commands(&empty),
            Err("its answer has no command list".to_owned())
        );
    }

    #[test]
    fn a_broken_file_replaces_its_garbled_entry() {
        let files = vec![
            SkillFile {
                folder: "broken".into(),
                path: PathBuf::from("/p/.claude/skills/broken/SKILL.md"),
                scope: Scope::Project,
                front: Err("the front matter is not valid YAML".into()),
            },
            SkillFile {
                folder: "deploy".into(),
                path: PathBuf::from("/p/.claude/skills/deploy/SKILL.md"),
                scope: Scope::Project,
                front: Ok(FrontMatter::default()),
            },
        ];
        let skills = with_broken_files(answer(), &files);
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            vec!["broken", "deploy", "greet", "tools:lint", "code-review"]
        );
        assert_eq!(
            skills[0].error.as_deref(),
            Some("/p/.claude/skills/broken/SKILL.md: the front matter is not valid YAML")
        );
        assert_eq!(skills[0].insert, "/broken");
        assert!(skills[1..].iter().all(|s| s.error.is_none()));
    }
}

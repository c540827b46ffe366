//! Codex's skills, asked of `codex app-server` over JSON-RPC: `initialize`,
//! then `skills/list` for the folder, which reads `.agents/skills` up to the
//! repository root, `~/.agents/skills`, `/etc/codex/skills` and its own.
//! Codex takes a skill as `$name` anywhere in a prompt.

use std::path::Path;

use serde_json::{Value, json};

use crate::model::{Ask, EngineKind, Scope, Skill};
use crate::scan::{self, SkillFile};

pub(crate) const ARGS: &[&str] = &["app-server"];

const LIST_ID: u64 = 2;

pub(crate) async fn list(ask: &Ask, command: tokio::process::Command) -> Vec<Skill> {
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"clientInfo": {"name": "switchboard", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"jsonrpc": "2.0", "method": "initialized"}),
        json!({"jsonrpc": "2.0", "id": LIST_ID, "method": "skills/list",
               "params": {"cwds": [ask.cwd], "forceReload": true}}),
    ];
    let answer = crate::process::exchange(command, &requests, |line| line["id"] == LIST_ID).await;
    match answer.and_then(|line| skills(&line)) {
        Ok(listed) => with_broken_files(listed, &scan::skill_files(ask)),
        Err(why) => scan::fallback(ask, &why),
    }
}

/// One skill as `skills/list` reports it, with the file it is read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Listed {
    pub skill: Skill,
    pub path: Option<String>,
}

/// The skills in a `skills/list` reply (those turned off left out), or why
/// there are none.
pub(crate) fn skills(line: &Value) -> Result<Vec<Listed>, String> {
    if let Some(error) = line.get("error") {
        let message = error["message"].as_str().unwrap_or("no reason given");
        return Err(format!("its app server refused `skills/list`: {message}"));
    }
    let folders = line["result"]["data"]
        .as_array()
        .ok_or("its app server's answer has no skill list")?;
    let mut listed = Vec::new();
    for folder in folders {
        for skill in folder["skills"].as_array().into_iter().flatten() {
            listed.extend(entry(skill));
        }
        for error in folder["errors"].as_array().into_iter().flatten() {
            listed.push(error_entry(error));
        }
    }
    Ok(listed)
}

fn entry(skill: &Value) -> Option<Listed> {
    let name = skill["name"].as_str().filter(|name| !name.is_empty())?;
    if skill["enabled"].as_bool() == Some(false) {
        return None;
    }
    let scope = if skill["pluginId"].is_string() {
        Scope::Plugin
    } else {
        match skill["scope"].as_str() {
            Some("repo") => Scope::Project,
            Some("user") => Scope::User,
            _ => Scope::Builtin,
        }
    };
    Some(Listed {
        skill: Skill {
            name: name.to_owned(),
            description: skill["description"].as_str().unwrap_or_default().to_owned(),
            argument_hint: String::new(),
            scope,
            insert: scan::insert(EngineKind::Codex, name),
            error: None,
        },
        path: skill["path"].as_str().map(str::to_owned),
    })
}

/// A skill Codex could not load, named after its folder.
fn error_entry(error: &Value) -> Listed {
    let path = error["path"].as_str().map(str::to_owned);
    let name = path
        .as_deref()
        .and_then(|path| Path::new(path).parent()?.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let message = error["message"]
        .as_str()
        .map_or_else(|| error.to_string(), str::to_owned);
    Listed {
        skill: Skill {
            insert: scan::insert(EngineKind::Codex, &name),
            name,
            description: String::new(),
            argument_hint: String::new(),
            scope: Scope::User,
            error: Some(match &path {
                Some(path) => format!("{path}: {message}"),
                None => message,
            }),
        },
        path,
    }
}

/// The app server's list with each skill whose file is broken marked with
/// what is wrong: Codex lists such a file with whatever it could make of
/// it.
pub(crate) fn with_broken_files(listed: Vec<Listed>, files: &[SkillFile]) -> Vec<Skill> {
    let mut skills: Vec<Skill> = listed
        .into_iter()
        .map(|mut listed| {
            let file = files.iter().find(|file| {
                listed
                    .path
                    .as_deref()
                    .is_some_and(|path| Path::new(path) == file.path)
            });
            if let Some(SkillFile {
                front: Err(error), ..
            }) = file
                && listed.skill.error.is_none()
            {
                listed.skill.error = Some(format!("{}: {error}", listed.path.unwrap_or_default()));
            }
            listed.skill
        })
        .collect();
    crate::model::by_scope(&mut skills);
    skills
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    /// What codex 0.169.0's app server answers, cut down.
    const ANSWER: &str = r#"{"id":2,"result":{"data":[{"cwd":"/p","skills":[
        {"name":"bad","description":"[unclosed","path":"/p/.agents/skills/bad/SKILL.md","scope":"repo","enabled":true,"pluginId":null},
        {"name":"ship","description":"Ships the build","path":"/p/.agents/skills/ship/SKILL.md","scope":"repo","enabled":true,"pluginId":null},
        {"name":"lint","description":"Lints things","path":"/h/.agents/skills/lint/SKILL.md","scope":"user","enabled":true,"pluginId":null},
        {"name":"off","description":"Turned off","path":"/h/.agents/skills/off/SKILL.md","scope":"user","enabled":false,"pluginId":null},
        {"name":"imagegen","description":"Generate images","path":"/h/.codex/skills/.system/imagegen/SKILL.md","scope":"system","enabled":true,"pluginId":null},
        {"name":"pr","description":"From a plugin","path":"/x/SKILL.md","scope":"user","enabled":true,"pluginId":"gh@1"}
    ],"errors":[{"path":"/p/.agents/skills/worse/SKILL.md","message":"missing name"}]}]}}"#;

    #[test]
    fn the_app_servers_list() {
        let line: Value = serde_json::from_str(ANSWER).unwrap();
        let listed = skills(&line).unwrap();
        let view: Vec<(&str, Scope, &str, Option<&str>)> = listed
            .iter()
            .map(|l| {
                (
                    l.skill.name.as_str(),
                    l.skill.scope,
                    l.skill.insert.as_str(),
                    l.skill.error.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            view,
            vec![
                ("bad", Scope::Project, "$bad", None),
                ("ship", Scope::Project, "$ship", None),
                ("lint", Scope::User, "$lint", None),
                ("imagegen", Scope::Builtin, "$imagegen", None),
                ("pr", Scope::Plugin, "$pr", None),
                (
                    "worse",
                    Scope::User,
                    "$worse",
                    Some("/p/.agents/skills/worse/SKILL.md: missing name")
                ),
            ]
        );
    }

    #[test]
    fn a_broken_file_is_marked_not_dropped() {
        let line: Value = serde_json::from_str(ANSWER).unwrap();
        let files = vec![SkillFile {
            folder: "bad".into(),
            path: PathBuf::from("/p/.agents/skills/bad/SKILL.md"),
            scope: Scope::Project,
            front: Err("the front matter is not valid YAML".into()),
        }];
        let skills = with_broken_files(skills(&line).unwrap(), &files);
        assert_eq!(skills.len(), 6);
        assert_eq!(
            skills[0].error.as_deref(),
            Some("/p/.agents/skills/bad/SKILL.md: the front matter is not valid YAML")
        );
        assert_eq!(skills[1].error, None);
    }

    #[test]
    fn an_error_reply_is_the_reason() {
        let line = json!({"id": 2, "error": {"code": -32601, "message": "method not found"}});
        assert_eq!(
            skills(&line),
            Err("its app server refused `skills/list`: method not found".to_owned())
        );
    }
}

//! A `SKILL.md`'s front matter: the YAML between the leading `---` lines
//! that names the skill and says what it does. Both engines read it
//! leniently (a broken file still shows, under a garbled name), so it is
//! read strictly here to tell the user which file is broken and why.

use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

/// What a skill file says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrontMatter {
    pub name: Option<String>,
    pub description: Option<String>,
    pub argument_hint: Option<String>,
    /// `user-invocable: false`: the model may use it, the menu hides it.
    pub hidden: bool,
}

/// Reads a skill file's front matter; the error says what is wrong with it
/// in a sentence.
pub fn parse(text: &str) -> Result<FrontMatter, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        // No front matter: the engines take the body's first paragraph.
        return Ok(FrontMatter {
            description: first_paragraph(text),
            ..FrontMatter::default()
        });
    }
    let mut yaml = Vec::new();
    let mut closed = false;
    for line in lines.by_ref() {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        yaml.push(line);
    }
    if !closed {
        return Err("the front matter has no closing `---` line".to_owned());
    }
    // Claude Code's own docs write `argument-hint: [pr-number] [priority]`,
    // which YAML reads as a list or refuses: the hint is taken as the text
    // the line holds, and the rest is read as YAML.
    let mut raw_hint = None;
    yaml.retain(|line| match line.strip_prefix("argument-hint:") {
        Some(rest) => {
            raw_hint = Some(unquote(rest.trim()));
            false
        }
        None => true,
    });
    let documents = YamlLoader::load_from_str(&yaml.join("\n"))
        .map_err(|e| format!("the front matter is not valid YAML: {e}"))?;
    let map = match documents.into_iter().next() {
        None | Some(Yaml::Null) => return Ok(FrontMatter::default()),
        Some(Yaml::Hash(map)) => map,
        Some(_) => return Err("the front matter is not a list of `key: value` lines".to_owned()),
    };
    let text_field = |key: &str| -> Result<Option<String>, String> {
        match map.get(&Yaml::String(key.to_owned())) {
            None | Some(Yaml::Null) => Ok(None),
            Some(Yaml::String(value)) => Ok(Some(value.clone())),
            Some(Yaml::Integer(value)) => Ok(Some(value.to_string())),
            Some(Yaml::Real(value)) => Ok(Some(value.clone())),
            Some(Yaml::Boolean(value)) => Ok(Some(value.to_string())),
            Some(_) => Err(format!("`{key}` in the front matter is not text")),
        }
    };
    let hidden = matches!(
        map.get(&Yaml::String("user-invocable".to_owned())),
        Some(Yaml::Boolean(false))
    );
    Ok(FrontMatter {
        name: text_field("name")?,
        description: text_field("description")?,
        argument_hint: raw_hint.filter(|hint| !hint.is_empty()),
        hidden,
    })
}

/// A YAML scalar's text without its quotes.
fn unquote(value: &str) -> String {
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return inner.to_owned();
        }
    }
    value.to_owned()
}

/// Reads the skill file at `path`; a file that cannot be read is an error
/// like a broken one.
pub fn read(path: &Path) -> Result<FrontMatter, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
    parse(&text)
}

fn first_paragraph(text: &str) -> Option<String> {
    let paragraph: Vec<&str> = text
        .lines()
        .map(|line| line.trim().trim_start_matches('#').trim())
        .skip_while(|line| line.is_empty())
        .take_while(|line| !line.is_empty())
        .collect();
    (!paragraph.is_empty()).then(|| paragraph.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_front_matter() {
        let parsed = parse(
            "---\nname: greet\ndescription: Greets the user\nargument-hint: \"[name]\"\n---\nSay hi.\n",
        );
        assert_eq!(
            parsed,
            Ok(FrontMatter {
                name: Some("greet".into()),
                description: Some("Greets the user".into()),
                argument_hint: Some("[name]".into()),
                hidden: false,
            })
        );
    }

    #[test]
    fn hidden_from_the_menu() {
        let parsed = parse("---\ndescription: x\nuser-invocable: false\n---\n");
        assert_eq!(parsed.map(|f| f.hidden), Ok(true));
    }

    #[test]
    fn no_front_matter_takes_the_first_paragraph() {
        let parsed = parse("\n# Deploy the app\nwith care\n\nMore.\n");
        assert_eq!(
            parsed.map(|f| f.description),
            Ok(Some("Deploy the app with care".into()))
        );
        assert_eq!(parse("").map(|f| f.description), Ok(None));
    }

    #[test]
    fn broken_front_matter_says_why() {
        let unclosed = parse("---\nname: x\ndescription: y\n");
        assert_eq!(
            unclosed,
            Err("the front matter has no closing `---` line".to_owned())
        );
        let bad_yaml = parse("---\ndescription: [unclosed\n---\nbody\n");
        assert!(
            bad_yaml
                .as_ref()
                .is_err_and(|e| e.starts_with("the front matter is not valid YAML")),
            "{bad_yaml:?}"
        );
        assert_eq!(
            parse("---\n- a\n- b\n---\n"),
            Err("the front matter is not a list of `key: value` lines".to_owned())
        );
        assert_eq!(
            parse("---\ndescription:\n  nested: map\n---\n"),
            Err("`description` in the front matter is not text".to_owned())
        );
    }

    #[test]
    fn an_unreadable_file_is_an_error() {
        let missing = read(Path::new("/nonexistent/SKILL.md"));
        assert!(
            missing
                .as_ref()
                .is_err_and(|e| e.contains("cannot be read")),
            "{missing:?}"
        );
    }
}

#[cfg(test)]
mod hint_tests {
    use super::parse;

    #[test]
    fn an_argument_hint_is_the_text_its_line_holds_as_claude_codes_docs_write_it() {
        for (line, hint) in [
            ("argument-hint: [environment]", "[environment]"),
            (
                "argument-hint: [pr-number] [priority] [assignee]",
                "[pr-number] [priority] [assignee]",
            ),
            ("argument-hint: \"<file>\"", "<file>"),
        ] {
            let text = format!("---\nname: deploy\n{line}\ndescription: Ships it\n---\nBody\n");
            let read = parse(&text).unwrap();
            assert_eq!(read.argument_hint.as_deref(), Some(hint), "{line}");
            assert_eq!(read.description.as_deref(), Some("Ships it"));
        }
    }
}

//! Frameworks that ignore `PORT`: their dev servers are told the session's
//! port and loopback host by flags. Anything not known here runs unchanged
//! and finds `PORT` and `HOST` in its environment.

use std::path::Path;

/// The tools whose servers take their port by flag, and the flags they get
/// (`N` is the port), as docs/apps.md shows them.
pub const TABLE: &[(&str, &str)] = &[
    (
        "vite, vite dev, vite serve, vite preview",
        "--port N --host 127.0.0.1",
    ),
    ("astro dev", "--port N --host 127.0.0.1"),
    ("next dev", "--port N --hostname 127.0.0.1"),
    ("ng serve", "--port N --host 127.0.0.1"),
    ("nuxt dev, nuxi dev", "--port N --host 127.0.0.1"),
    (
        "webpack serve, webpack-dev-server",
        "--port N --host 127.0.0.1",
    ),
    ("remix vite:dev", "--port N --host 127.0.0.1"),
    ("react-router dev", "--port N --host 127.0.0.1"),
];

/// A known tool: its program, the word after it (`None`: `vite`, whose
/// server runs with no subcommand), and the flag it takes a host with.
struct Tool {
    program: &'static str,
    subcommands: &'static [&'static str],
    host_flag: &'static str,
}

const TOOLS: &[Tool] = &[
    Tool {
        program: "vite",
        subcommands: &["", "dev", "serve", "preview"],
        host_flag: "--host",
    },
    Tool {
        program: "astro",
        subcommands: &["dev"],
        host_flag: "--host",
    },
    Tool {
        program: "next",
        subcommands: &["dev"],
        host_flag: "--hostname",
    },
    Tool {
        program: "ng",
        subcommands: &["serve"],
        host_flag: "--host",
    },
    Tool {
        program: "nuxt",
        subcommands: &["dev"],
        host_flag: "--host",
    },
    Tool {
        program: "nuxi",
        subcommands: &["dev"],
        host_flag: "--host",
    },
    Tool {
        program: "webpack",
        subcommands: &["serve"],
        host_flag: "--host",
    },
    Tool {
        program: "webpack-dev-server",
        subcommands: &[""],
        host_flag: "--host",
    },
    Tool {
        program: "remix",
        subcommands: &["vite:dev"],
        host_flag: "--host",
    },
    Tool {
        program: "react-router",
        subcommands: &["dev"],
        host_flag: "--host",
    },
];

/// The command to run for `command` in `folder` on `port`: a known tool's
/// server gets `--port` and its host flag after its name, a package
/// manager's script that starts one gets them passed through
/// (`npm run dev -- --port N --host 127.0.0.1`), anything else is returned
/// unchanged. A command that names a port already is left alone.
pub fn with_port_flags(command: &str, folder: &Path, port: u16) -> String {
    let words = words_of(command);
    if names_a_port(words.iter().map(|w| w.text)) {
        return command.to_owned();
    }
    if let Some((tool, after)) = find_tool(&words) {
        let flags = flags(tool, port, words.iter().map(|w| w.text));
        return format!("{}{flags}{}", &command[..after], &command[after..]);
    }
    let Some(script) = script_run(&words) else {
        return command.to_owned();
    };
    let Some(body) = package_script(folder, script.name) else {
        return command.to_owned();
    };
    let script_words = words_of(&body);
    if names_a_port(script_words.iter().map(|w| w.text)) {
        return command.to_owned();
    }
    let Some((tool, _)) = find_tool(&script_words) else {
        return command.to_owned();
    };
    let all_words = words
        .iter()
        .chain(script_words.iter())
        .map(|w| w.text)
        .collect::<Vec<_>>();
    let flags = flags(tool, port, all_words.into_iter());
    let separator = if script.needs_separator && !words.iter().any(|w| w.text == "--") {
        " --"
    } else {
        ""
    };
    format!("{}{separator}{flags}", command.trim_end())
}

/// A whitespace-separated word and the byte just after it.
struct Word<'a> {
    text: &'a str,
    end: usize,
}

fn words_of(text: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                out.push(Word {
                    text: &text[from..at],
                    end: at,
                });
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    out
}

fn names_a_port<'a>(mut words: impl Iterator<Item = &'a str>) -> bool {
    words.any(|w| w == "--port" || w == "-p" || w.starts_with("--port="))
}

/// The first known tool the words start, and the byte its name ends at
/// (where its flags go, so a chain `vite && …` keeps its shape).
fn find_tool<'w>(words: &[Word<'w>]) -> Option<(&'static Tool, usize)> {
    words.iter().enumerate().find_map(|(at, word)| {
        let program = word.text.rsplit('/').next().unwrap_or(word.text);
        let tool = TOOLS.iter().find(|tool| tool.program == program)?;
        let next = words.get(at + 1);
        let subcommand = next.map_or("", |w| w.text);
        if tool.subcommands.contains(&subcommand) {
            return Some((tool, next.map_or(word.end, |w| w.end)));
        }
        let bare = next.is_none_or(|w| w.text.starts_with('-') || is_shell_operator(w.text));
        (bare && tool.subcommands.contains(&"")).then_some((tool, word.end))
    })
}

fn is_shell_operator(word: &str) -> bool {
    matches!(word, "&&" | "||" | ";" | "|" | "&")
}

/// ` --port N --host 127.0.0.1`, without the host flag when the words name
/// a host already.
fn flags<'a>(tool: &Tool, port: u16, mut words: impl Iterator<Item = &'a str>) -> String {
    let names_host = words.any(|w| {
        ["--host", "--hostname", "-H"]
            .iter()
            .any(|flag| w == *flag || w.starts_with(&format!("{flag}=")))
    });
    if names_host {
        format!(" --port {port}")
    } else {
        format!(" --port {port} {} 127.0.0.1", tool.host_flag)
    }
}

/// A package manager running a script of `package.json`.
struct ScriptRun<'a> {
    name: &'a str,
    /// npm and bun pass arguments on to the script only after `--`.
    needs_separator: bool,
}

fn script_run<'w>(words: &[Word<'w>]) -> Option<ScriptRun<'w>> {
    let manager = words.first()?.text;
    let second = words.get(1)?.text;
    let third = words.get(2).map(|w| w.text);
    let (name, needs_separator) = match (manager, second) {
        ("npm" | "bun", "run" | "run-script") => (third?, true),
        ("npm", "start") => (second, true),
        ("pnpm" | "yarn", "run") => (third?, false),
        ("pnpm" | "yarn", script) => (script, false),
        _ => return None,
    };
    (!name.starts_with('-')).then_some(ScriptRun {
        name,
        needs_separator,
    })
}

fn package_script(folder: &Path, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(folder.join("package.json")).ok()?;
    let package: serde_json::Value = serde_json::from_str(&text).ok()?;
    package
        .get("scripts")?
        .get(name)?
        .as_str()
        .map(str::to_owned)
}

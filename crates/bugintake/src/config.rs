//! `DIR/bugintake.toml`: the global Bug Intake instructions, the default
//! project folder, and the routes that send a report to a project
//! (docs/bug-intake.md). A missing file is the empty configuration: the
//! built-in instructions and no route, so every report is listed as
//! unrouted and starts nothing.
//!
//! ```toml
//! default_folder = "/home/ada/src/shop"
//!
//! [[routes]]
//! repository = "octo/app"
//! folder = "/home/ada/src/app"
//! engine = "codex"
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::ConfigError;
use crate::parse::bare_address;
use crate::report::{Report, Source};

pub const CONFIG_FILE: &str = "bugintake.toml";
/// The global instructions, like the per-project `bugIntakeAppendPrompt`,
/// are kept to a size a prompt can carry.
pub const MAX_INSTRUCTIONS_CHARS: usize = 20_000;

/// The global Bug Intake instructions when the file gives none.
pub const DEFAULT_INSTRUCTIONS: &str = "\
You are triaging a bug report that arrived through Switchboard's Bug Intake. \
Investigate it in this project before changing anything:

1. Restate the problem in one or two sentences, in your own words.
2. Find where in the code it arises. Reproduce it if you can (a failing test, \
a command, a request) and say how; if you cannot, say what you tried.
3. Judge it: a real bug, expected behaviour, a duplicate of something known, \
or not enough information. Estimate its severity and who it affects.
4. If the cause is clear and the fix is small, make the fix with a test on a \
new branch. Do not push, publish, deploy, or reply to the reporter.

End with a short triage summary: cause, evidence, severity, what you changed \
(if anything) and the suggested next step.";

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The global Bug Intake instructions; [`Config::instructions`] falls
    /// back to [`DEFAULT_INSTRUCTIONS`].
    #[serde(default)]
    pub instructions: Option<String>,
    /// Where a report no route claims goes; none leaves it unrouted.
    #[serde(default)]
    pub default_folder: Option<PathBuf>,
    /// Tried in order; the first that matches wins.
    #[serde(default)]
    pub routes: Vec<RouteRule>,
}

/// One `[[routes]]` entry: every condition given must hold.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteRule {
    #[serde(default)]
    pub source: Option<Source>,
    /// A GitHub repository's full name (`owner/name`).
    #[serde(default)]
    pub repository: Option<String>,
    /// A Sentry project slug.
    #[serde(default)]
    pub sentry_project: Option<String>,
    /// The generic payload's or the form's `project`.
    #[serde(default)]
    pub project: Option<String>,
    /// The Bug Intake address a mail was sent to.
    #[serde(default)]
    pub address: Option<String>,
    /// The project folder (absolute) the triage session runs in.
    pub folder: PathBuf,
    /// The engine for the session; none leaves it to the app's default.
    #[serde(default)]
    pub engine: Option<String>,
}

/// Where a report's triage session runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub folder: PathBuf,
    pub engine: Option<String>,
}

impl Config {
    /// Whether mail sent to `address` is a bug report: a route names it
    /// (without regard to case).
    pub fn takes_mail_to(&self, address: &str) -> bool {
        self.routes.iter().any(|rule| {
            rule.address
                .as_deref()
                .is_some_and(|a| a.trim().eq_ignore_ascii_case(address.trim()))
        })
    }

    /// Reads `DIR/bugintake.toml`; a missing file is the empty configuration.
    pub fn load(data_dir: &Path) -> Result<Config, ConfigError> {
        let path = data_dir.join(CONFIG_FILE);
        let bad = |detail: String| ConfigError {
            path: path.display().to_string(),
            detail,
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
            Err(e) => return Err(bad(e.to_string())),
        };
        let config: Config = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
        config.check().map_err(bad)?;
        Ok(config)
    }

    /// The global Bug Intake instructions in effect.
    pub fn instructions(&self) -> &str {
        self.instructions
            .as_deref()
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .unwrap_or(DEFAULT_INSTRUCTIONS)
    }

    fn check(&self) -> Result<(), String> {
        if let Some(instructions) = &self.instructions
            && instructions.chars().count() > MAX_INSTRUCTIONS_CHARS
        {
            return Err(format!(
                "instructions must be at most {MAX_INSTRUCTIONS_CHARS} characters"
            ));
        }
        if let Some(folder) = &self.default_folder
            && !folder.is_absolute()
        {
            return Err("default_folder must be an absolute path".to_owned());
        }
        for (index, rule) in self.routes.iter().enumerate() {
            rule.check()
                .map_err(|detail| format!("routes[{index}]: {detail}"))?;
        }
        Ok(())
    }
}

impl RouteRule {
    fn check(&self) -> Result<(), String> {
        if !self.folder.is_absolute() {
            return Err("folder must be an absolute path".to_owned());
        }
        if self.engine.as_deref().is_some_and(|e| e.trim().is_empty()) {
            return Err("engine must name an engine, or be left out".to_owned());
        }
        let keys = self.keys();
        if self.source.is_none() && keys.iter().all(|(_, value, _)| value.is_none()) {
            return Err(
                "a route must match on something (source, repository, sentry_project, project or address); \
                 use default_folder for the rest"
                    .to_owned(),
            );
        }
        for (name, value, sources) in keys {
            if value.is_some_and(|v| v.trim().is_empty()) {
                return Err(format!("{name} must not be empty"));
            }
            if value.is_some()
                && let Some(source) = self.source
                && !sources.contains(&source)
            {
                return Err(format!(
                    "{name} never matches a report from source {}",
                    source.as_str()
                ));
            }
        }
        Ok(())
    }

    /// Each key, its value here, and the sources whose reports carry it.
    fn keys(&self) -> [(&'static str, Option<&str>, &'static [Source]); 4] {
        [
            ("repository", self.repository.as_deref(), &[Source::Github]),
            (
                "sentry_project",
                self.sentry_project.as_deref(),
                &[Source::Sentry],
            ),
            (
                "project",
                self.project.as_deref(),
                &[Source::Generic, Source::Form],
            ),
            ("address", self.address.as_deref(), &[Source::Email]),
        ]
    }

    /// Names compare without regard to case: GitHub's repository names,
    /// Sentry's slugs and mail addresses are all case-insensitive.
    fn matches(&self, source: Source, origin: Option<&str>) -> bool {
        if self.source.is_some_and(|s| s != source) {
            return false;
        }
        self.keys().into_iter().all(|(name, value, sources)| {
            let Some(wanted) = value else { return true };
            let wanted = if name == "address" {
                bare_address(wanted)
            } else {
                wanted.trim().to_owned()
            };
            sources.contains(&source) && origin.is_some_and(|o| o.eq_ignore_ascii_case(&wanted))
        })
    }
}

/// Where `report` goes: the first route that matches; else, for the app's
/// form, the project folder the person chose (an absolute path); else the
/// default folder; else nowhere (the report is listed as unrouted).
pub fn route(report: &Report, config: &Config) -> Option<Route> {
    route_for(report.source, report.origin.as_deref(), config)
}

/// [`route`] from the two things it reads, as a stored report keeps them.
pub(crate) fn route_for(source: Source, origin: Option<&str>, config: &Config) -> Option<Route> {
    if let Some(rule) = config
        .routes
        .iter()
        .find(|rule| rule.matches(source, origin))
    {
        return Some(Route {
            folder: rule.folder.clone(),
            engine: rule.engine.as_ref().map(|e| e.trim().to_owned()),
        });
    }
    let chosen = origin
        .map(Path::new)
        .filter(|folder| source == Source::Form && folder.is_absolute());
    chosen
        .or(config.default_folder.as_deref())
        .map(|folder| Route {
            folder: folder.to_owned(),
            engine: None,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(source: Source, origin: Option<&str>) -> Report {
        Report {
            source,
            title: "t".to_owned(),
            body: String::new(),
            url: None,
            external_id: None,
            reporter: None,
            origin: origin.map(str::to_owned),
            labels: Vec::new(),
            received_at: time::OffsetDateTime::UNIX_EPOCH,
        }
    }

    fn load(text: &str) -> Result<Config, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), text).unwrap();
        Config::load(dir.path())
    }

    const ROUTES: &str = r#"
default_folder = "/src/fallback"

[[routes]]
repository = "Octo/App"
folder = "/src/app"
engine = "codex"

[[routes]]
source = "sentry"
sentry_project = "front-end"
folder = "/src/web"

[[routes]]
address = "Bugs <bugs@example.com>"
folder = "/src/mail"

[[routes]]
project = "billing"
folder = "/src/billing"

[[routes]]
source = "sentry"
folder = "/src/any-sentry"
"#;

    fn folder(config: &Config, report: &Report) -> Option<String> {
        route(report, config).map(|r| r.folder.display().to_string())
    }

    #[test]
    fn the_first_matching_route_wins_then_the_default() {
        let config = load(ROUTES).unwrap();
        let github = report(Source::Github, Some("octo/app"));
        assert_eq!(
            route(&github, &config),
            Some(Route {
                folder: "/src/app".into(),
                engine: Some("codex".to_owned())
            })
        );
        let cases = [
            (Source::Sentry, Some("front-end"), "/src/web"),
            (Source::Sentry, Some("back-end"), "/src/any-sentry"),
            (Source::Email, Some("bugs@example.com"), "/src/mail"),
            (Source::Generic, Some("billing"), "/src/billing"),
            // A key only matches the source that carries it.
            (Source::Generic, Some("octo/app"), "/src/fallback"),
            (Source::Github, None, "/src/fallback"),
        ];
        for (source, origin, expected) in cases {
            let got = folder(&config, &report(source, origin));
            assert_eq!(got.as_deref(), Some(expected), "{source:?} {origin:?}");
        }
    }

    #[test]
    fn without_a_default_an_unmatched_report_is_unrouted() {
        let config = load(&ROUTES.replace("default_folder = \"/src/fallback\"", "")).unwrap();
        assert_eq!(
            route(&report(Source::Github, Some("other/repo")), &config),
            None
        );
        assert_eq!(
            route(&report(Source::Generic, None), &Config::default()),
            None
        );
    }

    #[test]
    fn the_form_goes_to_the_folder_the_person_chose() {
        let config = Config::default();
        assert_eq!(
            folder(&config, &report(Source::Form, Some("/src/chosen"))).as_deref(),
            Some("/src/chosen")
        );
        assert_eq!(route(&report(Source::Form, Some("chosen")), &config), None);
        // A generic sender cannot name a folder.
        assert_eq!(
            route(&report(Source::Generic, Some("/src/chosen")), &config),
            None
        );
    }

    #[test]
    fn a_missing_file_is_the_built_in_instructions_and_no_routes() {
        let dir = tempfile::tempdir().unwrap();
        let config = Config::load(dir.path()).unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.instructions(), DEFAULT_INSTRUCTIONS);
        let own = load("instructions = \"Look at the logs first.\"").unwrap();
        assert_eq!(own.instructions(), "Look at the logs first.");
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let cases = [
            ("default_folder = \"relative\"", "absolute"),
            ("[[routes]]\nfolder = \"/x\"", "must match on something"),
            (
                "[[routes]]\nsource = \"github\"\nsentry_project = \"p\"\nfolder = \"/x\"",
                "never matches",
            ),
            (
                "[[routes]]\nrepository = \"o/r\"\nfolder = \"x\"",
                "routes[0]: folder",
            ),
            (
                "[[routes]]\nrepository = \"o/r\"\nfolder = \"/x\"\nengine = \" \"",
                "engine",
            ),
            (
                "[[routes]]\nsource = \"jira\"\nfolder = \"/x\"",
                "unknown variant",
            ),
            ("defaultFolder = \"/x\"", "unknown field"),
        ];
        for (text, expected) in cases {
            let error = load(text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?} gave {error}");
        }
    }
}

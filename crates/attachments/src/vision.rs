//! Which models see images, per engine (the table of docs/attachments.md,
//! with where each fact comes from), and which model a session runs on.

/// The engines, as far as images go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineFamily {
    Claude,
    Codex,
    /// A `command` engine or any other: it receives text alone.
    Other,
}

/// Claude models that do not see images: Claude 3.5 Haiku was released
/// text-only. Every other Claude 3 and later model does, and so do the
/// aliases Claude Code resolves (`sonnet`, `opus`, `haiku`, `opusplan`).
const CLAUDE_TEXT_ONLY: &[&str] = &["claude-3-5-haiku", "claude-3.5-haiku"];

/// Claude models older than Claude 3, which were text-only.
const CLAUDE_BEFORE_3: &[&str] = &["claude-2", "claude-instant"];

/// OpenAI models that Codex may run and that take no image input: the open
/// weight gpt-oss models and the small reasoning models.
const OPENAI_TEXT_ONLY: &[&str] = &["gpt-oss", "o3-mini", "o1-mini", "codex-mini"];

/// Whether `model` on an engine of `family` sees images. `None` (the engine
/// chooses) and names the table does not know are the engine's default
/// model, which sees images for Claude Code and Codex.
pub fn sees_images(family: EngineFamily, model: Option<&str>) -> bool {
    let model = model.map(|m| m.trim().to_ascii_lowercase());
    match family {
        EngineFamily::Other => false,
        EngineFamily::Claude => match model.as_deref() {
            None => true,
            Some(model) => {
                let named = model.rsplit('/').next().unwrap_or(model);
                !CLAUDE_TEXT_ONLY
                    .iter()
                    .chain(CLAUDE_BEFORE_3)
                    .any(|prefix| named.starts_with(prefix))
            }
        },
        EngineFamily::Codex => match model.as_deref() {
            None => true,
            Some(model) => {
                let named = model.rsplit('/').next().unwrap_or(model);
                // gpt-5*, gpt-4o, gpt-4.1, o3 and o4-mini see images, and so
                // does a name the table does not know (the default's guess).
                !OPENAI_TEXT_ONLY.iter().any(|p| named.starts_with(p))
            }
        },
    }
}

/// The model Codex describes an image on when the engine's own arguments
/// choose one that cannot see: the GPT-5 family sees images, and every
/// Codex login may use it.
pub const CODEX_VISION_MODEL: &str = "gpt-5";

/// The model the vision call of an engine (its family and arguments) must
/// name; `None` leaves it to the utility model's default, the engine's small
/// model, which sees images (Claude Code's `haiku` is named after any model
/// the arguments choose, so it wins over one that cannot see).
pub fn vision_model(family: EngineFamily, args: &[String]) -> Option<&'static str> {
    let chosen = session_model(family, args);
    (family == EngineFamily::Codex && !sees_images(family, chosen.as_deref()))
        .then_some(CODEX_VISION_MODEL)
}

/// The model an engine's own arguments choose (`--model X`, `--model=X`,
/// Codex's `-m X` and `-c model="X"`); `None` when they leave it to the CLI.
pub fn session_model(family: EngineFamily, args: &[String]) -> Option<String> {
    let mut chosen = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if let Some(model) = word.strip_prefix("--model=") {
            chosen = Some(model.to_owned());
        } else if word == "--model" || (family == EngineFamily::Codex && word == "-m") {
            chosen = words.next().cloned();
        } else if family == EngineFamily::Codex
            && (word == "-c" || word == "--config")
            && let Some(model) = words
                .next()
                .and_then(|setting| setting.strip_prefix("model="))
        {
            chosen = Some(model.trim_matches(['"', '\'']).to_owned());
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_models_that_see_images() {
        let claude = |m| sees_images(EngineFamily::Claude, Some(m));
        for model in [
            "claude-sonnet-4-5",
            "claude-opus-4-1",
            "claude-haiku-4-5",
            "claude-3-5-sonnet-20241022",
            "claude-3-haiku-20240307",
            "sonnet",
            "opus",
            "haiku",
        ] {
            assert!(claude(model), "{model}");
        }
        for model in [
            "claude-3-5-haiku-20241022",
            "claude-3-5-haiku-latest",
            "claude-2.1",
        ] {
            assert!(!claude(model), "{model}");
        }
        let codex = |m| sees_images(EngineFamily::Codex, Some(m));
        for model in [
            "gpt-5.5",
            "gpt-5-codex",
            "gpt-4o",
            "gpt-4.1-mini",
            "o3",
            "o4-mini",
        ] {
            assert!(codex(model), "{model}");
        }
        for model in [
            "gpt-oss-120b",
            "gpt-oss-20b",
            "o3-mini",
            "o1-mini",
            "codex-mini-latest",
        ] {
            assert!(!codex(model), "{model}");
        }
        assert!(sees_images(EngineFamily::Claude, None));
        assert!(sees_images(EngineFamily::Codex, None));
        assert!(
            codex("some-future-model"),
            "unknown names are the engine's default"
        );
        assert!(!sees_images(EngineFamily::Other, None));
        assert!(!sees_images(EngineFamily::Other, Some("gpt-5")));
    }

    #[test]
    fn a_codex_on_a_text_only_model_describes_on_a_vision_one() {
        let args = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(
            vision_model(EngineFamily::Codex, &args(&["-m", "gpt-oss-20b"])),
            Some(CODEX_VISION_MODEL)
        );
        assert_eq!(
            vision_model(EngineFamily::Codex, &args(&["-m", "gpt-5.5"])),
            None
        );
        assert_eq!(vision_model(EngineFamily::Codex, &[]), None);
        assert_eq!(
            vision_model(
                EngineFamily::Claude,
                &args(&["--model", "claude-3-5-haiku"])
            ),
            None
        );
    }

    #[test]
    fn the_model_is_read_from_the_engines_arguments() {
        let args = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert_eq!(
            session_model(
                EngineFamily::Claude,
                &args(&["--model", "claude-3-5-haiku"])
            ),
            Some("claude-3-5-haiku".into())
        );
        assert_eq!(
            session_model(EngineFamily::Claude, &args(&["--model=opus", "--verbose"])),
            Some("opus".into())
        );
        assert_eq!(
            session_model(EngineFamily::Codex, &args(&["-m", "gpt-oss-20b"])),
            Some("gpt-oss-20b".into())
        );
        assert_eq!(
            session_model(EngineFamily::Codex, &args(&["-c", "model=\"o3-mini\""])),
            Some("o3-mini".into())
        );
        assert_eq!(
            session_model(EngineFamily::Claude, &args(&["-m", "x"])),
            None
        );
        assert_eq!(session_model(EngineFamily::Codex, &[]), None);
    }
}

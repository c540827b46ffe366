//! One turn's attachments: whether the engine reads them itself, gets a
//! brief from a vision model, or the turn is refused; and the lines added
//! to the prompt in each case.

use crate::store::Attachment;

/// `imageBridgeMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BridgeMode {
    /// An image the model cannot see refuses the turn.
    Off,
    /// An image the model cannot see is described by a vision model first.
    Auto,
}

/// What to do with a turn's images.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// No attachments: the text goes as it is.
    Nothing,
    /// The session's model sees images: it gets their paths.
    Direct,
    /// It does not: each image is described first.
    Bridge,
    /// It does not and the bridge is off: nothing is sent.
    Refuse(Refusal),
}

/// Why a turn with images is refused, in words for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub message: String,
}

/// Decides a turn: `model` is the session's (`None`: the engine's default),
/// `sees` the table's verdict on it.
pub fn plan(count: usize, sees: bool, mode: BridgeMode, engine: &str, model: Option<&str>) -> Plan {
    if count == 0 {
        return Plan::Nothing;
    }
    if sees {
        return Plan::Direct;
    }
    match mode {
        BridgeMode::Auto => Plan::Bridge,
        BridgeMode::Off => {
            let model = model.map_or_else(
                || format!("engine `{engine}`"),
                |model| format!("model `{model}` of engine `{engine}`"),
            );
            Plan::Refuse(Refusal {
                message: format!(
                    "The {model} cannot see images, and imageBridgeMode is off, so the image \
                     was not sent. Set imageBridgeMode to auto to have a vision model describe \
                     it first, or start the session on a model that sees images."
                ),
            })
        }
    }
}

/// What the vision model is asked about each image. Its first words are
/// also what the model stand-in of the tests answers by.
pub const DESCRIBE_PROMPT: &str = "Describe this image for a coding agent that cannot see it. \
Transcribe any text, code, error messages and numbers exactly; describe the layout, the user \
interface elements and anything that looks wrong. Be factual and concise: at most 200 words, \
plain text.";

/// The line an engine that sees images gets: the path, which Claude Code's
/// Read tool and Codex's image viewer open.
pub fn direct_line(attachment: &Attachment) -> String {
    format!("[Image attached: {}]", attachment.path)
}

/// The line a text-only engine gets: the path and the vision model's brief.
pub fn bridged_line(attachment: &Attachment, brief: &str) -> String {
    format!("[Image {}: {}]", attachment.path, brief.trim())
}

/// The line for an image the vision model could not describe: the turn
/// goes on without it, and says so.
pub fn failed_line(attachment: &Attachment, reason: &str) -> String {
    format!(
        "[Image {} could not be described (the vision model failed: {}); this turn goes on \
         without it.]",
        attachment.path,
        reason.trim()
    )
}

/// The prompt with one line per attachment after the person's text.
pub fn with_attachments(text: &str, lines: &[String]) -> String {
    if lines.is_empty() {
        return text.to_owned();
    }
    let mut prompt = text.trim_end().to_owned();
    if !prompt.is_empty() {
        prompt.push_str("\n\n");
    }
    prompt.push_str(&lines.join("\n"));
    prompt
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image() -> Attachment {
        Attachment {
            id: "ab".repeat(32),
            path: "/data/attachments/abab.png".into(),
            media_type: "image/png".into(),
            size: 10,
        }
    }

    #[test]
    fn a_turn_is_planned_by_the_table_and_the_setting() {
        assert_eq!(
            plan(0, false, BridgeMode::Off, "primary", None),
            Plan::Nothing
        );
        assert_eq!(
            plan(1, true, BridgeMode::Off, "primary", None),
            Plan::Direct
        );
        assert_eq!(
            plan(2, false, BridgeMode::Auto, "primary", None),
            Plan::Bridge
        );
        let Plan::Refuse(refusal) = plan(
            1,
            false,
            BridgeMode::Off,
            "primary",
            Some("claude-3-5-haiku"),
        ) else {
            panic!("refused");
        };
        assert!(
            refusal.message.contains("claude-3-5-haiku"),
            "{}",
            refusal.message
        );
        assert!(
            refusal.message.contains("imageBridgeMode"),
            "{}",
            refusal.message
        );
        let Plan::Refuse(refusal) = plan(1, false, BridgeMode::Off, "shell", None) else {
            panic!("refused");
        };
        assert!(
            refusal.message.contains("engine `shell`"),
            "{}",
            refusal.message
        );
    }

    #[test]
    fn the_prompt_carries_one_line_per_image() {
        let lines = vec![
            bridged_line(&image(), " A red square. \n"),
            failed_line(&image(), "timed out"),
        ];
        let prompt = with_attachments("What is this?\n", &lines);
        assert_eq!(
            prompt,
            "What is this?\n\n[Image /data/attachments/abab.png: A red square.]\n\
             [Image /data/attachments/abab.png could not be described (the vision model failed: \
             timed out); this turn goes on without it.]"
        );
        assert_eq!(with_attachments("hi", &[]), "hi");
        assert_eq!(
            with_attachments("", &[direct_line(&image())]),
            "[Image attached: /data/attachments/abab.png]"
        );
    }
}

//! "Catch me up": the prompt that asks the utility model for a thread's
//! summary. The newest messages matter most, so when the thread is longer
//! than the model should read, the oldest are cut first, and every message
//! keeps its sender so the summary can say who asked what.

/// The built-in instructions, used while `mailclientAiSummaryPrompt` is blank.
pub const DEFAULT_CATCH_UP_INSTRUCTIONS: &str = "Summarize this email thread for its reader in \
     three to five short bullet points: what was decided, what is asked of the reader and by \
     whom, and any dates. Do not invent anything that is not in the messages.";

/// The thread's text the prompt holds at most, in characters.
pub const MAX_CATCH_UP_CHARS: usize = 24_000;

/// One message as the prompt shows it.
pub struct CatchUpMessage<'a> {
    pub from: &'a str,
    pub date: Option<&'a str>,
    pub text: &'a str,
}

/// The prompt for `subject`'s `messages` (oldest first), with the person's
/// `instructions` or the built-in ones.
pub fn catch_up_prompt(instructions: &str, subject: &str, messages: &[CatchUpMessage]) -> String {
    let instructions = match instructions.trim() {
        "" => DEFAULT_CATCH_UP_INSTRUCTIONS,
        given => given,
    };
    let mut kept: Vec<String> = Vec::new();
    let mut left = MAX_CATCH_UP_CHARS;
    let mut dropped = 0;
    for message in messages.iter().rev() {
        let block = format!(
            "From: {}\nDate: {}\n\n{}",
            message.from,
            message.date.unwrap_or("unknown"),
            message.text.trim()
        );
        let size = block.chars().count();
        if size > left {
            if kept.is_empty() {
                kept.push(block.chars().take(left).collect());
            } else {
                dropped += 1;
            }
            left = 0;
            continue;
        }
        left -= size;
        kept.push(block);
    }
    kept.reverse();
    let cut = match dropped {
        0 => String::new(),
        n => format!("({n} older messages left out.)\n\n"),
    };
    format!(
        "{instructions}\nAnswer with the summary only.\n\nSubject: {subject}\n\n{cut}{}",
        kept.join("\n\n---\n\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message<'a>(from: &'a str, text: &'a str) -> CatchUpMessage<'a> {
        CatchUpMessage {
            from,
            date: Some("2026-01-05"),
            text,
        }
    }

    #[test]
    fn blank_instructions_are_the_built_in_ones_and_every_sender_is_named() {
        let prompt = catch_up_prompt(
            "  ",
            "Launch",
            &[message("Ada", "Monday?"), message("Bob", "Monday works.")],
        );
        assert!(prompt.starts_with(DEFAULT_CATCH_UP_INSTRUCTIONS));
        let (ada, bob) = (
            prompt.find("From: Ada").unwrap(),
            prompt.find("From: Bob").unwrap(),
        );
        assert!(ada < bob, "oldest first: {prompt}");
        assert!(prompt.contains("Subject: Launch"));
    }

    #[test]
    fn a_long_thread_loses_its_oldest_messages_first_and_says_so() {
        let long = "x".repeat(MAX_CATCH_UP_CHARS / 2);
        let prompt = catch_up_prompt(
            "Be brief.",
            "Big",
            &[
                message("Oldest", &long),
                message("Middle", &long),
                message("Newest", "the latest word"),
            ],
        );
        assert!(prompt.starts_with("Be brief."));
        assert!(!prompt.contains("From: Oldest"), "the oldest is cut");
        assert!(prompt.contains("From: Middle") && prompt.contains("the latest word"));
        assert!(prompt.contains("(1 older messages left out.)"));
    }

    #[test]
    fn one_huge_message_is_cut_to_the_limit() {
        let huge = "y".repeat(MAX_CATCH_UP_CHARS * 2);
        let prompt = catch_up_prompt("", "Huge", &[message("Big", &huge)]);
        assert!(prompt.chars().count() < MAX_CATCH_UP_CHARS + 1_000);
    }
}

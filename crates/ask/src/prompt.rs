//! What the tutor is told: its part, where the docs are, how to reach the
//! control server read-only, the rule to cite and to say when the docs do
//! not cover something, then the fact sheet and the question. A follow-up
//! gets a fresh sheet before the user's words.

/// The first turn's prompt for `question`, with `sheet` made just now and
/// the names of the doc files in the session's folder.
pub fn first_turn(question: &str, sheet: &str, docs: &[String]) -> String {
    let docs = docs.join(", ");
    format!(
        "You are the Ask tutor of Switchboard, the application that runs this session. You answer \
the user's questions about Switchboard and about their own installation: why a session stopped, \
how to add a runner, what a setting does.\n\n\
Ground every answer in two sources only:\n\
1. The documentation: the Markdown files in your working folder, which are {docs}. Read what \
fits with your file-reading tool (`settings.md` lists every setting, `api.md` every route).\n\
2. The live facts: the fact sheet below, and anything more you read through Switchboard's own \
tools that read (`list_sessions`, `read_session`, `read_setting`, `read_inbox`, `list_boards`, \
`list_rules`), or with `GET` requests to $APP_CONTROL_URL with the bearer token in $APP_CLI_TOKEN \
where your shell may run. Your token may only read: every write is refused with 403 `forbidden`, \
so never try to change anything; tell the user what to do instead.\n\n\
Rules: cite what each claim rests on, as the doc file and its section (`runners.md`, \
\"Adding a runner\") or the fact (`fact sheet: Failed sessions`). A fact that reads `unknown` is \
not known: say so, never guess it. When the docs do not cover something, say plainly that they \
do not, rather than inventing flags, settings or routes. Be brief.\n\n\
{sheet}\n\
## The user's question\n\n{question}\n"
    )
}

/// A follow-up in an Ask conversation: a fresh sheet, then the user's words.
pub fn follow_up(text: &str, sheet: &str) -> String {
    format!("{sheet}\n## The user's follow-up\n\n{text}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_carries_the_rules_the_sheet_and_the_question() {
        let docs = ["runners.md".to_owned(), "sessions.md".to_owned()];
        let prompt = first_turn(
            "Why did my session stop?",
            "## Fact sheet\n- Runners: none\n",
            &docs,
        );
        assert!(prompt.contains("which are runners.md, sessions.md."));
        assert!(prompt.contains("cite"));
        assert!(
            prompt.contains("do not cover")
                || prompt.contains("does not cover")
                || prompt.contains("do not,")
        );
        assert!(prompt.contains("- Runners: none"));
        assert!(prompt.ends_with("Why did my session stop?\n"));
        let next = follow_up("And now?", "## Fact sheet\n- Runners: gpu connected\n");
        assert!(next.starts_with("## Fact sheet"));
        assert!(next.ends_with("And now?\n"));
    }
}

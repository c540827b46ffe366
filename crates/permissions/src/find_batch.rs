//! `agentFindBatchingEnabled` (docs/sessions.md, "Find batching"): an
//! agent's `find … -exec CMD … {} \;` starts one process per file; the same
//! with `+` hands `find` the names in batches. The rewrite happens only
//! where it cannot change what the command does, so the rules refuse far
//! more than they accept:
//!
//! - The whole command is one plain `find`: no pipe, list, redirection,
//!   substitution, expansion, comment or line break anywhere.
//! - Its only action is one `-exec … \;` (or `';'`, `";"`), and that is
//!   the command's end: no `-execdir`, `-ok`, `-okdir`, `-print*`,
//!   `-fprint*`, `-ls`, `-fls`, `-delete`, `-quit` whose order against the
//!   batches would change.
//! - No `!`, `-not`, `-o`, `-or`, `(` or `)`: with `\;` the command's exit
//!   status is a test, with `+` it is always true, so `-exec` may only stand
//!   where nothing reads its result.
//! - `{}` is the last argument before `\;`, alone, and nowhere else.
//! - CMD is one that treats each of its file arguments on its own and says
//!   the same of each whatever comes with it (`echo` joins the names with
//!   spaces instead of line breaks; nothing else changes). Commands whose
//!   output or effect depends on how many files they get (`mv`, `cp`, `ln`,
//!   `tar`, `wc`, `head`, `tail`, `grep` without `-l`/`-L`/`-H`, `sh -c`)
//!   are left alone.

/// Commands whose work on several files is the work on each, in turn.
const BATCHABLE: &[&str] = &[
    "cat",
    "chgrp",
    "chmod",
    "chown",
    "du",
    "echo",
    "file",
    "ls",
    "md5sum",
    "rm",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "stat",
    "touch",
];

/// Actions and operators that make the rewrite unsafe wherever they stand.
const REFUSED: &[&str] = &[
    "-execdir", "-ok", "-okdir", "-print", "-print0", "-printf", "-fprint", "-fprint0", "-fprintf",
    "-ls", "-fls", "-delete", "-quit", "!", "-not", "-o", "-or", "(", ")", ",",
];

/// The batched form of `command`, or `None` when it must run as written.
pub fn batch_find(command: &str) -> Option<String> {
    let tokens = tokenize(command)?;
    let values: Vec<&str> = tokens.iter().map(|t| t.value.as_str()).collect();
    let (last, before) = values.split_last()?;
    if values.first() != Some(&"find") || *last != ";" {
        return None;
    }
    if values.iter().any(|value| REFUSED.contains(value)) {
        return None;
    }
    let exec_at = values.iter().position(|value| *value == "-exec")?;
    if values.iter().filter(|value| **value == "-exec").count() != 1 {
        return None;
    }
    let exec_args = &before[exec_at + 1..];
    let (placeholder, program_and_args) = exec_args.split_last()?;
    let (program, args) = program_and_args.split_first()?;
    if *placeholder != "{}" || args.iter().any(|arg| arg.contains("{}")) {
        return None;
    }
    if values[..exec_at].iter().any(|value| value.contains("{}")) {
        return None;
    }
    if !command_batches(program, args) {
        return None;
    }
    let end = tokens.last()?;
    Some(format!("{}+{}", &command[..end.start], &command[end.end..]))
}

fn command_batches(program: &str, args: &[&str]) -> bool {
    if program == "grep" || program == "egrep" || program == "fgrep" {
        // Given several files grep names each match's file; with `-l`,
        // `-L` or `-H` it names them for one file too.
        return args.iter().any(|arg| {
            arg.starts_with('-')
                && !arg.starts_with("--")
                && arg[1..].chars().any(|c| matches!(c, 'l' | 'L' | 'H'))
                || matches!(
                    *arg,
                    "--files-with-matches" | "--files-without-match" | "--with-filename"
                )
        });
    }
    BATCHABLE.contains(&program)
}

struct Token {
    start: usize,
    end: usize,
    value: String,
}

/// Splits a command into words as a POSIX shell would, or `None` when it
/// holds anything but plain words: an unquoted operator or redirection, an
/// expansion (`$`, a backquote), a comment, a line break.
fn tokenize(command: &str) -> Option<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut chars = command.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c == ' ' || c == '\t' {
            chars.next();
            continue;
        }
        if c == '#' {
            return None;
        }
        let mut value = String::new();
        let mut end = start;
        while let Some(&(_, c)) = chars.peek() {
            match c {
                ' ' | '\t' => break,
                '\'' => {
                    chars.next();
                    loop {
                        let (_, c) = chars.next()?;
                        if c == '\'' {
                            break;
                        }
                        value.push(c);
                    }
                }
                '"' => {
                    chars.next();
                    loop {
                        let (_, c) = chars.next()?;
                        match c {
                            '"' => break,
                            '$' | '`' => return None,
                            '\\' => {
                                let (_, next) = chars.next()?;
                                if !matches!(next, '"' | '\\') {
                                    value.push('\\');
                                }
                                value.push(next);
                            }
                            other => value.push(other),
                        }
                    }
                }
                '\\' => {
                    chars.next();
                    let (_, next) = chars.next()?;
                    if next == '\n' {
                        return None;
                    }
                    value.push(next);
                }
                '|' | '&' | ';' | '<' | '>' | '(' | ')' | '$' | '`' | '\n' | '\r' => return None,
                other => {
                    chars.next();
                    value.push(other);
                }
            }
            end = chars.peek().map_or(command.len(), |&(next, _)| next);
        }
        tokens.push(Token { start, end, value });
    }
    Some(tokens)
}

#[cfg(test)]
mod tests {
    use super::batch_find;

    #[test]
    fn per_file_commands_are_batched() {
        let table = [
            (
                r"find . -name '*.txt' -exec echo {} \;",
                "find . -name '*.txt' -exec echo {} +",
            ),
            (
                r"find src -type f -exec chmod 644 {} ';'",
                "find src -type f -exec chmod 644 {} +",
            ),
            (
                r#"find . -name "*.log" -exec rm -f {} ";""#,
                r#"find . -name "*.log" -exec rm -f {} +"#,
            ),
            (
                r"find /tmp/x -exec sha256sum {} \;",
                "find /tmp/x -exec sha256sum {} +",
            ),
            (
                r"find . -name '*.rs' -exec grep -l TODO {} \;",
                "find . -name '*.rs' -exec grep -l TODO {} +",
            ),
            (
                r"find . -type f -a -newer stamp -exec touch {} \;",
                "find . -type f -a -newer stamp -exec touch {} +",
            ),
            (r"  find . -exec cat {} \;  ", "  find . -exec cat {} +  "),
        ];
        for (asked, batched) in table {
            assert_eq!(batch_find(asked).as_deref(), Some(batched), "{asked}");
        }
    }

    #[test]
    fn commands_the_rewrite_could_change_are_left_alone() {
        let table = [
            // `{}` not last, or more than once.
            r"find . -exec cp {} /backup \;",
            r"find . -exec echo {} {} \;",
            r"find . -exec echo x{} \;",
            r"find . -name {} -exec echo {} \;",
            // Order or count matters to the command.
            r"find . -name '*.bak' -exec mv {} \;",
            r"find . -exec wc -l {} \;",
            r"find . -exec head -n1 {} \;",
            r"find . -exec grep TODO {} \;",
            r"find . -exec sh -c 'echo $0' {} \;",
            // Other actions, or ones that are not -exec.
            r"find . -execdir echo {} \;",
            r"find . -ok rm {} \;",
            r"find . -print -exec echo {} \;",
            r"find . -exec echo {} \; -print",
            r"find . -exec echo {} \; -exec ls {} \;",
            r"find . -delete",
            // The exit status is read.
            r"find . ! -exec test -d {} \;",
            r"find . -exec test -s {} \; -o -print",
            r"find . \( -name a -o -name b \) -exec echo {} \;",
            // Already batched, or not find at all.
            r"find . -exec echo {} +",
            r"xargs -n1 echo {} \;",
            // More than one plain command.
            r"cd src && find . -exec echo {} \;",
            r"find . -exec echo {} \; | sort",
            r"find . -exec echo {} \; > out",
            r"find $HOME -exec echo {} \;",
            r"find . -exec echo {} \; # note",
            "find . -exec echo {} \\;\nrm -rf x",
            r"find . -name 'unclosed -exec echo {} \;",
        ];
        for asked in table {
            assert_eq!(batch_find(asked), None, "{asked}");
        }
    }
}

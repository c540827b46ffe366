//! `switchboard completions` and `switchboard man`: the scripts a shell
//! loads and the page `man` shows, generated from the parser itself.

mod common;

use std::process::Command;

fn run(args: &[&str]) -> String {
    let output = Command::new(common::binary()).args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn bash_completes_subcommands_and_their_flags() {
    // Sourced from a file: the script is larger than one argument may be
    // (128 KiB on Linux).
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("switchboard.bash");
    std::fs::write(&script, run(&["completions", "bash"])).unwrap();
    let script = script.display();
    // As bash calls a completion function: the command, the word being
    // completed and the one before it.
    let complete = |words: &str, index: usize| {
        let program = format!(
            ". '{script}'\nCOMP_WORDS=({words}); COMP_CWORD={index}; \
             _switchboard switchboard \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let output = Command::new("bash")
            .arg("-c")
            .arg(program)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let words = complete("switchboard sp", 1);
    assert_eq!(words.lines().collect::<Vec<_>>(), ["spawn"]);
    let flags = complete("switchboard serve --control", 2);
    assert!(flags.lines().any(|w| w == "--control-port"), "{flags}");
    let flags = complete("switchboard spawn --run", 2);
    assert_eq!(flags.lines().collect::<Vec<_>>(), ["--runner"]);
    let words = complete("switchboard runn", 1);
    assert_eq!(words.lines().collect::<Vec<_>>(), ["runner", "runners"]);
}

#[test]
fn zsh_and_fish_get_scripts_of_their_own() {
    let zsh = run(&["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef switchboard"), "{zsh}");
    assert!(zsh.contains("request-input"));
    let fish = run(&["completions", "fish"]);
    assert!(fish.contains("complete -c switchboard"), "{fish}");
    assert!(fish.contains("completions"));
    let refused = Command::new(common::binary())
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
}

#[test]
fn the_manual_page_lists_every_subcommand() {
    let page = run(&["man"]);
    assert!(page.contains(".TH switchboard 1"), "{page}");
    for command in [
        "serve",
        "spawn",
        "settings",
        "doctor",
        "runners",
        "completions",
        "man",
    ] {
        assert!(page.contains(command), "no {command} in the page");
    }
}

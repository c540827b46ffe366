//! `switchboard completions SHELL` and `switchboard man`: both generated from
//! the same clap definition as the parser, so they always list the commands
//! and flags this build takes.

use std::io::Write;
use std::process::ExitCode;

pub fn completions(
    shell: clap_complete::Shell,
    mut command: clap::Command,
) -> anyhow::Result<ExitCode> {
    // Generated into memory first: clap_complete panics on a failed write
    // (a closed pipe), where `write_all` reports it.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "switchboard", &mut script);
    std::io::stdout().write_all(&script)?;
    Ok(ExitCode::SUCCESS)
}

pub fn man(command: clap::Command) -> anyhow::Result<ExitCode> {
    clap_mangen::Man::new(command).render(&mut std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

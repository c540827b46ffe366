//! A second, independent reader for tests of files Switchboard writes:
//! Python from `target/pyenv` (`make py-deps`) with openpyxl or python-docx.
//! Missing, the tests that need it skip with a printed reason, unless
//! `SWITCHBOARD_OFFICE_REQUIRED=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The interpreter, when it can import `module`.
pub fn python_with(module: &str) -> Option<PathBuf> {
    let program = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/pyenv/bin/python");
    let works = Command::new(&program)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if works {
        return Some(program);
    }
    let what = format!(
        "{} cannot import {module} (run `make py-deps`)",
        program.display()
    );
    assert!(
        std::env::var("SWITCHBOARD_OFFICE_REQUIRED").as_deref() != Ok("1"),
        "SWITCHBOARD_OFFICE_REQUIRED=1 but {what}"
    );
    eprintln!("skipping: {what}");
    None
}

/// Runs a script with `args`, returning its stdout; panics with its stderr.
pub fn run_python(python: &Path, script: &str, args: &[&str]) -> String {
    let out = Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "python failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

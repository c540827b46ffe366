//! Every saved input of every fuzz target, replayed on stable as an
//! ordinary test: the seeds of `fuzz/corpus/<target>` and the crashes
//! cargo-fuzz left in `fuzz/artifacts/<target>`, each through the target's
//! function. A crash once found stays fixed.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of one folder, none when it does not exist.
fn inputs(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn every_target_has_a_seeded_corpus_and_a_fuzz_target() {
    for (name, _) in fuzzing::TARGETS {
        assert!(
            !inputs(&fuzz_dir().join("corpus").join(name)).is_empty(),
            "fuzz/corpus/{name} has no seed"
        );
        assert!(
            fuzz_dir()
                .join("fuzz_targets")
                .join(format!("{name}.rs"))
                .is_file(),
            "fuzz/fuzz_targets/{name}.rs is missing"
        );
    }
}

#[test]
fn every_saved_input_of_every_target_passes() {
    let mut failed = Vec::new();
    let mut replayed = 0;
    for (name, target) in fuzzing::TARGETS {
        for folder in ["corpus", "artifacts"] {
            for path in inputs(&fuzz_dir().join(folder).join(name)) {
                // A fuzzer running meanwhile may replace a file it listed.
                let data = match std::fs::read(&path) {
                    Ok(data) => data,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => panic!("{}: {e}", path.display()),
                };
                replayed += 1;
                if catch_unwind(AssertUnwindSafe(|| target(&data))).is_err() {
                    failed.push(path.display().to_string());
                }
            }
        }
    }
    assert!(replayed > 0, "no input replayed");
    assert!(failed.is_empty(), "inputs that fail: {failed:#?}");
}

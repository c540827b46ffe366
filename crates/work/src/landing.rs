//! Whether a branch's changes are already in the default branch, decided
//! by what they change and not only by ancestry: `git branch --merged`
//! sees a merge or a fast-forward, but not a rebase or a squash, which
//! rewrite the commits. In order, cheapest first:
//!
//! 1. **merge**: the head is an ancestor of the default branch;
//! 2. **rebase**: every commit of the branch has an equivalent patch on the
//!    default branch (`git cherry`, by patch id);
//! 3. **squash**: merging the branch into the default branch would change
//!    nothing (`git merge-tree --write-tree` gives the default branch's own
//!    tree), or the branch's whole diff since its base has the patch id of
//!    one commit on the default branch (a squash that later commits have
//!    since edited over).

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use serde::{Deserialize, Serialize};
use worktrees::git;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "WorkLanding")]
pub enum Landing {
    Merge,
    Rebase,
    Squash,
}

fn succeeds(dir: &Path, args: &[&str]) -> bool {
    git::run(dir, args).is_ok_and(|o| o.status.success())
}

fn stdout(dir: &Path, args: &[&str]) -> Option<String> {
    let output = git::run(dir, args).ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// How `head` landed in `default`, if it did. `base` is where the work
/// started, when still known.
pub fn landed(repository: &Path, head: &str, default: &str, base: Option<&str>) -> Option<Landing> {
    if succeeds(repository, &["merge-base", "--is-ancestor", head, default]) {
        return Some(Landing::Merge);
    }
    let upstream_side = base.map_or_else(String::new, str::to_owned);
    let mut cherry = vec!["cherry", default, head];
    if !upstream_side.is_empty() {
        cherry.push(&upstream_side);
    }
    if let Some(lines) = stdout(repository, &cherry) {
        let marks: Vec<&str> = lines.lines().filter(|l| !l.is_empty()).collect();
        if !marks.is_empty() && marks.iter().all(|l| l.starts_with('-')) {
            return Some(Landing::Rebase);
        }
    }
    let merged = stdout(repository, &["merge-tree", "--write-tree", default, head]);
    let default_tree = stdout(repository, &["rev-parse", &format!("{default}^{{tree}}")]);
    if let (Some(merged), Some(tree)) = (merged, default_tree)
        && merged.lines().next() == Some(tree.trim())
    {
        return Some(Landing::Squash);
    }
    base.and_then(|base| squashed_by_patch(repository, head, default, base))
}

/// The branch's diff since `base` has the patch id of a commit on
/// `default` since `base`.
fn squashed_by_patch(repository: &Path, head: &str, default: &str, base: &str) -> Option<Landing> {
    let diff = stdout(repository, &["diff", "--no-color", base, head])?;
    let wanted = patch_ids(repository, &diff)?.into_iter().next()?;
    let log = stdout(
        repository,
        &[
            "log",
            "-p",
            "--no-color",
            "--format=commit %H",
            &format!("{base}..{default}"),
        ],
    )?;
    patch_ids(repository, &log)?
        .contains(&wanted)
        .then_some(Landing::Squash)
}

/// `git patch-id --stable` of a patch (or of a `git log -p`).
fn patch_ids(repository: &Path, patch: &str) -> Option<Vec<String>> {
    let mut child = git::command(repository, ["patch-id", "--stable"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut input = child.stdin.take()?;
    let patch = patch.to_owned();
    let writer = std::thread::spawn(move || input.write_all(patch.as_bytes()));
    let output = child.wait_with_output().ok()?;
    let _ = writer.join();
    Some(
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
            .collect(),
    )
}

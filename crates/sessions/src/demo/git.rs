//! The demo's git repositories, made with the real `git` the way a user's
//! would be: each repository folder gets a first commit on `main` pushed to
//! a bare `origin` beside it (a remote on no code host), and each demo
//! session that changed code gets a worktree of its own on its own branch,
//! left as that session would have left it (squashed into `main`, pushed,
//! pushed and then deleted on the remote, committed with edits left
//! uncommitted, or not begun), so the Work page has every state to show.
//!
//! A folder that is already a repository (a demo seeded before into the
//! same projects folder) is left alone: its sessions work in plain folders.
//! Any git failure is logged and leaves that session in its plain folder.

use std::path::{Path, PathBuf};

use time::OffsetDateTime;

use crate::model::Worktree;

/// What a demo session left in its worktree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Squashed into `main` and pushed: landed.
    Squashed,
    /// Its branch pushed to `origin`: waiting on review.
    Pushed,
    /// Pushed, then its remote branch deleted unmerged: turned down.
    Deleted,
    /// A commit on no remote and an edit left uncommitted: stranded.
    Uncommitted,
    /// Nothing yet: its turn runs in it as the server starts.
    Begun,
}

/// The change a demo session made to its repository.
pub(super) struct Change {
    pub(super) outcome: Outcome,
    /// What it committed (nothing yet, for [`Outcome::Begun`]).
    pub(super) commit: Option<Commit>,
    /// A file and its text, written after the commit and never committed
    /// ([`Outcome::Uncommitted`]).
    pub(super) left: Option<(&'static str, &'static str)>,
}

/// One file and its new text, committed with `subject`.
pub(super) struct Commit {
    pub(super) file: &'static str,
    pub(super) text: &'static str,
    pub(super) subject: &'static str,
}

/// A session's worktree, made: its record and where its engine runs.
pub(super) struct Made {
    pub(super) record: Worktree,
    pub(super) cwd: String,
}

/// The files of a demo repository's first commit.
pub(super) fn files(repository: &str) -> &'static [(&'static str, &'static str)] {
    match repository {
        "acme/web" => &[
            ("README.md", "# acme/web\n\nThe customer-facing web app.\n"),
            (
                "package.json",
                "{\n  \"name\": \"@acme/web\",\n  \"private\": true,\n  \"scripts\": { \"test\": \"vitest\" }\n}\n",
            ),
            (
                "src/settings/DateField.tsx",
                "import { DatePicker } from \"./DatePicker\";\n\nexport const DateField = DatePicker;\n",
            ),
        ],
        _ => &[
            (
                "README.md",
                "# acme/platform\n\nThe services behind acme/web.\n",
            ),
            ("go.mod", "module acme/platform\n\ngo 1.23\n"),
            (
                "internal/ratelimit/bucket.go",
                "package ratelimit\n\nfunc (b *Bucket) Allow(now time.Time) bool {\n\tb.refill(now)\n\tif b.tokens < 1 {\n\t\treturn false\n\t}\n\tb.tokens--\n\treturn true\n}\n",
            ),
            (
                "tests/integration/search_test.go",
                "package integration\n\nfunc TestSearch(t *testing.T) {\n\ttime.Sleep(2 * time.Second)\n}\n",
            ),
            (
                "cmd/indexer/mapping.go",
                "package main\n\nvar text = mapping.NewTextFieldMapping()\n",
            ),
        ],
    }
}

/// Who the demo's commits are by, and a configuration that ignores the
/// user's own (signing, hooks) so a commit never waits on a key.
const CONFIG: [&str; 8] = [
    "-c",
    "user.name=Switchboard demo",
    "-c",
    "user.email=demo@switchboard.invalid",
    "-c",
    "commit.gpgsign=false",
    "-c",
    "core.hooksPath=/dev/null",
];

/// `git -C dir args…` with the demo's configuration, dated `at`.
fn git(dir: &Path, args: &[&str], at: OffsetDateTime) -> Result<String, String> {
    let date = format!("{} +0000", at.unix_timestamp());
    let output = worktrees::git::command(dir, CONFIG.iter().chain(args))
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    } else {
        Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

fn write(root: &Path, file: &str, text: &str) -> Result<(), String> {
    let path = root.join(file);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The bare repository `folder` pushes to (`acme/web` → `.origins/acme/web.git`).
fn origin_of(projects: &Path, repository: &str) -> PathBuf {
    projects.join(".origins").join(format!("{repository}.git"))
}

/// Makes `projects/<repository>` a repository whose `main` is on `origin`,
/// unless it is in one already. Says whether it made it.
pub(super) fn make_repository(
    projects: &Path,
    repository: &str,
    at: OffsetDateTime,
) -> Result<bool, String> {
    let folder = projects.join(repository);
    let own_root = |root: &Path| std::fs::canonicalize(&folder).is_ok_and(|f| f == root);
    if worktrees::find_repository(&folder).is_ok_and(|c| own_root(&c.root)) {
        return Ok(false);
    }
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let origin = origin_of(projects, repository);
    std::fs::create_dir_all(&origin).map_err(|e| format!("{}: {e}", origin.display()))?;
    git(&origin, &["init", "--quiet", "--bare", "-b", "main"], at)?;
    git(&folder, &["init", "--quiet", "-b", "main"], at)?;
    for (file, text) in files(repository) {
        write(&folder, file, text)?;
    }
    git(&folder, &["add", "--all"], at)?;
    git(&folder, &["commit", "--quiet", "-m", "First commit"], at)?;
    let origin = origin.to_string_lossy();
    git(&folder, &["remote", "add", "origin", &origin], at)?;
    git(&folder, &["push", "--quiet", "-u", "origin", "main"], at)?;
    Ok(true)
}

/// Gives session `id` a worktree of `repository` under `data_dir` and
/// leaves it as `change` says, its commit dated `at`.
pub(super) fn make_worktree(
    data_dir: &Path,
    repository: &Path,
    id: &str,
    change: &Change,
    at: OffsetDateTime,
) -> Result<Made, String> {
    let checkout = worktrees::find_repository(repository).map_err(|e| e.to_string())?;
    let path = data_dir.join("worktrees").join(id);
    let branch = worktrees::branch_for(id);
    let made = worktrees::add(&checkout, &path, &branch).map_err(|e| e.to_string())?;
    let mut removed = false;
    if let Some(commit) = &change.commit {
        write(&made.path, commit.file, commit.text)?;
        git(&made.path, &["add", "--all"], at)?;
        git(&made.path, &["commit", "--quiet", "-m", commit.subject], at)?;
    }
    match (change.outcome, &change.commit) {
        (Outcome::Squashed, Some(commit)) => {
            git(repository, &["merge", "--quiet", "--squash", &branch], at)?;
            git(repository, &["commit", "--quiet", "-m", commit.subject], at)?;
            git(repository, &["push", "--quiet", "origin", "main"], at)?;
        }
        (Outcome::Pushed, _) => {
            git(
                &made.path,
                &["push", "--quiet", "-u", "origin", &branch],
                at,
            )?;
        }
        (Outcome::Deleted, _) => {
            git(
                &made.path,
                &["push", "--quiet", "-u", "origin", &branch],
                at,
            )?;
            git(
                repository,
                &["push", "--quiet", "origin", "--delete", &branch],
                at,
            )?;
        }
        (Outcome::Uncommitted, _) => {
            if let Some((file, text)) = change.left {
                write(&made.path, file, text)?;
            }
        }
        (Outcome::Squashed | Outcome::Begun, _) => {}
    }
    // The finished ones were archived, which takes a clean worktree away.
    if matches!(
        change.outcome,
        Outcome::Squashed | Outcome::Pushed | Outcome::Deleted
    ) {
        removed = worktrees::remove_if_clean(repository, &made.path).map_err(|e| e.to_string())?
            == worktrees::Removal::Removed;
    }
    Ok(Made {
        record: Worktree {
            path: made.path.to_string_lossy().into_owned(),
            branch,
            base: made.base,
            repository: made.repository.to_string_lossy().into_owned(),
            removed,
            kept_reason: None,
        },
        cwd: made.cwd.to_string_lossy().into_owned(),
    })
}

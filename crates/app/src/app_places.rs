//! Where a session's apps are found by name: `<app>.<branch>.localhost`
//! for a linked worktree on a branch, `<app>.localhost` for a repository's
//! main checkout (a worktree Switchboard made, on `switchboard/<id>`, is
//! `<app>.<id>`), the app being the repository's folder name. Two sessions
//! whose names would clash (two in one checkout) are told apart by the
//! later one's short id.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// One session's name under `.localhost`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The session's own name (`web.fix-login`).
    pub host: String,
    /// What follows the app's name (`fix-login`): a declared app `api` of
    /// the session is `api.fix-login`.
    pub suffix: Option<String>,
    /// The repository's (or folder's) name as a label (`web`).
    pub app: String,
    /// `local` or a runner: set from the turn that asked.
    pub runner: String,
    /// The branch of the worktree, when it is one.
    pub branch: Option<String>,
}

impl Place {
    /// Another port of the session: `web-8080.fix-login`.
    pub fn with_port(&self, port: u16) -> String {
        let app = format!("{}-{port}", self.app);
        match &self.suffix {
            Some(suffix) => format!("{app}.{suffix}"),
            None => app,
        }
    }
}

/// Session `id`'s place, from its folder, unique among `taken`.
pub fn place_of(session_id: &str, folder: &Path, taken: &HashSet<String>) -> Place {
    let short = apps::names::label(&session_id.chars().take(8).collect::<String>())
        .unwrap_or_else(|| "session".to_owned());
    let (repository, branch) = repository_of(folder);
    let app = repository
        .as_deref()
        .or(Some(folder))
        .and_then(|p| p.file_name())
        .and_then(|n| apps::names::label(&n.to_string_lossy()))
        .unwrap_or_else(|| "app".to_owned());
    // Switchboard's own worktree branches are `switchboard/<id>`: the
    // prefix would only lengthen every name.
    let mut suffix = branch
        .as_deref()
        .map(|b| b.strip_prefix("switchboard/").unwrap_or(b))
        .and_then(apps::names::label);
    let mut host = join(&app, suffix.as_deref());
    if taken.contains(&host) {
        suffix = Some(match suffix {
            Some(branch) => format!("{branch}-{short}"),
            None => short,
        });
        host = join(&app, suffix.as_deref());
    }
    Place {
        host,
        suffix,
        app,
        runner: runners::LOCAL.to_owned(),
        branch,
    }
}

fn join(app: &str, suffix: Option<&str>) -> String {
    match suffix {
        Some(suffix) => format!("{app}.{suffix}"),
        None => app.to_owned(),
    }
}

/// The repository a folder is in (its main checkout's folder, for a
/// linked worktree) and the branch when the folder is a linked worktree.
fn repository_of(folder: &Path) -> (Option<PathBuf>, Option<String>) {
    let Some(root) = apps::config::git_root(folder) else {
        return (None, None);
    };
    let dot_git = root.join(".git");
    if dot_git.is_dir() {
        return (Some(root.to_owned()), None);
    }
    // A linked worktree: `.git` is a file naming `<repo>/.git/worktrees/<name>`.
    let Ok(pointer) = std::fs::read_to_string(&dot_git) else {
        return (Some(root.to_owned()), None);
    };
    let Some(git_dir) = pointer.trim().strip_prefix("gitdir:").map(str::trim) else {
        return (Some(root.to_owned()), None);
    };
    let git_dir = root.join(git_dir);
    let repository = git_dir
        .ancestors()
        .find(|dir| dir.file_name().is_some_and(|n| n == ".git"))
        .and_then(Path::parent)
        .map(Path::to_owned);
    let branch = std::fs::read_to_string(git_dir.join("HEAD"))
        .ok()
        .and_then(|head| {
            head.trim()
                .strip_prefix("ref: refs/heads/")
                .map(str::to_owned)
        });
    (repository.or_else(|| Some(root.to_owned())), branch)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.com")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.com")
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }

    #[test]
    fn a_worktree_is_named_for_its_repository_and_branch_and_a_clash_for_the_session() {
        let temp = tempfile::tempdir().unwrap();
        let repo = temp.path().join("Web");
        std::fs::create_dir(&repo).unwrap();
        git(&repo, &["init", "-q", "-b", "main"]);
        git(&repo, &["commit", "-q", "--allow-empty", "-m", "first"]);
        let tree = temp.path().join("elsewhere");
        git(
            &repo,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                "feature/Fix_login",
                tree.to_str().unwrap(),
            ],
        );

        let main = place_of("aaaaaaaa-1", &repo, &HashSet::new());
        assert_eq!(main.host, "web");
        assert_eq!(main.suffix, None);

        let linked = place_of("bbbbbbbb-2", &tree.join("src"), &HashSet::new());
        assert_eq!(linked.host, "web.feature-fix-login");
        assert_eq!(linked.branch.as_deref(), Some("feature/Fix_login"));
        assert_eq!(linked.with_port(8080), "web-8080.feature-fix-login");

        let taken: HashSet<String> = [main.host.clone()].into();
        let second = place_of("cccccccc-3", &repo, &taken);
        assert_eq!(second.host, "web.cccccccc");
    }

    #[test]
    fn a_folder_outside_git_is_named_for_itself() {
        let temp = tempfile::tempdir().unwrap();
        let folder = temp.path().join("my app");
        std::fs::create_dir(&folder).unwrap();
        assert_eq!(place_of("s", &folder, &HashSet::new()).host, "my-app");
    }
}

//! What the Where's my work page costs the server at 500 pieces of work
//! across 20 repositories (docs/work.md): the first read, which runs git
//! for every piece, then the reads after it, which only stat the refs and
//! indexes of each piece while nothing changed, and one piece's refs moved.
//! Prints the figures; `cargo bench -p work --bench index`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const REPOSITORIES: usize = 20;
const PER_REPOSITORY: usize = 25;
const WARM_READS: usize = 50;

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=Bench",
            "-c",
            "user.email=bench@example.com",
        ])
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .map(|o| o.status.success());
    assert_eq!(status.ok(), Some(true), "git {args:?} in {}", dir.display());
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn main() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let started = Instant::now();
    let mut sources = Vec::new();
    for r in 0..REPOSITORIES {
        let root = dir.path().join(format!("repo-{r}"));
        std::fs::create_dir_all(&root).expect("a repository folder");
        git(&root, &["init", "-q", "-b", "main"]);
        std::fs::write(root.join("README.md"), "start\n").expect("a file");
        git(&root, &["add", "."]);
        git(&root, &["commit", "-q", "-m", "start"]);
        let base = String::from_utf8(
            Command::new("git")
                .arg("-C")
                .arg(&root)
                .args(["rev-parse", "HEAD"])
                .output()
                .expect("git")
                .stdout,
        )
        .expect("a sha")
        .trim()
        .to_owned();
        for n in 0..PER_REPOSITORY {
            let branch = format!("switchboard/r{r}n{n}");
            let path = dir.path().join(format!("worktrees/r{r}n{n}"));
            let path_text = path.to_str().expect("a UTF-8 path");
            git(
                &root,
                &["worktree", "add", "-q", "-b", &branch, path_text, "HEAD"],
            );
            std::fs::write(path.join(format!("work-{n}.txt")), "done\n").expect("a file");
            git(&path, &["add", "."]);
            git(&path, &["commit", "-q", "-m", "agent work"]);
            // A third left with uncommitted changes, as stranded work is.
            if n % 3 == 0 {
                std::fs::write(path.join("wip.txt"), "half\n").expect("a file");
            }
            sources.push(work::Source {
                session_id: format!("s-{r}-{n}"),
                account_id: "bench".into(),
                title: Some(format!("Work {r}/{n}")),
                active: n % 5 == 0,
                updated_at: "2026-11-25T10:00:00Z".into(),
                repository: root.clone(),
                branch,
                base: base.clone(),
                checkout: Some(path),
                own_worktree: true,
            });
        }
    }
    println!(
        "made {} worktrees in {REPOSITORIES} repositories in {:.1} s",
        sources.len(),
        started.elapsed().as_secs_f64()
    );

    let index = work::Index::default();
    let cold = Instant::now();
    let entries = index.entries(sources.clone(), 0, &Default::default(), &[]);
    let cold = cold.elapsed();
    assert_eq!(entries.len(), REPOSITORIES * PER_REPOSITORY);
    let mut states = std::collections::BTreeMap::new();
    for entry in &entries {
        *states.entry(format!("{:?}", entry.state)).or_insert(0) += 1;
    }
    println!(
        "first read (git for every piece): {:.0} ms; states {states:?}",
        cold.as_secs_f64() * 1000.0
    );

    let cpu_before = cpu_seconds();
    let mut warm = Vec::new();
    for _ in 0..WARM_READS {
        let at = Instant::now();
        let again = index.entries(sources.clone(), 1, &Default::default(), &[]);
        warm.push(at.elapsed());
        assert_eq!(again.len(), entries.len());
    }
    let cpu = cpu_seconds() - cpu_before;
    warm.sort();
    println!(
        "later reads, nothing changed: p50 {:.1} ms, p95 {:.1} ms, {:.1} ms CPU each",
        percentile(&warm, 0.5).as_secs_f64() * 1000.0,
        percentile(&warm, 0.95).as_secs_f64() * 1000.0,
        cpu * 1000.0 / WARM_READS as f64
    );

    let moved = sources[0].checkout.clone().expect("a checkout");
    git(&moved, &["add", "."]);
    git(&moved, &["commit", "-q", "-m", "more"]);
    let at = Instant::now();
    index.entries(sources.clone(), 2, &Default::default(), &[]);
    println!(
        "a read after one piece moved: {:.1} ms",
        at.elapsed().as_secs_f64() * 1000.0
    );
    println!("between reads nothing runs: the facts are looked at only when asked for");
}

/// This process's user and system CPU time, in seconds.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = [11, 12]
        .iter()
        .filter_map(|i| fields.get(*i)?.parse::<f64>().ok())
        .sum();
    ticks / 100.0
}

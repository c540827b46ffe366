//! Crashes as they happen: a panic hook, installed once per process, keeps
//! each panic's message and place in memory and wakes whoever waits
//! ([`wait_for_crash`]); the app records them ([`take_crashes`]). The hook
//! touches no database and takes no lock it could wait on: a panic may come
//! from inside either.

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use tokio::sync::Notify;

/// The most crashes kept between two takes: a panic in a loop must not
/// grow memory without bound.
const MOST_KEPT: usize = 100;

/// The most of a panic's message kept.
const MOST_MESSAGE_CHARS: usize = 300;

/// One panic: what it said (its first line, cut) and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crash {
    pub message: String,
    /// `file:line` in Switchboard's source or a library's.
    pub location: String,
}

static KEPT: Mutex<Vec<Crash>> = Mutex::new(Vec::new());
static ARRIVED: Notify = Notify::const_new();
static INSTALLED: OnceLock<()> = OnceLock::new();

/// Installs the hook (once; later calls do nothing), before the one that
/// was there, which still prints the panic. `home` is cut to `~` in what is
/// kept, so a path names no user.
pub fn install_panic_hook(home: Option<PathBuf>) {
    INSTALLED.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let said = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_owned());
            let location = info
                .location()
                .map_or_else(String::new, |l| format!("{}:{}", l.file(), l.line()));
            let crash = Crash {
                message: scrub(&said, home.as_deref()),
                location: scrub(&location, home.as_deref()),
            };
            // A panic while the list is held (by a take on another thread)
            // is dropped rather than waited for.
            if let Ok(mut kept) = KEPT.try_lock()
                && kept.len() < MOST_KEPT
            {
                kept.push(crash);
            }
            ARRIVED.notify_one();
            previous(info);
        }));
    });
}

/// The crashes since the last take, oldest first.
pub fn take_crashes() -> Vec<Crash> {
    KEPT.lock()
        .map(|mut kept| std::mem::take(&mut *kept))
        .unwrap_or_default()
}

/// Resolves when a crash was kept since the last call.
pub async fn wait_for_crash() {
    ARRIVED.notified().await;
}

/// The first line, cut, with the home folder as `~`.
fn scrub(text: &str, home: Option<&std::path::Path>) -> String {
    let line = text.lines().next().unwrap_or("");
    let line = match home.and_then(|h| h.to_str()).filter(|h| h.len() > 1) {
        Some(home) => line.replace(home, "~"),
        None => line.to_owned(),
    };
    line.chars().take(MOST_MESSAGE_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_keeps_its_first_line_without_the_home_folder() {
        let home = std::path::Path::new("/home/ana");
        assert_eq!(
            scrub(
                "cannot open /home/ana/src/app/x.rs\nsecond line",
                Some(home)
            ),
            "cannot open ~/src/app/x.rs"
        );
        assert_eq!(scrub(&"y".repeat(500), None).len(), MOST_MESSAGE_CHARS);
    }
}

//! Instruction-file sync (`agentInstructionsSync*`), run by the server: in
//! each folder a session runs in, just before each of its turns (the
//! sessions crate's `BeforeTurn`), and every [`POLL`] on the clock for the
//! folders where sessions are active, so an edit of the canonical file
//! reaches the mirrors while they run. A mirror a person edited is left
//! alone, and the user is told once per file in an inbox note.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use inbox::{Category, NewRow};
use instructions::{GitMode, Ledger, SqliteLedger, SyncRequest};
use settings::{AgentInstructionsSyncGitMode, SettingsStore};
use tokio::sync::mpsc;

use crate::error::blocking;
use crate::publish;
use crate::services::App;

/// How often the folders of active sessions are looked at again.
const POLL: time::Duration = time::Duration::seconds(5);
/// Every this many polls (an hour), what is remembered of folders that no
/// longer exist is forgotten.
const FORGET_EVERY: u32 = 720;

/// A mirror left alone because a person edited it.
#[derive(Debug)]
pub struct HandEdited {
    account_id: String,
    path: PathBuf,
}

pub struct InstructionSync {
    settings: Arc<SettingsStore>,
    ledger: Mutex<SqliteLedger>,
    /// Hand-edited mirrors already told about, per account: told again only
    /// after the file stops being one.
    told: Mutex<HashSet<(String, PathBuf)>>,
    /// Per folder, what its last sync saw: the root it synced, the canonical
    /// file's fingerprint there, and the settings it synced with. The poll
    /// syncs a folder again only when one of them changed.
    seen: Mutex<HashMap<PathBuf, Seen>>,
    notes: mpsc::UnboundedSender<HandEdited>,
}

#[derive(Debug, Clone, PartialEq)]
struct Seen {
    root: PathBuf,
    canonical: Option<(u64, SystemTime)>,
    settings: SyncSettings,
}

/// The `agentInstructionsSync*` settings one sync runs with.
#[derive(Debug, Clone, PartialEq)]
struct SyncSettings {
    canonical: &'static str,
    mirrors: Vec<String>,
    git_mode: GitMode,
}

impl InstructionSync {
    pub fn new(
        settings: Arc<SettingsStore>,
        ledger: SqliteLedger,
    ) -> (Arc<Self>, mpsc::UnboundedReceiver<HandEdited>) {
        let (notes, received) = mpsc::unbounded_channel();
        let sync = Arc::new(Self {
            settings,
            ledger: Mutex::new(ledger),
            told: Mutex::new(HashSet::new()),
            seen: Mutex::new(HashMap::new()),
            notes,
        });
        (sync, received)
    }

    /// Syncs the folder with `settings` when the setting is on; failures are
    /// logged, never the session's problem.
    fn sync_folder(&self, account_id: &str, folder: &Path, settings: SyncSettings) {
        if !self.settings.agent_instructions_sync_enabled() {
            return;
        }
        let request = SyncRequest {
            folder: folder.to_owned(),
            canonical: settings.canonical,
            mirrors: &settings.mirrors,
            git_mode: settings.git_mode,
        };
        let report = {
            let mut ledger = self.ledger.lock().unwrap_or_else(|p| p.into_inner());
            instructions::sync(&request, &mut *ledger)
        };
        let report = match report {
            Ok(report) => report,
            Err(error) => {
                tracing::warn!(%error, folder = %folder.display(), "instruction sync failed");
                return;
            }
        };
        let seen = Seen {
            canonical: instructions::fingerprint(&report.root, settings.canonical),
            root: report.root.clone(),
            settings,
        };
        self.seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(folder.to_owned(), seen);
        let mut told = self.told.lock().unwrap_or_else(|p| p.into_inner());
        for path in report.written.into_iter().chain(report.unchanged) {
            told.remove(&(account_id.to_owned(), path));
        }
        for path in report.hand_edited {
            if told.insert((account_id.to_owned(), path.clone())) {
                // Nobody draining the channel means the server is stopping.
                let _ = self.notes.send(HandEdited {
                    account_id: account_id.to_owned(),
                    path,
                });
            }
        }
    }

    /// The sync settings as they are now.
    fn settings_now(&self) -> SyncSettings {
        SyncSettings {
            canonical: self.settings.agent_instructions_sync_canonical().as_str(),
            mirrors: self.settings.agent_instructions_sync_mirrors(),
            git_mode: match self.settings.agent_instructions_sync_git_mode() {
                AgentInstructionsSyncGitMode::Local => GitMode::Local,
                AgentInstructionsSyncGitMode::Committed => GitMode::Committed,
            },
        }
    }

    /// Forgets the folders that no longer exist: their mirrors in the ledger,
    /// what their last sync saw and the hand edits told about in them.
    fn forget_missing(&self) {
        let gone = |path: &Path| !path.try_exists().unwrap_or(true);
        let forgotten = self
            .ledger
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .forget_missing();
        if let Err(error) = forgotten {
            tracing::warn!(%error, "cannot prune the instruction-sync ledger");
        }
        self.seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|folder, _| !gone(folder));
        self.told
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|(_, path)| !path.parent().is_some_and(gone));
    }

    /// The poll's sync: only when the canonical file or the settings changed
    /// since the folder's last sync.
    fn sync_if_changed(&self, account_id: &str, folder: &Path) {
        let settings = self.settings_now();
        // Copied out, so the file is not looked at under the lock.
        let last = self
            .seen
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(folder)
            .cloned();
        let unchanged = last.is_some_and(|seen| {
            seen.settings == settings
                && instructions::fingerprint(&seen.root, settings.canonical) == seen.canonical
        });
        if !unchanged {
            self.sync_folder(account_id, folder, settings);
        }
    }
}

impl sessions::BeforeTurn for InstructionSync {
    fn before_turn(&self, account_id: &str, _session_id: &str, cwd: &Path) {
        self.sync_folder(account_id, cwd, self.settings_now());
    }
}

/// Starts the poll and the task that turns hand edits into inbox notes;
/// both end when the server is asked to stop.
pub fn start(
    state: &App,
    sync: Arc<InstructionSync>,
    mut hand_edited: mpsc::UnboundedReceiver<HandEdited>,
) {
    let poll_state = state.clone();
    let mut stop = state.stop.subscribe();
    tokio::spawn(async move {
        let mut polls = 0u32;
        loop {
            tokio::select! {
                () = async { drop(stop.wait_for(Option::is_some).await) } => return,
                () = poll_state.clock.sleep(POLL) => {}
            }
            polls = (polls + 1) % FORGET_EVERY;
            if polls == 0 {
                let sync = sync.clone();
                if let Err(error) = tokio::task::spawn_blocking(move || sync.forget_missing()).await
                {
                    tracing::warn!(%error, "the instruction-sync prune failed");
                }
            }
            if !poll_state.settings.agent_instructions_sync_enabled() {
                continue;
            }
            let folders = match poll_state.sessions.active_folders().await {
                Ok(folders) => folders,
                Err(error) => {
                    tracing::warn!(%error, "cannot list the folders to sync");
                    continue;
                }
            };
            let sync = sync.clone();
            let synced = tokio::task::spawn_blocking(move || {
                for (account, folder) in folders {
                    sync.sync_if_changed(&account, Path::new(&folder));
                }
            })
            .await;
            if let Err(error) = synced {
                tracing::warn!(%error, "the instruction sync task failed");
            }
        }
    });
    let state = state.clone();
    tokio::spawn(async move {
        while let Some(edit) = hand_edited.recv().await {
            note(&state, edit).await;
        }
    });
}

async fn note(state: &App, edit: HandEdited) {
    let name = edit
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut row = NewRow::new(
        Category::Note,
        inbox::clip(
            &format!("{name} was edited by hand, so instruction sync left it alone"),
            inbox::MAX_TITLE_CHARS,
        ),
    );
    row.body = Some(format!(
        "{} differs from what Switchboard last wrote there. Sync will not overwrite it; delete it, or copy the canonical file over it, to have it synced again.",
        edit.path.display()
    ));
    let row = row.dedup(&edit.path.display().to_string());
    let inbox = state.inbox.clone();
    let account = edit.account_id.clone();
    match blocking(move || inbox.add(&account, row)).await {
        Ok(added) => {
            publish::inbox_added(state, &edit.account_id, added);
        }
        Err(error) => tracing::warn!(%error, "cannot add an instruction sync note"),
    }
}

//! The drives as the API reaches them (docs/files.md): each of the three
//! slots acts only while its switch is on (`driveEnabled`,
//! `filesyncAEnabled`, `filesyncBEnabled`), and drives.toml is the
//! installation's, so only the owner account sees or uses its accounts;
//! another account finds none, as if there were none. A download's bytes
//! are read here, on the blocking pool, for the route to stream.

use std::io::{self, Read};
use std::sync::Arc;

use tokio::sync::mpsc;

use drives::{Account, Drive, DriveError, NewDrive, Slot};

use crate::App;

/// Chunks between a download's thread and the HTTP body: enough to keep
/// both busy, few enough that memory stays flat.
const CHUNKS_IN_FLIGHT: usize = 8;
const CHUNK_BYTES: usize = 256 * 1024;

/// A download's bytes as they are read from the drive, on the blocking
/// pool, a few chunks ahead of the client at most; a read error ends the
/// chunks with it, and a client gone (the receiver dropped) ends the read.
pub fn download_chunks(mut reader: Box<dyn Read + Send>) -> mpsc::Receiver<io::Result<Vec<u8>>> {
    let (tx, rx) = mpsc::channel(CHUNKS_IN_FLIGHT);
    tokio::task::spawn_blocking(move || {
        loop {
            let mut chunk = vec![0u8; CHUNK_BYTES];
            let read = match reader.read(&mut chunk) {
                Ok(0) => return,
                Ok(n) => n,
                Err(e) => {
                    let _ = tx.blocking_send(Err(e));
                    return;
                }
            };
            chunk.truncate(read);
            if tx.blocking_send(Ok(chunk)).is_err() {
                return;
            }
        }
    });
    rx
}

impl App {
    /// Whether the settings turn `slot` on.
    pub fn drive_slot_on(&self, slot: Slot) -> bool {
        match slot {
            Slot::Main => self.settings.drive_enabled(),
            Slot::FilesyncA => self.settings.filesync_a_enabled(),
            Slot::FilesyncB => self.settings.filesync_b_enabled(),
        }
    }

    fn drive_slot_checked(&self, slot: Slot) -> Result<(), DriveError> {
        if self.drive_slot_on(slot) {
            return Ok(());
        }
        let sentence = match slot {
            Slot::Main => "The drive is turned off (setting driveEnabled).",
            Slot::FilesyncA => "File-sync service A is turned off (setting filesyncAEnabled).",
            Slot::FilesyncB => "File-sync service B is turned off (setting filesyncBEnabled).",
        };
        Err(DriveError::Disabled(sentence.to_owned()))
    }

    /// The accounts of the slots that are on; none for another account
    /// than the owner. Every slot off → `Off`.
    pub fn drive_accounts(&self, is_owner: bool) -> Result<Vec<Account>, DriveError> {
        if !Slot::ALL.into_iter().any(|s| self.drive_slot_on(s)) {
            return Err(DriveError::Disabled(
                "Drives are turned off (settings driveEnabled, filesyncAEnabled and \
                 filesyncBEnabled)."
                    .to_owned(),
            ));
        }
        if !is_owner {
            return Ok(Vec::new());
        }
        let mut accounts = self.drives.accounts()?;
        accounts.retain(|a| self.drive_slot_on(a.slot));
        Ok(accounts)
    }

    /// Adds an account in `new.slot`, or in the first free slot that is
    /// on. Only the owner adds drives: another account is refused as if
    /// the route did not exist for it.
    pub fn add_drive(
        &self,
        account_id: &str,
        is_owner: bool,
        mut new: NewDrive,
    ) -> Result<Account, DriveError> {
        if !is_owner {
            return Err(DriveError::NoSuchDrive);
        }
        match new.slot {
            Some(slot) => self.drive_slot_checked(slot)?,
            None => {
                let taken: Vec<Slot> = self.drives.accounts()?.iter().map(|a| a.slot).collect();
                let free = Slot::ALL
                    .into_iter()
                    .filter(|s| self.drive_slot_on(*s))
                    .find(|s| !taken.contains(s));
                match free {
                    Some(slot) => new.slot = Some(slot),
                    None if !Slot::ALL.into_iter().any(|s| self.drive_slot_on(s)) => {
                        self.drive_slot_checked(Slot::Main)?;
                    }
                    None => {
                        return Err(DriveError::SlotTaken(
                            "every drive that is turned on already has an account".to_owned(),
                        ));
                    }
                }
            }
        }
        self.drives.add(account_id, new)
    }

    /// The client of drive `id`, when its slot is on and the caller is the
    /// owner.
    pub fn drive(
        &self,
        account_id: &str,
        is_owner: bool,
        id: &str,
    ) -> Result<Arc<Drive>, DriveError> {
        let slot = Slot::parse(id).ok_or(DriveError::NoSuchDrive)?;
        if !is_owner {
            return Err(DriveError::NoSuchDrive);
        }
        self.drive_slot_checked(slot)?;
        self.drives.drive(account_id, id)
    }
}

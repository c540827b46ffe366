//! The drive accounts: `DIR/drives.toml` names them (one per slot: the
//! main drive and file-sync A and B), their passwords are the owner's
//! saved keys (sealed by crates/secrets), and a client per account is kept
//! while its URL, user name and password stay the same.
//!
//! ```toml
//! [drives.main]                 # or filesync-a, filesync-b
//! kind = "webdav"
//! url = "https://cloud.example.com/remote.php/dav/files/ada/"
//! username = "ada"
//! name = "Nextcloud"            # optional; the URL's host otherwise
//! password_key = "NEXTCLOUD"    # optional; DRIVE_MAIN_PASSWORD otherwise
//! ```
//!
//! Adding an account appends its section to the file (comments and the
//! rest stay as written) and saves the password; editing or removing one
//! is done in the file.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::Deserialize;

use crate::drive::Drive;
use crate::error::{DriveError, Result};
use crate::{Account, NewDrive, Slot, Status};

pub fn drives_path(data_dir: &Path) -> PathBuf {
    data_dir.join("drives.toml")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Declared {
    kind: String,
    url: String,
    username: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    password_key: Option<String>,
}

/// One section of the file, read.
struct Section {
    slot: Slot,
    declared: Result<Declared, String>,
}

type ClientKey = (String, String, String);

pub struct Drives {
    file: PathBuf,
    secrets: Arc<secrets::Secrets>,
    /// The outcome of each slot's last request, for the list.
    status: Mutex<HashMap<Slot, (Status, Option<String>)>>,
    clients: Mutex<HashMap<Slot, (ClientKey, Arc<Drive>)>>,
    writing: Mutex<()>,
}

impl Drives {
    pub fn new(data_dir: &Path, secrets: Arc<secrets::Secrets>) -> Drives {
        Drives {
            file: drives_path(data_dir),
            secrets,
            status: Mutex::default(),
            clients: Mutex::default(),
            writing: Mutex::default(),
        }
    }

    /// Every account of the file, in slot order; a section that cannot be
    /// used is listed as failing with the reason.
    pub fn accounts(&self) -> Result<Vec<Account>> {
        let status = lock(&self.status).clone();
        Ok(self
            .sections()?
            .into_iter()
            .map(|section| {
                let (state, failure) = status
                    .get(&section.slot)
                    .cloned()
                    .unwrap_or((Status::Pending, None));
                match section.declared {
                    Ok(d) => Account {
                        id: section.slot.id().to_owned(),
                        slot: section.slot,
                        kind: d.kind,
                        name: d.name.unwrap_or_else(|| host(&d.url)),
                        url: d.url,
                        username: d.username,
                        status: state,
                        failure,
                    },
                    Err(reason) => Account {
                        id: section.slot.id().to_owned(),
                        slot: section.slot,
                        kind: "webdav".to_owned(),
                        name: section.slot.id().to_owned(),
                        url: String::new(),
                        username: String::new(),
                        status: Status::Failing,
                        failure: Some(reason),
                    },
                }
            })
            .collect())
    }

    pub fn account(&self, id: &str) -> Result<Account> {
        self.accounts()?
            .into_iter()
            .find(|a| a.id == id)
            .ok_or(DriveError::NoSuchDrive)
    }

    /// Adds an account in `new.slot` (the first free one when absent),
    /// saves its password, then asks the server once: the account is
    /// returned with `ok`, or `failing` and why (a refused password too).
    /// `owner` is the account whose saved keys hold the passwords: the
    /// installation's owner, since drives.toml is the installation's.
    pub fn add(&self, owner: &str, new: NewDrive) -> Result<Account> {
        if new.kind != "webdav" {
            return Err(DriveError::Invalid {
                field: "kind",
                message: "the only kind of drive is \"webdav\"".to_owned(),
            });
        }
        if new.username.trim().is_empty() || new.username.contains(['\n', '\r', ':']) {
            return Err(DriveError::Invalid {
                field: "username",
                message: "a user name is one line without `:`".to_owned(),
            });
        }
        if new.password.is_empty()
            || new.password.contains(['\n', '\r', '\0'])
            || new.password.len() > secrets::MAX_VALUE_BYTES
        {
            return Err(DriveError::Invalid {
                field: "password",
                message: "a password (or an app password) is required: one line, at most 16 KiB"
                    .to_owned(),
            });
        }
        // Checks the URL's form before anything is written.
        Drive::connect(&new.url, &new.username, &new.password)?;
        let slot = {
            let _writing = lock(&self.writing);
            let taken: Vec<Slot> = self.sections()?.iter().map(|s| s.slot).collect();
            let slot = match new.slot {
                Some(slot) if taken.contains(&slot) => {
                    return Err(DriveError::SlotTaken(format!(
                        "the drive {} already has an account (edit drives.toml to change it)",
                        slot.id()
                    )));
                }
                Some(slot) => slot,
                None => Slot::ALL
                    .into_iter()
                    .find(|s| !taken.contains(s))
                    .ok_or_else(|| {
                        DriveError::SlotTaken(
                            "all three drives (main, filesync-a, filesync-b) have an account"
                                .to_owned(),
                        )
                    })?,
            };
            self.secrets
                .save_key(owner, &slot.password_key(), &new.password)?;
            self.append(slot, &new)?;
            slot
        };
        let checked = self.drive(owner, slot.id()).and_then(|drive| drive.check());
        self.note(slot.id(), &checked);
        self.account(slot.id())
    }

    /// The client of account `id`, its password read from `owner`'s saved
    /// keys.
    pub fn drive(&self, owner: &str, id: &str) -> Result<Arc<Drive>> {
        let slot = Slot::parse(id).ok_or(DriveError::NoSuchDrive)?;
        let section = self
            .sections()?
            .into_iter()
            .find(|s| s.slot == slot)
            .ok_or(DriveError::NoSuchDrive)?;
        let declared = section.declared.map_err(DriveError::Config)?;
        let key_name = declared
            .password_key
            .clone()
            .unwrap_or_else(|| slot.password_key());
        let password = self.secrets.reveal(owner, &key_name).map_err(|e| match e {
            secrets::SecretsError::KeyNotFound(_) => DriveError::Config(format!(
                "the password of drive {id} is not saved: save it as the key {key_name}"
            )),
            other => other.into(),
        })?;
        let key = (declared.url.clone(), declared.username.clone(), password);
        let mut clients = lock(&self.clients);
        if let Some((known, drive)) = clients.get(&slot)
            && *known == key
        {
            return Ok(drive.clone());
        }
        let drive = Arc::new(Drive::connect(&key.0, &key.1, &key.2)?);
        clients.insert(slot, (key, drive.clone()));
        Ok(drive)
    }

    /// Records how a request to drive `id` went, for the list: any answer
    /// but a refusal or a failing server means the account works.
    pub fn note<T>(&self, id: &str, outcome: &Result<T>) {
        let Some(slot) = Slot::parse(id) else { return };
        let state = match outcome {
            Err(e @ (DriveError::Refused { .. } | DriveError::Remote(_))) => {
                (Status::Failing, Some(e.to_string()))
            }
            _ => (Status::Ok, None),
        };
        lock(&self.status).insert(slot, state);
    }

    fn sections(&self) -> Result<Vec<Section>> {
        let text = match std::fs::read_to_string(&self.file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(DriveError::Config(format!(
                    "{} cannot be read: {e}",
                    self.file.display()
                )));
            }
        };
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            #[serde(default)]
            drives: BTreeMap<String, toml::Value>,
        }
        let raw: Raw = toml::from_str(&text).map_err(|e| {
            DriveError::Config(format!(
                "{} is not valid: {}",
                self.file.display(),
                e.message()
            ))
        })?;
        let mut sections: Vec<Section> = raw
            .drives
            .into_iter()
            .filter_map(|(id, value)| {
                let slot = Slot::parse(&id)?;
                let declared = value
                    .try_into::<Declared>()
                    .map_err(|e| format!("[drives.{id}] in drives.toml: {}", e.message()));
                Some(Section { slot, declared })
            })
            .collect();
        sections.sort_by_key(|s| s.slot);
        Ok(sections)
    }

    fn append(&self, slot: Slot, new: &NewDrive) -> Result<()> {
        let existing = match std::fs::read_to_string(&self.file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(DriveError::Config(format!("drives.toml: {e}"))),
        };
        let quote = |s: &str| toml::Value::String(s.to_owned()).to_string();
        let mut text = existing;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!(
            "[drives.{}]\nkind = \"webdav\"\nurl = {}\nusername = {}\n",
            slot.id(),
            quote(new.url.trim()),
            quote(&new.username),
        ));
        if let Some(name) = new.name.as_deref().filter(|n| !n.trim().is_empty()) {
            text.push_str(&format!("name = {}\n", quote(name.trim())));
        }
        let temporary = self.file.with_extension("toml.tmp");
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, &self.file))
            .map_err(|e| {
                DriveError::Config(format!("{} cannot be written: {e}", self.file.display()))
            })
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn host(url: &str) -> String {
    let origin = crate::dav::origin(url);
    origin
        .split_once("://")
        .map_or(origin, |(_, host)| host)
        .to_owned()
}

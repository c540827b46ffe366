//! Drives: the user's WebDAV accounts (Nextcloud, ownCloud, Fastmail
//! Files, Box, a NAS, `rclone serve webdav` in front of any store rclone
//! reaches) and a client for each.
//!
//! - [`Drives`] (`accounts.rs`) is the account list: `DIR/drives.toml`, one
//!   account per [`Slot`] (the main drive, file-sync A and B), passwords in
//!   the owner's saved keys (crates/secrets), never in a returned type.
//! - [`Drive`] (`drive.rs`) is one account's client, the API other crates
//!   build on (documents, sheets): [`Drive::list`] (paged; the folder read
//!   again only when its ETag, ctag or modification time changed, see
//!   `listing.rs`), [`Drive::get`] / [`Drive::open`] (streamed down),
//!   [`Drive::put`] (streamed up from a reader, never held in memory, under
//!   a temporary name then MOVEd, at most [`MAX_UPLOAD_BYTES`]),
//!   [`Drive::put_bytes`], [`Drive::put_bytes_if`] (If-Match: `Conflict` on
//!   412), [`Drive::make_folder`], [`Drive::rename`], [`Drive::delete`].
//! - Every path is a [`DrivePath`] (`path.rs`): `..`, `.`, control
//!   characters and backslashes are refused before any request.
//! - Deleting: WebDAV has no trash. Servers that keep one (Nextcloud and
//!   ownCloud move deleted files to theirs) do so themselves; elsewhere a
//!   delete is final, so the web page asks first. No trash folder is
//!   emulated on the drive.
//!
//! Knows nothing of HTTP routes or settings: the server checks
//! `driveEnabled` / `filesyncAEnabled` / `filesyncBEnabled` (see
//! [`Slot`]) and calls this.

mod accounts;
mod dav;
mod drive;
mod error;
mod listing;
mod path;
pub mod xml;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

pub use accounts::{Drives, drives_path};
pub use drive::{Download, Drive, MAX_LISTING_BYTES, MAX_PAGE, MAX_UPLOAD_BYTES, UPLOAD_MARKER};
pub use error::{DriveError, Result};
pub use path::DrivePath;

/// Which of the three drives an account is; its id in the API.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS, ToSchema,
)]
#[serde(rename_all = "kebab-case")]
#[ts(rename = "DriveSlot")]
#[schema(as = DriveSlot)]
pub enum Slot {
    /// The drive in the sidebar (`driveEnabled`).
    Main,
    /// File-sync service A (`filesyncAEnabled`).
    FilesyncA,
    /// File-sync service B (`filesyncBEnabled`).
    FilesyncB,
}

impl Slot {
    pub const ALL: [Slot; 3] = [Slot::Main, Slot::FilesyncA, Slot::FilesyncB];

    pub fn id(self) -> &'static str {
        match self {
            Slot::Main => "main",
            Slot::FilesyncA => "filesync-a",
            Slot::FilesyncB => "filesync-b",
        }
    }

    pub fn parse(id: &str) -> Option<Slot> {
        Slot::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The saved key holding the slot's password unless drives.toml names
    /// another (`password_key`).
    pub fn password_key(self) -> String {
        format!(
            "DRIVE_{}_PASSWORD",
            self.id().replace('-', "_").to_uppercase()
        )
    }
}

/// A file or folder in a listing.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DriveEntry")]
#[schema(as = DriveEntry)]
pub struct Entry {
    pub name: String,
    /// From the drive's root: `/Reports/q1.xlsx`.
    pub path: String,
    /// Bytes; 0 for a folder unless the server sums it.
    #[ts(type = "number")]
    pub size: u64,
    /// RFC 3339, when the server says.
    pub modified_at: Option<String>,
    /// Quoted, as in HTTP; what a conditional write names.
    pub etag: Option<String>,
    pub folder: bool,
}

/// One page of a folder's members, folders first, then by name.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DrivePage")]
#[schema(as = DrivePage)]
pub struct Page {
    pub path: String,
    /// A hash of the whole folder's members as read: the same exactly
    /// when they are the same (an HTTP ETag for the listing).
    pub etag: String,
    /// Members in the whole folder.
    pub total: usize,
    pub offset: usize,
    /// The offset of the next page; none on the last.
    pub next: Option<usize>,
    /// The folder was unchanged and not read again.
    pub reused: bool,
    pub entries: Vec<Entry>,
}

/// Whether the last request to a drive worked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "DriveStatus")]
#[schema(as = DriveStatus)]
pub enum Status {
    /// Not asked yet since the server started.
    Pending,
    Ok,
    /// `failure` says why: refused credentials, an unreachable server, a
    /// section of drives.toml that cannot be used.
    Failing,
}

/// A drive account as shown: never its password.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DriveAccount")]
#[schema(as = DriveAccount)]
pub struct Account {
    /// The slot's id: `main`, `filesync-a` or `filesync-b`.
    pub id: String,
    pub slot: Slot,
    pub kind: String,
    pub name: String,
    pub url: String,
    pub username: String,
    pub status: Status,
    pub failure: Option<String>,
}

/// An account to add. `Debug` leaves the password out.
#[derive(Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "NewDrive")]
#[schema(as = NewDrive)]
pub struct NewDrive {
    /// `webdav`.
    pub kind: String,
    pub url: String,
    pub username: String,
    /// Saved as a sealed key; never returned.
    pub password: String,
    #[serde(default)]
    pub name: Option<String>,
    /// The first free slot when absent.
    #[serde(default)]
    pub slot: Option<Slot>,
}

impl std::fmt::Debug for NewDrive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewDrive")
            .field("kind", &self.kind)
            .field("url", &self.url)
            .field("username", &self.username)
            .field("password", &"(hidden)")
            .field("name", &self.name)
            .field("slot", &self.slot)
            .finish()
    }
}

/// `POST /drives/{id}/move`: from one path to another.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DriveMove {
    pub from: String,
    pub to: String,
    /// Replace what is at `to` (otherwise a conflict when something is).
    #[serde(default)]
    pub overwrite: bool,
}

/// `POST /drives/{id}/folders`: the folder to make.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
pub struct NewDriveFolder {
    pub path: String,
}

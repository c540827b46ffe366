//! The attachment store: one file per distinct content, named
//! `<sha256>.<ext>`, so the same screenshot pasted twice is kept once and an
//! id names exactly one content.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use sha2::{Digest, Sha256};
use ts_rs::TS;
use utoipa::ToSchema;

/// The largest image accepted: 10 MiB, above what a screenshot weighs and
/// below what the engines' APIs refuse outright.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;

/// The image types the engines read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl MediaType {
    pub const ALL: [MediaType; 4] = [
        MediaType::Png,
        MediaType::Jpeg,
        MediaType::Gif,
        MediaType::Webp,
    ];

    /// The type a `Content-Type` names, its parameters ignored.
    pub fn parse(content_type: &str) -> Option<MediaType> {
        let essence = content_type.split(';').next()?.trim().to_ascii_lowercase();
        MediaType::ALL
            .into_iter()
            .find(|media| media.as_str() == essence)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            MediaType::Png => "image/png",
            MediaType::Jpeg => "image/jpeg",
            MediaType::Gif => "image/gif",
            MediaType::Webp => "image/webp",
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            MediaType::Png => "png",
            MediaType::Jpeg => "jpg",
            MediaType::Gif => "gif",
            MediaType::Webp => "webp",
        }
    }

    fn from_extension(extension: &str) -> Option<MediaType> {
        MediaType::ALL
            .into_iter()
            .find(|media| media.extension() == extension)
    }

    /// Whether `bytes` begin as this format's files do: a wrong
    /// `Content-Type` would otherwise reach the model API, which refuses the
    /// whole request.
    fn matches(self, bytes: &[u8]) -> bool {
        match self {
            MediaType::Png => bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            MediaType::Jpeg => bytes.starts_with(&[0xFF, 0xD8, 0xFF]),
            MediaType::Gif => bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a"),
            MediaType::Webp => {
                bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP"
            }
        }
    }
}

/// A stored image, as `POST /attachments` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    /// The content's SHA-256 in hex: what a turn's `attachments` names.
    pub id: String,
    /// Where the file is on the server's machine: the engine reads it there.
    pub path: String,
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub media_type: String,
    #[ts(type = "number")]
    pub size: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum AttachmentError {
    #[error("only PNG, JPEG, GIF and WebP images can be attached, not `{0}`")]
    UnsupportedType(String),
    #[error("the file is not a {0} image: its first bytes say otherwise")]
    NotThatType(&'static str),
    #[error("the image is {size} bytes; at most {limit} (10 MiB) can be attached")]
    TooLarge { size: usize, limit: usize },
    #[error("the image is empty")]
    Empty,
    #[error("no attachment `{0}`: upload it with POST /attachments first")]
    NotFound(String),
    #[error("the attachment store failed: {0}")]
    Io(#[from] std::io::Error),
}

/// The `attachments/` folder of one data directory.
#[derive(Debug, Clone)]
pub struct AttachmentStore {
    dir: PathBuf,
}

impl AttachmentStore {
    /// Makes the folder when it is missing: the engines' sandbox lets them
    /// read it, and a rule on a path that does not exist cannot be made.
    pub fn open(data_dir: &Path) -> Result<AttachmentStore, AttachmentError> {
        let dir = data_dir.join("attachments");
        std::fs::create_dir_all(&dir)?;
        Ok(AttachmentStore { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Checks and keeps `bytes`, declared as `content_type`.
    pub fn save(&self, content_type: &str, bytes: &[u8]) -> Result<Attachment, AttachmentError> {
        let media = MediaType::parse(content_type)
            .ok_or_else(|| AttachmentError::UnsupportedType(content_type.to_owned()))?;
        check_size(bytes.len())?;
        if !media.matches(bytes) {
            return Err(AttachmentError::NotThatType(media.as_str()));
        }
        let id = hex::encode(Sha256::digest(bytes));
        let path = self.dir.join(format!("{id}.{}", media.extension()));
        if !path.exists() {
            // Written aside and renamed, so a reader never sees half a file.
            let mut partial = tempfile_in(&self.dir, &id)?;
            partial.1.write_all(bytes)?;
            partial.1.sync_all()?;
            std::fs::rename(&partial.0, &path)?;
        }
        Ok(attachment(id, path, media, bytes.len() as u64))
    }

    /// The stored attachment `id` names; an id that is not a digest never
    /// reaches the file system.
    pub fn get(&self, id: &str) -> Result<Attachment, AttachmentError> {
        let well_formed = id.len() == 64 && id.bytes().all(|b| b.is_ascii_hexdigit());
        if !well_formed {
            return Err(AttachmentError::NotFound(id.to_owned()));
        }
        let id = id.to_ascii_lowercase();
        for media in MediaType::ALL {
            let path = self.dir.join(format!("{id}.{}", media.extension()));
            if let Ok(meta) = std::fs::metadata(&path) {
                return Ok(attachment(id, path, media, meta.len()));
            }
        }
        Err(AttachmentError::NotFound(id))
    }

    /// The media type of a stored attachment's path.
    pub fn media_type_of(path: &Path) -> Option<MediaType> {
        path.extension()
            .and_then(|e| e.to_str())
            .and_then(MediaType::from_extension)
    }
}

/// Refuses an empty body and one over [`MAX_BYTES`].
pub fn check_size(size: usize) -> Result<(), AttachmentError> {
    if size == 0 {
        return Err(AttachmentError::Empty);
    }
    if size > MAX_BYTES {
        return Err(AttachmentError::TooLarge {
            size,
            limit: MAX_BYTES,
        });
    }
    Ok(())
}

fn attachment(id: String, path: PathBuf, media: MediaType, size: u64) -> Attachment {
    Attachment {
        id,
        path: path.display().to_string(),
        media_type: media.as_str().to_owned(),
        size,
    }
}

fn tempfile_in(dir: &Path, id: &str) -> Result<(PathBuf, std::fs::File), AttachmentError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let serial = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!(".{id}.{}.{serial}.partial", std::process::id()));
    let file = std::fs::File::create(&path)?;
    Ok((path, file))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[test]
    fn the_same_content_is_kept_once_under_its_digest() {
        let dir = tempfile::tempdir().unwrap();
        let store = AttachmentStore::open(dir.path()).unwrap();
        let first = store.save("image/png", PNG).unwrap();
        let again = store.save("IMAGE/PNG; charset=binary", PNG).unwrap();
        assert_eq!(first, again);
        assert_eq!(first.id.len(), 64);
        assert!(first.path.ends_with(".png"));
        assert_eq!(std::fs::read(&first.path).unwrap(), PNG);
        assert_eq!(std::fs::read_dir(store.dir()).unwrap().count(), 1);
        assert_eq!(store.get(&first.id).unwrap(), first);
        assert_eq!(
            AttachmentStore::media_type_of(Path::new(&first.path)),
            Some(MediaType::Png)
        );
    }

    #[test]
    fn wrong_types_sizes_and_ids_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = AttachmentStore::open(dir.path()).unwrap();
        assert!(matches!(
            store.save("application/pdf", b"%PDF"),
            Err(AttachmentError::UnsupportedType(_))
        ));
        assert!(matches!(
            store.save("image/jpeg", PNG),
            Err(AttachmentError::NotThatType("image/jpeg"))
        ));
        assert!(matches!(
            store.save("image/png", b""),
            Err(AttachmentError::Empty)
        ));
        let mut big = PNG.to_vec();
        big.resize(MAX_BYTES + 1, 0);
        assert!(matches!(
            store.save("image/png", &big),
            Err(AttachmentError::TooLarge { .. })
        ));
        big.truncate(MAX_BYTES);
        assert!(store.save("image/png", &big).is_ok());
        assert!(matches!(
            store.get("../../cli-token"),
            Err(AttachmentError::NotFound(_))
        ));
        assert!(matches!(
            store.get(&"a".repeat(64)),
            Err(AttachmentError::NotFound(_))
        ));
        let webp = b"RIFF\0\0\0\0WEBPVP8 ";
        assert!(store.save("image/webp", webp).is_ok());
        assert!(store.save("image/gif", b"GIF89a\x01\0").is_ok());
        assert!(store.save("image/jpeg", &[0xFF, 0xD8, 0xFF, 0xE0]).is_ok());
    }
}

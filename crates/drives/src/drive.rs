//! One drive: a WebDAV account's client. Lists folders (sorted, paged, an
//! unchanged folder answered from memory), streams files down to a writer
//! and up from a reader, and makes, moves and deletes; every path checked
//! by [`DrivePath`] first and every failure a [`DriveError`].

use std::io::{Read, Write};
use std::sync::Mutex;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::dav::{self, Body, Dav, header, path_of, refusal};
use crate::error::{DriveError, Result};
use crate::listing::{Cache, Fingerprint, Folder};
use crate::path::DrivePath;
use crate::xml::{self, Found};
use crate::{Entry, Page};

/// The largest upload [`Drive::put`] sends: past it the upload stops and
/// nothing is left under the real name. Large enough for the 2 GB files of
/// the issue with room; a server's own limit may be lower.
pub const MAX_UPLOAD_BYTES: u64 = 4 * 1024 * 1024 * 1024;
/// The largest PROPFIND answer read for one folder: 10,000 members take
/// about 5 MB, so this allows folders of some 200,000.
pub const MAX_LISTING_BYTES: u64 = 128 * 1024 * 1024;
/// The most entries one page of a listing holds.
pub const MAX_PAGE: usize = 5_000;
/// What an upload in progress is called, in the folder it goes to, before
/// the MOVE gives it its real name.
pub const UPLOAD_MARKER: &str = ".switchboard-upload-";

/// A file being downloaded: its size and ETag when the server says, and
/// its bytes as a reader (read it to the end, or drop it to stop).
pub struct Download {
    pub size: Option<u64>,
    pub etag: Option<String>,
    pub content_type: Option<String>,
    pub reader: Box<dyn Read + Send>,
}

pub struct Drive {
    dav: Dav,
    /// The account URL, ending with `/`: the drive's root folder.
    base: String,
    base_path: String,
    max_upload: u64,
    cache: Mutex<Cache>,
}

impl Drive {
    /// A client for the WebDAV folder at `url` (`http` or `https`); no
    /// request is made until one is asked for ([`Drive::check`]).
    pub fn connect(url: &str, username: &str, password: &str) -> Result<Drive> {
        let url = url.trim();
        if !(url.starts_with("https://") || url.starts_with("http://"))
            || dav::origin(url).len() <= "https://".len()
        {
            return Err(DriveError::Invalid {
                field: "url",
                message: "a WebDAV URL starts with https:// (or http://) and names a host"
                    .to_owned(),
            });
        }
        let base = if url.ends_with('/') {
            url.to_owned()
        } else {
            format!("{url}/")
        };
        Ok(Drive {
            dav: Dav::new(&base, username, password),
            base_path: path_of(&base).to_owned(),
            base,
            max_upload: MAX_UPLOAD_BYTES,
            cache: Mutex::new(Cache::default()),
        })
    }

    /// The same drive with a lower upload limit (tests, or a server known
    /// to refuse more).
    pub fn with_max_upload(mut self, bytes: u64) -> Drive {
        self.max_upload = bytes;
        self
    }

    /// Whether the server answers for the root with these credentials:
    /// `Refused` when it refuses them.
    pub fn check(&self) -> Result<()> {
        self.stat(&DrivePath::root()).map(drop)
    }

    /// One file or folder.
    pub fn stat(&self, path: &DrivePath) -> Result<Entry> {
        let (found, _) = self.propfind(path, "0")?;
        found
            .into_iter()
            .find_map(|f| {
                let at = DrivePath::from_href(path_of(&f.href), &self.base_path)?;
                (at == *path).then(|| entry(&at, &f))
            })
            .ok_or_else(|| DriveError::NotFound(path.to_string()))
    }

    /// A page of the folder's members, folders first, then by name; the
    /// whole folder is read once and kept, and read again only when its
    /// ETag (or ctag, or modification time) says it changed.
    pub fn list(&self, path: &DrivePath, offset: usize, limit: usize) -> Result<Page> {
        let (folder, reused) = self.folder(path)?;
        let limit = limit.clamp(1, MAX_PAGE);
        let total = folder.entries.len();
        let entries: Vec<Entry> = folder
            .entries
            .iter()
            .skip(offset)
            .take(limit)
            .cloned()
            .collect();
        let next = (offset + entries.len() < total).then_some(offset + entries.len());
        Ok(Page {
            path: path.to_string(),
            etag: folder.version.clone(),
            total,
            offset,
            next,
            reused,
            entries,
        })
    }

    fn folder(&self, path: &DrivePath) -> Result<(std::sync::Arc<Folder>, bool)> {
        let cached = self.cache().get(path);
        if let Some(cached) = cached {
            let (found, _) = self.propfind(path, "0")?;
            let me = found
                .iter()
                .find(|f| self.is(f, path))
                .ok_or_else(|| DriveError::NotFound(path.to_string()))?;
            if cached.still_valid(&Fingerprint::of(me)) {
                return Ok((cached, true));
            }
        }
        let (found, date) = self.propfind(path, "1")?;
        let mut fingerprint = None;
        let mut entries = Vec::new();
        for f in &found {
            let Some(at) = DrivePath::from_href(path_of(&f.href), &self.base_path) else {
                continue;
            };
            if at == *path {
                if !f.folder {
                    return Err(DriveError::Invalid {
                        field: "path",
                        message: format!("{path} is a file, not a folder"),
                    });
                }
                fingerprint = Some(Fingerprint::of(f));
            } else if at.parent() == *path {
                entries.push(entry(&at, f));
            }
        }
        entries.sort_by(|a, b| {
            b.folder
                .cmp(&a.folder)
                .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
                .then_with(|| a.name.cmp(&b.name))
        });
        let folder = Folder::new(fingerprint.unwrap_or(Fingerprint::None), date, entries);
        Ok((self.cache().put(path.clone(), folder), false))
    }

    /// Opens a file for reading; its bytes stream from the server as the
    /// reader is read.
    pub fn open(&self, path: &DrivePath) -> Result<Download> {
        let url = path.url(&self.base, false);
        let response = self.dav.send("GET", &url, &[], Body::None)?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(refusal(status, &path.to_string()));
        }
        let etag = header(&response, "etag").map(xml::quoted);
        let content_type = header(&response, "content-type").map(str::to_owned);
        let body = response.into_body();
        let size = body.content_length();
        let reader = body.into_with_config().limit(u64::MAX).reader();
        Ok(Download {
            size,
            etag,
            content_type,
            reader: Box::new(reader),
        })
    }

    /// Downloads a file into `out`, streamed; returns the bytes written.
    pub fn get(&self, path: &DrivePath, out: &mut dyn Write) -> Result<u64> {
        let mut download = self.open(path)?;
        let url = path.url(&self.base, false);
        let mut buffer = vec![0u8; 64 * 1024];
        let mut written = 0u64;
        loop {
            let n = download.reader.read(&mut buffer).map_err(|e| {
                DriveError::Remote(format!(
                    "{}: the download broke off: {e}",
                    dav::origin(&url)
                ))
            })?;
            if n == 0 {
                break;
            }
            out.write_all(&buffer[..n])?;
            written += n as u64;
        }
        out.flush()?;
        Ok(written)
    }

    /// Uploads `source` to `path`, streamed (never held in memory): first
    /// under a temporary name in the same folder, then MOVEd over the real
    /// name, so an upload that breaks off leaves no half file there.
    /// `length`, when known, is sent as Content-Length (else chunked).
    /// Past [`MAX_UPLOAD_BYTES`] (or [`Drive::with_max_upload`]) →
    /// `TooLarge`.
    pub fn put(
        &self,
        path: &DrivePath,
        source: &mut dyn Read,
        length: Option<u64>,
    ) -> Result<Entry> {
        if path.is_root() {
            return Err(DriveError::BadPath {
                path: path.to_string(),
                reason: "the root folder is not a file",
            });
        }
        if length.is_some_and(|n| n > self.max_upload) {
            return Err(DriveError::TooLarge {
                what: "the upload",
                limit: self.max_upload,
            });
        }
        let temporary = path.parent().child(&format!(
            ".{}{UPLOAD_MARKER}{}",
            path.name(),
            uuid::Uuid::new_v4().simple()
        ))?;
        let temporary_url = temporary.url(&self.base, false);
        let mut capped = Capped {
            inner: source,
            left: self.max_upload,
            exceeded: false,
        };
        let sent = self.dav.send(
            "PUT",
            &temporary_url,
            &[("Content-Type", "application/octet-stream")],
            Body::Reader(&mut capped, length),
        );
        let exceeded = capped.exceeded;
        let outcome = sent.and_then(|response| {
            let status = response.status().as_u16();
            if (200..300).contains(&status) {
                Ok(())
            } else {
                Err(refusal(status, &path.to_string()))
            }
        });
        if let Err(error) = outcome {
            self.forget_quietly(&temporary);
            return Err(if exceeded {
                DriveError::TooLarge {
                    what: "the upload",
                    limit: self.max_upload,
                }
            } else {
                error
            });
        }
        if let Err(error) = self.move_to(&temporary, false, path, true) {
            self.forget_quietly(&temporary);
            return Err(error);
        }
        self.forget(path);
        self.stat(path)
    }

    /// [`Drive::put`] of bytes held in memory.
    pub fn put_bytes(&self, path: &DrivePath, bytes: &[u8]) -> Result<Entry> {
        self.put(
            path,
            &mut std::io::Cursor::new(bytes),
            Some(bytes.len() as u64),
        )
    }

    /// Writes `bytes` to `path` only if the file is still the one with
    /// `etag` (`None`: only if there is no file there yet); otherwise
    /// `Conflict`, and the file on the drive stays as it is. The server
    /// judges the condition (If-Match / If-None-Match on the PUT itself),
    /// so a race with another client cannot slip between a check and the
    /// write; that is why this writes to the real name directly, and why
    /// it takes bytes (a small file, a spreadsheet) rather than a stream.
    pub fn put_bytes_if(
        &self,
        path: &DrivePath,
        bytes: &[u8],
        etag: Option<&str>,
    ) -> Result<Entry> {
        if path.is_root() {
            return Err(DriveError::BadPath {
                path: path.to_string(),
                reason: "the root folder is not a file",
            });
        }
        let condition = match etag {
            Some(etag) => ("If-Match", xml::quoted(etag)),
            None => ("If-None-Match", "*".to_owned()),
        };
        let url = path.url(&self.base, false);
        let response = self.dav.send(
            "PUT",
            &url,
            &[
                (condition.0, condition.1.as_str()),
                ("Content-Type", "application/octet-stream"),
            ],
            Body::Bytes(bytes),
        )?;
        let status = response.status().as_u16();
        self.forget(path);
        match status {
            200..=299 => self.stat(path),
            412 => Err(DriveError::Conflict(match etag {
                Some(_) => format!("{path} changed on the drive since it was read"),
                None => format!("{path} already exists"),
            })),
            s => Err(refusal(s, &path.to_string())),
        }
    }

    /// Makes a folder; its parent must exist. `Conflict` when something is
    /// already there.
    pub fn make_folder(&self, path: &DrivePath) -> Result<Entry> {
        let url = path.url(&self.base, true);
        let response = self.dav.send("MKCOL", &url, &[], Body::None)?;
        let status = response.status().as_u16();
        self.forget(path);
        match status {
            200..=299 => self.stat(path),
            405 => Err(DriveError::Conflict(format!("{path} already exists"))),
            s => Err(refusal(s, &path.to_string())),
        }
    }

    /// Moves or renames a file or folder. Something already at `to` is
    /// replaced only when `overwrite` is set, else `Conflict`.
    pub fn rename(&self, from: &DrivePath, to: &DrivePath, overwrite: bool) -> Result<Entry> {
        if from.is_root() || to.is_root() {
            return Err(DriveError::BadPath {
                path: from.to_string(),
                reason: "the root folder cannot be moved or replaced",
            });
        }
        let folder = self.stat(from)?.folder;
        self.move_to(from, folder, to, overwrite)?;
        self.forget(from);
        self.forget(to);
        self.stat(to)
    }

    fn move_to(
        &self,
        from: &DrivePath,
        folder: bool,
        to: &DrivePath,
        overwrite: bool,
    ) -> Result<()> {
        let destination = to.url(&self.base, folder);
        let response = self.dav.send(
            "MOVE",
            &from.url(&self.base, folder),
            &[
                ("Destination", destination.as_str()),
                ("Overwrite", if overwrite { "T" } else { "F" }),
            ],
            Body::None,
        )?;
        match response.status().as_u16() {
            200..=299 => Ok(()),
            412 => Err(DriveError::Conflict(format!("{to} already exists"))),
            s => Err(refusal(s, &from.to_string())),
        }
    }

    /// Deletes a file or a folder with everything in it. WebDAV has no
    /// trash: servers that keep one (Nextcloud, ownCloud) move it there
    /// themselves; elsewhere it is gone, so callers confirm first.
    pub fn delete(&self, path: &DrivePath) -> Result<()> {
        if path.is_root() {
            return Err(DriveError::BadPath {
                path: path.to_string(),
                reason: "the root folder cannot be deleted",
            });
        }
        let folder = self.stat(path)?.folder;
        let response = self
            .dav
            .send("DELETE", &path.url(&self.base, folder), &[], Body::None)?;
        self.forget(path);
        match response.status().as_u16() {
            200..=299 => Ok(()),
            s => Err(refusal(s, &path.to_string())),
        }
    }

    /// A PROPFIND of `path` at `depth`: the responses and the server's
    /// `Date` (what a listing's freshness is judged against).
    fn propfind(
        &self,
        path: &DrivePath,
        depth: &str,
    ) -> Result<(Vec<Found>, Option<OffsetDateTime>)> {
        let url = path.url(&self.base, true);
        let response = self.dav.send(
            "PROPFIND",
            &url,
            &[
                ("Depth", depth),
                ("Content-Type", "application/xml; charset=utf-8"),
            ],
            Body::Bytes(xml::PROPFIND.as_bytes()),
        )?;
        let status = response.status().as_u16();
        if status != 207 {
            return Err(refusal(status, &path.to_string()));
        }
        let date = header(&response, "date").and_then(|d| {
            OffsetDateTime::parse(d, &time::format_description::well_known::Rfc2822).ok()
        });
        let body = response
            .into_body()
            .into_with_config()
            .limit(MAX_LISTING_BYTES)
            .read_to_string()
            .map_err(|e| match e {
                ureq::Error::BodyExceedsLimit(_) => DriveError::TooLarge {
                    what: "the folder's listing",
                    limit: MAX_LISTING_BYTES,
                },
                other => dav::transport(&url, other),
            })?;
        let found =
            xml::multistatus(&body).map_err(|why| DriveError::Remote(format!("{path}: {why}")))?;
        Ok((found, date))
    }

    fn is(&self, found: &Found, path: &DrivePath) -> bool {
        DrivePath::from_href(path_of(&found.href), &self.base_path).is_some_and(|at| at == *path)
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Drops the remembered listings a write to `path` changes: its
    /// folder's, and its own and its descendants' when it is a folder.
    fn forget(&self, path: &DrivePath) {
        self.cache().forget(path);
    }

    /// Best effort: a temporary upload that failed is deleted when the
    /// server still answers (it may not: it is why the upload failed).
    fn forget_quietly(&self, temporary: &DrivePath) {
        let _ = self
            .dav
            .send("DELETE", &temporary.url(&self.base, false), &[], Body::None);
    }
}

fn entry(path: &DrivePath, found: &Found) -> Entry {
    Entry {
        name: path.name().to_owned(),
        path: path.to_string(),
        size: if found.folder {
            0
        } else {
            found.size.unwrap_or(0)
        },
        modified_at: found.modified.and_then(|m| m.format(&Rfc3339).ok()),
        etag: found.etag.clone(),
        folder: found.folder,
    }
}

/// A reader that stops with an error past `left` bytes, and says so.
struct Capped<'a> {
    inner: &'a mut dyn Read,
    left: u64,
    exceeded: bool,
}

impl Read for Capped<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            self.exceeded = true;
            return Err(std::io::Error::other("the upload is larger than the limit"));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

//! Publishing Markdown as a document (`docsExportEnabled`, docs/files.md
//! "Documents"): the Markdown, a `.docx` and an HTML page written to a
//! folder on a drive (`docsDestFolderId` when the request names none), or,
//! with `docsTemplateId`, a new heading section appended to that `.docx`.
//! New files never replace one already there: a taken name gets ` (2)`,
//! ` (3)`, …; the template is written back with its ETag, so a template
//! changed meanwhile is a conflict rather than lost work.

use drives::{Drive, DriveError, DrivePath};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::App;
use crate::office_error::OfficeError;
use crate::sheet_edits::read_file;

/// `POST /documents/publish`.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(optional_fields)]
pub struct PublishRequest {
    pub markdown: String,
    pub title: String,
    /// `main` when absent.
    #[serde(default)]
    pub drive_id: Option<String>,
    /// The folder on the drive; `docsDestFolderId` when absent, else `/`.
    #[serde(default)]
    pub folder: Option<String>,
}

/// Where the document went: the `.docx`'s path and its WebDAV URL.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Published {
    pub url: String,
    pub path: String,
}

/// Path characters escaped in the returned URL (RFC 3986 path segments).
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

/// How many ` (n)` suffixes are tried before a publish gives up.
const NAME_TRIES: u32 = 50;

impl App {
    pub fn publish_document(
        &self,
        account_id: &str,
        is_owner: bool,
        request: PublishRequest,
    ) -> Result<Published, OfficeError> {
        if !self.settings.docs_export_enabled() {
            return Err(OfficeError::DocsOff);
        }
        if request.title.trim().is_empty() {
            return Err(OfficeError::Invalid {
                field: "title",
                message: "a document needs a title".into(),
            });
        }
        let default_drive = request.drive_id.clone().unwrap_or_else(|| "main".into());
        let template = self.settings.docs_template_id();
        if !template.trim().is_empty() {
            let (drive_id, path) = drive_and_path(&template, &default_drive);
            let drive = self.drive(account_id, is_owner, &drive_id)?;
            let at = DrivePath::parse(&path)?;
            let (bytes, etag) = read_file(&drive, &at)?;
            let appended =
                documents::template::append_section(&bytes, &request.title, &request.markdown)?;
            drive.put_bytes_if(&at, &appended, etag.as_deref())?;
            return Ok(self.published(&drive_id, &at));
        }

        let folder = match request.folder.as_deref() {
            Some(folder) => folder.to_owned(),
            None => self.settings.docs_dest_folder_id(),
        };
        let (drive_id, folder) = drive_and_path(&folder, &default_drive);
        let drive = self.drive(account_id, is_owner, &drive_id)?;
        let folder = DrivePath::parse(if folder.is_empty() { "/" } else { &folder })?;
        let docx = documents::docx::to_docx(&request.title, &request.markdown)?;
        let html = documents::html::to_html(&request.title, &request.markdown)?;
        let stem = documents::file_stem(&request.title);
        let at = write_new(&drive, &folder, &stem, "docx", &docx)?;
        let chosen = at.name().trim_end_matches(".docx").to_owned();
        write_new(&drive, &folder, &chosen, "md", request.markdown.as_bytes())?;
        write_new(&drive, &folder, &chosen, "html", html.as_bytes())?;
        Ok(self.published(&drive_id, &at))
    }

    fn published(&self, drive_id: &str, at: &DrivePath) -> Published {
        let base = self
            .drives
            .account(drive_id)
            .map(|a| a.url)
            .unwrap_or_default();
        let encoded: String = at
            .to_string()
            .split('/')
            .map(|s| utf8_percent_encode(s, SEGMENT).to_string())
            .collect::<Vec<_>>()
            .join("/");
        Published {
            url: format!("{}{encoded}", base.trim_end_matches('/')),
            path: at.to_string(),
        }
    }
}

/// `<drive id>:<path>` or a plain path on `default_drive`.
fn drive_and_path(text: &str, default_drive: &str) -> (String, String) {
    let text = text.trim();
    match text.split_once(':') {
        Some((drive, path)) if drives::Slot::parse(drive).is_some() => {
            (drive.to_owned(), path.to_owned())
        }
        _ => (default_drive.to_owned(), text.to_owned()),
    }
}

/// Writes `stem.ext` in `folder`, or `stem (2).ext` and on when the name
/// is taken (the drive refuses an existing name on an If-None-Match PUT).
fn write_new(
    drive: &Drive,
    folder: &DrivePath,
    stem: &str,
    ext: &str,
    bytes: &[u8],
) -> Result<DrivePath, OfficeError> {
    for n in 1..=NAME_TRIES {
        let name = if n == 1 {
            format!("{stem}.{ext}")
        } else {
            format!("{stem} ({n}).{ext}")
        };
        let at = folder.child(&name)?;
        match drive.put_bytes_if(&at, bytes, None) {
            Ok(_) => return Ok(at),
            Err(DriveError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(DriveError::Conflict(format!(
        "{folder} already holds {NAME_TRIES} documents named {stem}"
    ))
    .into())
}

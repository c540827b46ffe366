//! A publish appended to an existing `.docx` (`docsTemplateId`): the
//! Markdown is rendered by docx-rs as a section of its own (its title a
//! Heading 1, the Markdown's headings one level down), and that body is
//! spliced into the template's `word/document.xml` before the body's final
//! section properties. The template's other parts are copied as they were,
//! except that styles the section uses and the template lacks are added to
//! `word/styles.xml`, and the section's hyperlink relationships are added to
//! the document's relationships under fresh ids. Lists carry typed markers
//! rather than Word numbering, since the template's numbering definitions
//! are its own.

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};

use docx_rs::{Docx, Paragraph, Run};

use crate::DocumentError;
use crate::blocks::render;
use crate::docx::{add_blocks, pack, with_styles};

const DOCUMENT: &str = "word/document.xml";
const STYLES: &str = "word/styles.xml";
const RELS: &str = "word/_rels/document.xml.rels";
/// The largest part read from a template.
const MAX_PART_BYTES: u64 = 64 * 1024 * 1024;

/// The template with a new section `title` holding `markdown` at its end.
pub fn append_section(
    template: &[u8],
    title: &str,
    markdown: &str,
) -> Result<Vec<u8>, DocumentError> {
    crate::check_size(markdown)?;
    let rendered = render(markdown, false, 1);
    let heading = Paragraph::new()
        .style("Heading1")
        .add_run(Run::new().add_text(title));
    let section = pack(add_blocks(
        with_styles(Docx::new()).add_paragraph(heading),
        rendered.blocks,
    ))?;

    let bad = |e: &dyn std::fmt::Display| DocumentError::BadTemplate(e.to_string());
    let mut ours = zip::ZipArchive::new(Cursor::new(section.as_slice()))
        .map_err(|e| DocumentError::Write(e.to_string()))?;
    let our_doc =
        text_part(&mut ours, DOCUMENT).map_err(|e| DocumentError::Write(e.to_string()))?;
    let our_styles =
        text_part(&mut ours, STYLES).map_err(|e| DocumentError::Write(e.to_string()))?;
    let our_rels = text_part(&mut ours, RELS).unwrap_or_default();

    let mut theirs = zip::ZipArchive::new(Cursor::new(template)).map_err(|e| bad(&e))?;
    let doc = text_part(&mut theirs, DOCUMENT)?;
    let styles = text_part(&mut theirs, STYLES).ok();
    let rels = text_part(&mut theirs, RELS).ok();

    let mut body = between(&our_doc, "<w:body>", "<w:sectPr")
        .ok_or_else(|| DocumentError::Write("the section has no body".into()))?
        .to_owned();
    let mut replaced: BTreeMap<&str, String> = BTreeMap::new();
    if let Some(rels) = rels {
        let (rels, renames) = merge_links(&rels, &our_rels);
        for (old, new) in renames {
            body = body.replace(&format!("r:id=\"{old}\""), &format!("r:id=\"{new}\""));
        }
        replaced.insert(RELS, rels);
    } else {
        body = strip_hyperlinks(&body);
    }
    if let Some(styles) = styles {
        replaced.insert(STYLES, merge_styles(&styles, &our_styles));
    }
    replaced.insert(DOCUMENT, insert_body(&doc, &body)?);

    let mut out = zip::ZipWriter::new(Cursor::new(Vec::with_capacity(
        template.len() + section.len(),
    )));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for i in 0..theirs.len() {
        let part = theirs.by_index_raw(i).map_err(|e| bad(&e))?;
        let name = part.name().to_owned();
        match replaced.get(name.as_str()) {
            Some(body) => {
                drop(part);
                out.start_file(name, options)
                    .map_err(|e| DocumentError::Write(e.to_string()))?;
                out.write_all(body.as_bytes())
                    .map_err(|e| DocumentError::Write(e.to_string()))?;
            }
            None => out
                .raw_copy_file(part)
                .map_err(|e| DocumentError::Write(e.to_string()))?,
        }
    }
    let done = out
        .finish()
        .map_err(|e| DocumentError::Write(e.to_string()))?;
    Ok(done.into_inner())
}

fn text_part(
    zip: &mut zip::ZipArchive<Cursor<&[u8]>>,
    name: &str,
) -> Result<String, DocumentError> {
    let part = zip
        .by_name(name)
        .map_err(|_| DocumentError::BadTemplate(format!("it has no {name}")))?;
    let mut text = String::new();
    part.take(MAX_PART_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| DocumentError::BadTemplate(format!("{name}: {e}")))?;
    Ok(text)
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = start + text[start..].rfind(close)?;
    Some(&text[start..end])
}

/// The template's document with `body` before the body's own section
/// properties (the last `<w:sectPr` in the body), or at its end.
fn insert_body(doc: &str, body: &str) -> Result<String, DocumentError> {
    let close = doc
        .rfind("</w:body>")
        .ok_or_else(|| DocumentError::BadTemplate("word/document.xml has no w:body".into()))?;
    let body_start = doc
        .find("<w:body")
        .ok_or_else(|| DocumentError::BadTemplate("word/document.xml has no w:body".into()))?;
    let last_section = doc[body_start..close]
        .rfind("<w:sectPr")
        .map(|i| body_start + i);
    // A sectPr inside the last paragraph's properties ends that paragraph's
    // section, not the body: only one after every paragraph is the body's.
    let at = match last_section {
        Some(i) if !doc[i..close].contains("</w:p>") => i,
        _ => close,
    };
    Ok([&doc[..at], body, &doc[at..]].concat())
}

/// The template's styles plus every `<w:style>` of ours whose id it lacks.
fn merge_styles(theirs: &str, ours: &str) -> String {
    let mut added = String::new();
    let mut rest = ours;
    while let Some(start) = rest.find("<w:style ") {
        let Some(len) = rest[start..].find("</w:style>") else {
            break;
        };
        let style = &rest[start..start + len + "</w:style>".len()];
        if let Some(id) = between(style, "w:styleId=\"", "\"").and_then(|s| s.split('"').next())
            && !theirs.contains(&format!("w:styleId=\"{id}\""))
        {
            added.push_str(style);
        }
        rest = &rest[start + len..];
    }
    match theirs.rfind("</w:styles>") {
        Some(at) => [&theirs[..at], &added, &theirs[at..]].concat(),
        None => theirs.to_owned(),
    }
}

/// The template's relationships plus our hyperlinks under fresh ids, and
/// the renames to apply to the section's body.
fn merge_links(theirs: &str, ours: &str) -> (String, Vec<(String, String)>) {
    let mut added = String::new();
    let mut renames = Vec::new();
    let mut rest = ours;
    let mut n = 0;
    while let Some(start) = rest.find("<Relationship ") {
        let Some(len) = rest[start..].find("/>") else {
            break;
        };
        let rel = &rest[start..start + len + 2];
        rest = &rest[start + len..];
        if !rel.contains("relationships/hyperlink\"") {
            continue;
        }
        let Some(old) = between(rel, "Id=\"", "\"").and_then(|s| s.split('"').next()) else {
            continue;
        };
        let mut new = format!("rIdSwb{n}");
        while theirs.contains(&format!("Id=\"{new}\"")) {
            n += 1;
            new = format!("rIdSwb{n}");
        }
        n += 1;
        added.push_str(&rel.replacen(&format!("Id=\"{old}\""), &format!("Id=\"{new}\""), 1));
        renames.push((old.to_owned(), new));
    }
    let merged = match theirs.rfind("</Relationships>") {
        Some(at) => [&theirs[..at], &added, &theirs[at..]].concat(),
        None => theirs.to_owned(),
    };
    (merged, renames)
}

/// Hyperlink wrappers removed (their text kept), for a template without a
/// relationships part to hold their targets.
fn strip_hyperlinks(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(start) = rest.find("<w:hyperlink") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('>') else {
            break;
        };
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out.replace("</w:hyperlink>", "")
}

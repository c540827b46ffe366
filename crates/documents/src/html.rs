//! Markdown as a standalone HTML page. Raw HTML in the Markdown is escaped
//! rather than passed through: a published page must not run an agent's
//! script when a colleague opens it.

use pulldown_cmark::{Event, Options, Parser, html::push_html};

use crate::DocumentError;

pub fn to_html(title: &str, markdown: &str) -> Result<String, DocumentError> {
    crate::check_size(markdown)?;
    let events = Parser::new_ext(markdown, options()).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut body = String::with_capacity(markdown.len() * 3 / 2);
    push_html(&mut body, events);
    let title = escape(title);
    Ok(format!(
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n\
         <style>body{{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;line-height:1.5}}\
         table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:.25rem .5rem}}\
         pre{{background:#f5f5f5;padding:.75rem;overflow:auto}}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n{body}</body>\n</html>\n"
    ))
}

pub(crate) fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

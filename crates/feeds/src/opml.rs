//! OPML 2.0, the subscription lists feed readers exchange: read (every
//! `<outline>` with an `xmlUrl`, at any depth, folders flattened; roxmltree
//! refuses DTDs, so no entity expansion from a file) and written (one flat
//! `<body>` of outlines).

/// One subscription of an OPML file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outline {
    pub url: String,
    pub title: Option<String>,
    pub site_url: Option<String>,
}

/// The subscriptions of an OPML document, in its order.
pub fn parse(text: &str) -> Result<Vec<Outline>, String> {
    let doc = roxmltree::Document::parse(text.trim_start_matches('\u{feff}'))
        .map_err(|e| format!("The OPML file is not valid XML: {e}."))?;
    if !doc.root_element().has_tag_name("opml") {
        return Err(format!(
            "The file is not OPML: its root is <{}>.",
            doc.root_element().tag_name().name()
        ));
    }
    let attribute = |node: &roxmltree::Node<'_, '_>, name: &str| {
        node.attribute(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
    };
    Ok(doc
        .descendants()
        .filter(|n| n.has_tag_name("outline"))
        .filter_map(|n| {
            Some(Outline {
                url: attribute(&n, "xmlUrl")?,
                title: attribute(&n, "title").or_else(|| attribute(&n, "text")),
                site_url: attribute(&n, "htmlUrl"),
            })
        })
        .collect())
}

/// An OPML 2.0 document listing `outlines`.
pub fn write(outlines: &[Outline], created: &str) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n    <title>Switchboard feeds</title>\n",
    );
    out.push_str(&format!(
        "    <dateCreated>{}</dateCreated>\n  </head>\n  <body>\n",
        escape(created)
    ));
    for outline in outlines {
        let title = escape(outline.title.as_deref().unwrap_or(&outline.url));
        out.push_str(&format!(
            "    <outline type=\"rss\" text=\"{title}\" title=\"{title}\" xmlUrl=\"{}\"",
            escape(&outline.url)
        ));
        if let Some(site) = &outline.site_url {
            out.push_str(&format!(" htmlUrl=\"{}\"", escape(site)));
        }
        out.push_str("/>\n");
    }
    out.push_str("  </body>\n</opml>\n");
    out
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_outlines_are_read_and_written_back() {
        let text = r#"<?xml version="1.0"?><opml version="1.0"><head/><body>
            <outline text="Tech"><outline text="A &amp; B" xmlUrl="https://a.test/feed" htmlUrl="https://a.test/"/></outline>
            <outline title="C" text="ignored" type="rss" xmlUrl=" https://c.test/rss.xml "/>
            <outline text="folder without url"/></body></opml>"#;
        let outlines = parse(text).unwrap();
        assert_eq!(outlines.len(), 2);
        assert_eq!(outlines[0].title.as_deref(), Some("A & B"));
        assert_eq!(outlines[0].site_url.as_deref(), Some("https://a.test/"));
        assert_eq!(outlines[1].url, "https://c.test/rss.xml");
        assert_eq!(outlines[1].title.as_deref(), Some("C"));
        let written = write(&outlines, "2026-03-10T00:00:00.000Z");
        assert_eq!(parse(&written).unwrap(), outlines);
    }

    #[test]
    fn other_documents_are_refused() {
        assert!(
            parse("<rss version=\"2.0\"/>")
                .unwrap_err()
                .contains("<rss>")
        );
        assert!(parse("<opml><body>").unwrap_err().contains("not valid XML"));
        let dtd = "<!DOCTYPE opml [<!ENTITY x \"y\">]><opml/>";
        assert!(parse(dtd).is_err());
    }
}

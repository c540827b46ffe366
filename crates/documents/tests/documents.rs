//! Published documents read back by a second, independent reader
//! (python-docx): headings, list items, table cells, code and links of a new
//! `.docx`, and sections appended to a template with its own content kept.

use documents::{docx::to_docx, file_stem, html::to_html, template::append_section};

const MARKDOWN: &str = r#"# Launch plan

Intro with **bold**, *italic*, `inline code` and a [link](https://example.com/plan).

## Steps

- write docs
- ship it
  - nested detail

1. first
2. second

| Task | Owner |
| ---- | ----- |
| docs | ana   |
| ship | bo    |

```rust
fn main() {
    println!("hi");
}
```

> quoted <script>alert(1)</script>
"#;

/// Every paragraph as `style|text`, every table cell, and the hyperlink targets.
const DUMP: &str = r#"
import sys, json, docx
d = docx.Document(sys.argv[1])
out = {
  "paragraphs": [f"{p.style.name}|{p.text}" for p in d.paragraphs],
  "cells": [[c.text for c in row.cells] for t in d.tables for row in t.rows],
  "links": sorted(r.target_ref for r in d.part.rels.values() if r.reltype.endswith("/hyperlink")),
}
print(json.dumps(out))
"#;

const TEMPLATE: &str = r#"
import sys, docx
d = docx.Document()
d.add_heading("Team log", 0)
d.add_paragraph("Kept intro")
d.add_paragraph("kept item", style="List Bullet")
d.save(sys.argv[1])
"#;

fn dump(python: &std::path::Path, bytes: &[u8], dir: &std::path::Path) -> serde_json::Value {
    let path = dir.join("out.docx");
    std::fs::write(&path, bytes).unwrap();
    serde_json::from_str(&test_servers::run_python(
        python,
        DUMP,
        &[path.to_str().unwrap()],
    ))
    .unwrap()
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn markdown_becomes_a_real_docx() {
    let Some(python) = test_servers::python_with("docx") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bytes = to_docx("Launch", MARKDOWN).unwrap();
    let out = dump(&python, &bytes, dir.path());
    let paragraphs = strings(&out["paragraphs"]);
    let expect = [
        "Title|Launch",
        "Heading 1|Launch plan",
        "Normal|Intro with bold, italic, inline code and a link.",
        "Heading 2|Steps",
        "List Bullet|write docs",
        "List Bullet|ship it",
        "List Bullet|nested detail",
        "List Number|first",
        "List Number|second",
        "Code|fn main() {\n    println!(\"hi\");\n}",
        "Quote|quoted <script>alert(1)</script>",
    ];
    assert_eq!(paragraphs, expect);
    assert_eq!(
        out["cells"],
        serde_json::json!([["Task", "Owner"], ["docs", "ana"], ["ship", "bo"]])
    );
    assert_eq!(strings(&out["links"]), ["https://example.com/plan"]);
}

#[test]
fn sections_are_appended_to_a_template() {
    let Some(python) = test_servers::python_with("docx") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("template.docx");
    test_servers::run_python(&python, TEMPLATE, &[path.to_str().unwrap()]);
    let template = std::fs::read(&path).unwrap();

    let once = append_section(
        &template,
        "Monday",
        "## Done\n\n- [shipped](https://example.com/a)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    )
    .unwrap();
    let twice = append_section(&once, "Tuesday", "Plain *text*.").unwrap();
    let out = dump(&python, &twice, dir.path());
    assert_eq!(
        strings(&out["paragraphs"]),
        [
            "Title|Team log",
            "Normal|Kept intro",
            "List Bullet|kept item",
            "Heading 1|Monday",
            "Heading 3|Done",
            "List Bullet|• shipped",
            "Heading 1|Tuesday",
            "Normal|Plain text.",
        ]
    );
    assert_eq!(out["cells"], serde_json::json!([["a", "b"], ["1", "2"]]));
    assert_eq!(strings(&out["links"]), ["https://example.com/a"]);

    let refused = append_section(b"not a zip", "x", "y").unwrap_err();
    assert!(
        matches!(refused, documents::DocumentError::BadTemplate(_)),
        "{refused}"
    );
}

#[test]
fn html_is_a_page_with_raw_html_escaped() {
    let html = to_html("Plan <1>", MARKDOWN).unwrap();
    assert!(html.contains("<title>Plan &lt;1&gt;</title>"));
    assert!(html.contains("<h2>Steps</h2>"));
    assert!(html.contains("<td>ana</td>"));
    assert!(html.contains("<a href=\"https://example.com/plan\">link</a>"));
    assert!(!html.contains("<script>"), "raw HTML is shown as text");
    assert!(html.contains("&lt;script&gt;"));
}

#[test]
fn titles_become_safe_file_names() {
    assert_eq!(file_stem("Q3 plan: draft/v2"), "Q3 plan- draft-v2");
    assert_eq!(file_stem("../../etc/passwd"), "-..-etc-passwd");
    assert_eq!(file_stem(".."), "document");
    assert_eq!(file_stem("a\u{0}b"), "a-b");
    assert_eq!(file_stem(&"x".repeat(300)).len(), 100);
    let big = "a".repeat(documents::MAX_MARKDOWN_BYTES + 1);
    assert!(matches!(
        to_docx("t", &big),
        Err(documents::DocumentError::TooLarge { .. })
    ));
}

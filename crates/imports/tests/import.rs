//! URL import against real servers on 127.0.0.1: Python's `http.server`
//! serving a web page, a Markdown file, a PDF, a PNG and a file over the
//! limit, and a socket that answers too slowly.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

use imports::{ImportError, Limits, import_url};

fn limits() -> Limits {
    Limits {
        max_bytes: 64 * 1024,
        timeout: Duration::from_secs(2),
    }
}

/// A one-page PDF whose page says `text` in Helvetica, with a correct
/// cross-reference table.
fn pdf_saying(text: &str) -> Vec<u8> {
    let content = format!("BT /F1 18 Tf 72 700 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_owned(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
            .to_owned(),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (index, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", index + 1).as_bytes());
    }
    let xref_at = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

fn fixtures() -> (tempfile::TempDir, test_servers::Server) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("page.html"),
        "<!doctype html><html><head><title>Deploy guide</title>\
         <script>track()</script></head><body><h1>Deploy</h1>\
         <p>Run <code>make release</code>, then see <a href=\"https://example.org/ops\">ops</a>.</p>\
         <table><tr><th>Step</th><th>Who</th></tr><tr><td>Build</td><td>CI</td></tr></table>\
         </body></html>",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.md"), "# Notes\n\n- one\n- two\n").unwrap();
    std::fs::write(
        dir.path().join("plan.pdf"),
        pdf_saying("Quarterly plan for imports"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("logo.png"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89",
    )
    .unwrap();
    std::fs::write(dir.path().join("huge.txt"), "x".repeat(200 * 1024)).unwrap();
    let server = test_servers::serve_directory(dir.path());
    (dir, server)
}

#[test]
fn documents_of_each_kind_become_markdown_with_their_source() {
    let (_dir, server) = fixtures();

    let page = import_url(&server.url("page.html"), limits()).unwrap();
    assert_eq!(page.title, "Deploy guide");
    assert!(page.markdown.starts_with("# Deploy"), "{}", page.markdown);
    assert!(
        page.markdown.contains("`make release`"),
        "{}",
        page.markdown
    );
    assert!(page.markdown.contains("[ops](https://example.org/ops)"));
    assert!(page.markdown.contains("| Build | CI"), "{}", page.markdown);
    assert!(page.markdown.contains("| ----- |"), "{}", page.markdown);
    assert!(!page.markdown.contains("track()"));
    assert!(
        page.markdown.ends_with("| Build | CI  |\n"),
        "{}",
        page.markdown
    );
    assert_eq!(page.source, server.url("page.html"));

    let notes = import_url(&format!(" {} ", server.url("notes.md")), limits()).unwrap();
    assert_eq!(notes.title, "Notes");
    assert_eq!(notes.markdown, "# Notes\n\n- one\n- two\n");

    let pdf = import_url(&server.url("plan.pdf"), limits()).unwrap();
    assert!(
        pdf.markdown.contains("Quarterly plan for imports"),
        "{}",
        pdf.markdown
    );
    assert_eq!(pdf.title, "plan.pdf");
}

#[test]
fn binary_oversized_and_missing_documents_are_refused_with_the_reason() {
    let (_dir, server) = fixtures();

    let binary = import_url(&server.url("logo.png"), limits()).unwrap_err();
    assert!(matches!(binary, ImportError::NotText { .. }), "{binary}");
    assert!(binary.to_string().contains("image/png"), "{binary}");

    let huge = import_url(&server.url("huge.txt"), limits()).unwrap_err();
    assert!(matches!(huge, ImportError::TooLarge { .. }), "{huge}");
    assert!(huge.to_string().contains("1 MiB"), "{huge}");

    let missing = import_url(&server.url("nowhere.md"), limits()).unwrap_err();
    assert!(missing.to_string().contains("HTTP 404"), "{missing}");

    let refused = {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        import_url(&format!("http://127.0.0.1:{port}/"), limits()).unwrap_err()
    };
    assert!(refused.to_string().contains("refused"), "{refused}");
}

#[test]
fn a_server_that_answers_too_slowly_is_cut_off_at_the_time_limit() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            std::thread::spawn(move || {
                let mut request = [0u8; 1024];
                let _ = stream.read(&mut request);
                // Headers at once, then a body that trickles for longer
                // than the limit: only a whole-exchange timeout stops it.
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n",
                );
                for _ in 0..100 {
                    if stream.write_all(b"x").is_err() {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
            });
        }
    });
    let started = Instant::now();
    let error = import_url(&format!("http://127.0.0.1:{port}/slow.txt"), limits()).unwrap_err();
    assert!(
        matches!(error, ImportError::TimedOut { seconds: 2, .. }),
        "{error}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

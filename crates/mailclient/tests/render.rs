//! Rendering real-shaped mail (Gmail, Outlook, Apple Mail, a list, a broken
//! one) for the reading pane: sanitized HTML, remote images blocked, `cid:`
//! images served by the app, attachments listed, broken MIME shown as text.

use mailclient::{RenderOptions, content_security_policy, part, render};

const PART_URL: &str = "/mail/messages/7/parts/{part}";

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn blocked() -> RenderOptions<'static> {
    RenderOptions {
        block_remote_images: true,
        part_url: PART_URL,
    }
}

fn allowed() -> RenderOptions<'static> {
    RenderOptions {
        block_remote_images: false,
        part_url: PART_URL,
    }
}

#[test]
fn gmail_html_is_sanitized_and_its_images_rewritten() {
    let raw = fixture("gmail.eml");
    let shown = render(&raw, &blocked());
    assert_eq!(shown.subject, "Re: Trip photos");
    let from = shown.from.as_ref().unwrap();
    assert_eq!(from.address, "bob.lee@gmail.com");
    assert_eq!(from.name.as_deref(), Some("Bob Lee"));
    assert_eq!(shown.to.len(), 1);
    assert_eq!(shown.cc.len(), 2);
    assert_eq!(shown.date, Some(1_741_108_351));
    assert_eq!(
        shown.message_id.as_deref(),
        Some("CAJx9nK=tripPhotos4@mail.gmail.com")
    );
    assert_eq!(
        shown.references,
        ["CAB1root@mail.gmail.com", "CAB2middle@mail.gmail.com"]
    );
    assert_eq!(shown.malformed, None);
    assert!(shown.text.starts_with("Here they are!"), "{}", shown.text);

    let html = &shown.html;
    assert!(!html.contains("<script"), "{html}");
    assert!(!html.contains("alert(1)"), "{html}");
    assert!(!html.contains("<form"), "{html}");
    assert!(!html.contains("<input"), "{html}");
    assert!(!html.contains("onclick"), "{html}");
    assert!(
        html.contains("target=\"_blank\"") && html.contains("rel=\"noopener noreferrer\""),
        "{html}"
    );
    // The tracking pixel cannot load: no https src is left, its URL is kept aside.
    assert_eq!(shown.remote_images, 1);
    assert!(!html.contains(" src=\"https://"), "{html}");
    assert!(
        html.contains("data-blocked-src=\"https://tracker.example.com/open.gif?u=9\""),
        "{html}"
    );
    // The inline image points at the app's part URL.
    let image = shown
        .attachments
        .iter()
        .find(|a| a.content_id.as_deref() == Some("ii_m7t2beach0"))
        .unwrap();
    assert!(image.inline);
    assert_eq!(image.content_type, "image/png");
    assert_eq!(image.name.as_deref(), Some("beach.png"));
    assert_eq!(image.size, 70);
    let url = PART_URL.replace("{part}", &image.id);
    assert!(html.contains(&format!("src=\"{url}\"")), "{html}");
    let served = part(&raw, &image.id).unwrap();
    assert_eq!(served.content_type, "image/png");
    assert_eq!(&served.bytes[1..4], b"PNG");
    assert_eq!(shown.attachments.len(), 1, "{:?}", shown.attachments);
}

#[test]
fn remote_images_stay_when_allowed() {
    let shown = render(&fixture("gmail.eml"), &allowed());
    assert_eq!(shown.remote_images, 1);
    assert!(
        shown
            .html
            .contains("src=\"https://tracker.example.com/open.gif?u=9\""),
        "{}",
        shown.html
    );
    assert!(!shown.html.contains("data-blocked"), "{}", shown.html);
}

#[test]
fn outlook_styles_are_kept_only_when_they_load_nothing() {
    let shown = render(&fixture("outlook.eml"), &blocked());
    let html = &shown.html;
    assert!(
        shown.text.contains("attached \u{2013} revenue"),
        "{}",
        shown.text
    );
    assert!(html.contains("attached \u{2013} revenue"), "{html}");
    assert!(
        html.contains("p.MsoNormal"),
        "the harmless stylesheet stays: {html}"
    );
    assert!(!html.contains("@import"), "{html}");
    assert!(!html.contains("contoso.example/bg.png"), "{html}");
    assert!(!html.contains("track.css"), "{html}");
    assert!(!html.contains("Leaked title"), "{html}");
    assert!(!html.contains("onload"), "{html}");
    assert!(!html.contains("javascript:"), "{html}");
    assert!(!html.contains("/relative"), "{html}");
    assert!(!html.contains("http-equiv"), "{html}");
    // The inline style's image is dropped, the rest of the declaration kept.
    assert!(!html.contains("cell.png"), "{html}");
    assert!(html.contains("color:#1F497D"), "{html}");
    assert!(
        html.contains("data-blocked-background=\"https://contoso.example/table.png\""),
        "{html}"
    );
    assert!(
        html.contains("data-blocked-srcset=\"https://contoso.example/logo.png 1x"),
        "{html}"
    );
    assert!(!html.contains(" srcset=\"https"), "{html}");
    assert!(!html.contains(" background=\"https"), "{html}");
    // bg.png (its stylesheet kept, the URL gone), cell.png, table.png, both logos.
    assert!(html.contains("body { background: none; }"), "{html}");
    assert_eq!(shown.remote_images, 5, "{html}");
    let sheet = &shown.attachments[0];
    assert_eq!(sheet.name.as_deref(), Some("Q1 figures.xlsx"));
    assert!(!sheet.inline);
    assert_eq!(
        sheet.content_type,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    assert_eq!(shown.attachments.len(), 1, "{:?}", shown.attachments);
}

#[test]
fn apple_mail_text_gets_links_and_folded_quotes() {
    let shown = render(&fixture("apple.eml"), &blocked());
    assert_eq!(shown.malformed, None);
    let html = &shown.html;
    assert!(
        html.contains("<a href=\"https://recipes.example.com/tart\" target=\"_blank\" rel=\"noopener noreferrer\">"),
        "the link ends before the full stop: {html}"
    );
    assert!(
        html.contains("<details><summary>3 quoted lines</summary><blockquote>"),
        "{html}"
    );
    assert!(html.contains("Shall I bring wine?"), "{html}");
    assert!(
        html.contains("<details><summary>1 quoted line</summary>"),
        "nested quote: {html}"
    );
    let pdf = &shown.attachments[0];
    assert_eq!(pdf.name.as_deref(), Some("menu.pdf"));
    assert_eq!(pdf.content_type, "application/pdf");
    assert!(!pdf.inline);
    assert!(
        part(&fixture("apple.eml"), &pdf.id)
            .unwrap()
            .bytes
            .starts_with(b"%PDF")
    );
}

#[test]
fn a_list_mail_renders() {
    let shown = render(&fixture("list.eml"), &blocked());
    assert_eq!(shown.malformed, None);
    assert!(shown.html.contains("Spring sale!"), "{}", shown.html);
    assert_eq!(shown.remote_images, 0);
    assert!(shown.attachments.is_empty());
}

#[test]
fn malformed_mime_is_shown_as_text_with_its_parts() {
    let raw = fixture("malformed.eml");
    let shown = render(&raw, &blocked());
    let note = shown.malformed.as_deref().unwrap();
    assert!(note.contains("closing boundary is missing"), "{note}");
    assert!(note.contains("x-klingon-9"), "{note}");
    assert!(
        shown.text.contains("Please find the invoice attached."),
        "{}",
        shown.text
    );
    assert!(
        shown.html.starts_with("<div style=\"white-space:pre-wrap"),
        "{}",
        shown.html
    );
    assert!(!shown.html.contains("<b>"), "shown as text: {}", shown.html);
    let names: Vec<_> = shown
        .attachments
        .iter()
        .map(|a| a.content_type.as_str())
        .collect();
    assert!(names.contains(&"application/pdf"), "{names:?}");
    assert!(names.contains(&"text/html"), "{names:?}");
}

#[test]
fn hostile_bytes_never_panic() {
    let cases: [&[u8]; 6] = [
        b"",
        b"\xff\xfe\x00garbage",
        b"Content-Type: multipart/mixed; boundary=\"\"\r\n\r\n--\r\n--",
        b"Subject: =?utf-8?B?////?=\r\nContent-Type: text/html\r\n\r\n<img src=x onerror=alert(1)><svg><style>@import 'x'</style></svg>",
        b"Content-Type: multipart/related; boundary=a\r\n\r\n--a\r\nContent-Type: message/rfc822\r\n\r\n--a--",
        b"From: x\r\nContent-Type: text/html\r\n\r\n<style>a{b:url(data:image/png,</style><script>x</script>)}</style>",
    ];
    for raw in cases {
        let shown = render(raw, &blocked());
        assert!(!shown.html.contains("<script"), "{}", shown.html);
        assert!(!shown.html.contains("onerror"), "{}", shown.html);
        assert!(!shown.html.contains("@import"), "{}", shown.html);
    }
    assert!(render(b"", &blocked()).malformed.is_some());
}

#[test]
fn the_frame_policy_runs_nothing_and_loads_remote_images_only_when_allowed() {
    let strict = content_security_policy(false);
    assert!(strict.starts_with("default-src 'none';"), "{strict}");
    assert!(strict.contains("img-src data: 'self';"), "{strict}");
    assert!(strict.contains("style-src 'unsafe-inline'"), "{strict}");
    assert!(strict.contains("sandbox"), "{strict}");
    assert!(!strict.contains("allow-scripts"), "{strict}");
    assert!(!strict.contains("allow-forms"), "{strict}");
    assert!(!strict.contains("allow-same-origin"), "{strict}");
    assert!(!strict.contains("https:"), "{strict}");
    let open = content_security_policy(true);
    assert!(open.contains("img-src data: 'self' https:;"), "{open}");
}

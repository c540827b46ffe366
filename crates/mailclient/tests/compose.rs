//! Writing mail: Markdown to a text and an HTML part, threading headers,
//! subjects, reply-all recipients, forwarded attachments and the limits,
//! each read back with mail-parser as a receiving client would.

use mail_parser::{MessageParser, MimeHeaders};
use mailclient::{
    Address, ComposeError, Draft, MAX_ATTACHMENT_BYTES, MAX_REFERENCES, OutgoingAttachment, Parent,
    Purpose, RenderOptions, compose, forward_subject, forwarded_attachments, markdown_to_html,
    parent_of, references, render, reply_all, reply_subject, reply_to,
};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn options() -> RenderOptions<'static> {
    RenderOptions {
        block_remote_images: true,
        part_url: "/parts/{part}",
    }
}

fn ana() -> Address {
    Address::new(Some("Ana Silva"), "ana@example.org")
}

fn draft() -> Draft {
    Draft {
        from: ana(),
        to: vec![Address::new(Some("Bob Lee"), "bob.lee@gmail.com")],
        cc: vec![],
        bcc: vec![Address::new(None, "secret@example.com")],
        subject: "Lunch".to_owned(),
        markdown: "Shall we meet **Friday**?\n\n- noon\n- <script>x()</script>one\n".to_owned(),
        in_reply_to: None,
        attachments: vec![],
    }
}

const DATE: i64 = 1_741_108_351;

#[test]
fn markdown_goes_out_as_text_and_sanitized_html() {
    let sent = compose(&draft(), DATE, Purpose::Send).unwrap();
    let message = MessageParser::default().parse(&sent.bytes).unwrap();
    assert_eq!(message.subject(), Some("Lunch"));
    assert_eq!(message.date().unwrap().to_timestamp(), DATE);
    assert_eq!(message.message_id(), Some(sent.message_id.as_str()));
    assert!(
        sent.message_id.ends_with("@example.org"),
        "{}",
        sent.message_id
    );
    assert!(
        message
            .body_text(0)
            .unwrap()
            .contains("Shall we meet **Friday**?")
    );
    let html = message.body_html(0).unwrap();
    assert!(html.contains("<strong>Friday</strong>"), "{html}");
    assert!(html.contains("<li>noon</li>"), "{html}");
    assert!(!html.contains("<script"), "{html}");
    // Bcc is in the envelope only.
    assert!(message.bcc().is_none());
    assert!(!String::from_utf8_lossy(&sent.bytes).contains("secret@"));
    assert_eq!(sent.recipients, ["bob.lee@gmail.com", "secret@example.com"]);
    assert_eq!(sent.envelope_from, "ana@example.org");
    // A draft keeps its Bcc to reopen whole.
    let kept = compose(&draft(), DATE, Purpose::Draft).unwrap();
    let message = MessageParser::default().parse(&kept.bytes).unwrap();
    assert_eq!(
        message.bcc().unwrap().first().unwrap().address(),
        Some("secret@example.com")
    );
    assert_ne!(kept.message_id, sent.message_id);
}

#[test]
fn a_reply_is_threaded_under_its_parent() {
    let parent = parent_of(&fixture("gmail.eml")).unwrap();
    let mut reply = draft();
    reply.subject = reply_subject(&parent.subject);
    reply.in_reply_to = Some(parent);
    let sent = compose(&reply, DATE, Purpose::Send).unwrap();
    let message = MessageParser::default().parse(&sent.bytes).unwrap();
    assert_eq!(message.subject(), Some("Re: Trip photos"));
    assert_eq!(
        message.in_reply_to().as_text(),
        Some("CAJx9nK=tripPhotos4@mail.gmail.com")
    );
    let refs: Vec<&str> = message
        .references()
        .as_text_list()
        .unwrap()
        .iter()
        .map(|r| r.as_ref())
        .collect();
    assert_eq!(
        refs,
        [
            "CAB1root@mail.gmail.com",
            "CAB2middle@mail.gmail.com",
            "CAJx9nK=tripPhotos4@mail.gmail.com"
        ]
    );
}

#[test]
fn long_references_keep_the_root_and_the_latest() {
    let parent = Parent {
        message_id: Some("m30@x".to_owned()),
        references: (0..30).map(|i| format!("m{i}@x")).collect(),
        subject: String::new(),
    };
    let refs = references(&parent);
    assert_eq!(refs.len(), MAX_REFERENCES);
    assert_eq!(refs[0], "m0@x");
    assert_eq!(refs[1], "m12@x");
    assert_eq!(refs.last().unwrap(), "m30@x");
}

#[test]
fn subjects_get_one_prefix() {
    assert_eq!(reply_subject("Trip"), "Re: Trip");
    assert_eq!(reply_subject("Re: Trip"), "Re: Trip");
    assert_eq!(reply_subject("RE: Re: AW: Trip"), "Re: Trip");
    assert_eq!(reply_subject("Re[2]: Trip"), "Re: Trip");
    assert_eq!(reply_subject("Fwd: Trip"), "Re: Fwd: Trip");
    assert_eq!(reply_subject("Meeting: Friday"), "Re: Meeting: Friday");
    assert_eq!(forward_subject("Trip"), "Fwd: Trip");
    assert_eq!(forward_subject("FW: Fwd: Trip"), "Fwd: Trip");
    assert_eq!(forward_subject("Re: Trip"), "Fwd: Re: Trip");
}

#[test]
fn reply_all_leaves_out_self_and_duplicates() {
    let parent = render(&fixture("gmail.eml"), &options());
    let (to, cc) = reply_all(&parent, &["ANA@example.org".to_owned()]);
    let to: Vec<_> = to.iter().map(|a| a.address.as_str()).collect();
    let cc: Vec<_> = cc.iter().map(|a| a.address.as_str()).collect();
    assert_eq!(to, ["bob.lee@gmail.com"]);
    assert_eq!(cc, ["carol@example.net"]);
    assert_eq!(reply_to(&parent)[0].address, "bob.lee@gmail.com");

    let spam = render(&fixture("spam.eml"), &options());
    assert_eq!(reply_to(&spam)[0].address, "claims@another-domain.example");
    // Answering one's own message goes to its recipients again.
    let own = render(
        b"From: ana@example.org\r\nTo: bob@example.com, ana@example.org\r\nCc: bob@example.com\r\nSubject: x\r\n\r\nhi\r\n",
        &options(),
    );
    let (to, cc) = reply_all(&own, &["ana@example.org".to_owned()]);
    assert_eq!(
        to.iter().map(|a| a.address.as_str()).collect::<Vec<_>>(),
        ["bob@example.com"]
    );
    assert!(cc.is_empty());
}

#[test]
fn a_forward_carries_the_original_attachments() {
    let attachments = forwarded_attachments(&fixture("apple.eml"));
    assert_eq!(attachments.len(), 1);
    assert_eq!(attachments[0].name, "menu.pdf");
    assert_eq!(attachments[0].content_type, "application/pdf");
    assert!(attachments[0].bytes.starts_with(b"%PDF"));
    let mut forward = draft();
    forward.subject = forward_subject("Menu for Saturday");
    forward.attachments = attachments;
    let sent = compose(&forward, DATE, Purpose::Send).unwrap();
    let message = MessageParser::default().parse(&sent.bytes).unwrap();
    let attached = message.attachment(0).unwrap();
    assert_eq!(attached.attachment_name(), Some("menu.pdf"));
    assert!(attached.contents().starts_with(b"%PDF"));
    // The inline image of a Gmail mail goes along too.
    let gmail = forwarded_attachments(&fixture("gmail.eml"));
    assert_eq!(gmail.len(), 1);
    assert_eq!(gmail[0].name, "beach.png");
}

#[test]
fn oversized_attachments_are_refused_by_name() {
    let mut big = draft();
    big.attachments = vec![OutgoingAttachment {
        name: "video.mp4".to_owned(),
        content_type: "video/mp4".to_owned(),
        bytes: vec![0; MAX_ATTACHMENT_BYTES + 1],
    }];
    let error = compose(&big, DATE, Purpose::Send).unwrap_err();
    assert!(matches!(error, ComposeError::AttachmentTooLarge { .. }));
    assert!(error.to_string().contains("video.mp4"), "{error}");
    assert!(
        error
            .to_string()
            .contains(&MAX_ATTACHMENT_BYTES.to_string()),
        "{error}"
    );

    let mut many = draft();
    many.attachments = (0..2)
        .map(|i| OutgoingAttachment {
            name: format!("part{i}.bin"),
            content_type: "application/octet-stream".to_owned(),
            bytes: vec![0; MAX_ATTACHMENT_BYTES - 1],
        })
        .collect();
    assert!(matches!(
        compose(&many, DATE, Purpose::Send),
        Err(ComposeError::AttachmentsTooLarge { .. })
    ));
}

#[test]
fn bad_input_is_refused_not_sent() {
    let mut nobody = draft();
    nobody.to.clear();
    nobody.bcc.clear();
    assert!(matches!(
        compose(&nobody, DATE, Purpose::Send),
        Err(ComposeError::NoRecipients)
    ));
    assert!(compose(&nobody, DATE, Purpose::Draft).is_ok());

    let mut injected = draft();
    injected.to = vec![Address::new(
        None,
        "bob@example.com>\r\nBcc: all@example.com",
    )];
    assert!(matches!(
        compose(&injected, DATE, Purpose::Send),
        Err(ComposeError::BadAddress(_))
    ));

    let mut subject = draft();
    subject.subject = "Hi\r\nBcc: all@example.com".to_owned();
    let sent = compose(&subject, DATE, Purpose::Send).unwrap();
    let message = MessageParser::default().parse(&sent.bytes).unwrap();
    assert!(message.bcc().is_none());
}

#[test]
fn markdown_html_is_sanitized() {
    let html = markdown_to_html("[x](javascript:alert(1)) <img src=x onerror=y> ~~old~~");
    assert!(!html.contains("javascript:"), "{html}");
    assert!(!html.contains("onerror"), "{html}");
    assert!(html.contains("<del>old</del>"), "{html}");
}

//! Answers by SMTP (lettre): the session's final message as a reply in the
//! mail's thread, or the polite refusal. Both carry `In-Reply-To` (the
//! mail's Message-ID), `References` (the mail's, then its Message-ID), a
//! fresh Message-ID on our address's domain, and `Auto-Submitted:
//! auto-replied`, so other machines do not answer them (RFC 3834).

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, Message};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::Tls as SmtpTls;
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};

use crate::config::{Account, Tls};
use crate::{Mail, MailError, Trust};

/// A mail that went out: its Message-ID (bare), to link to the thread.
#[derive(Debug, Clone, PartialEq)]
pub struct Sent {
    pub message_id: String,
    pub to: String,
}

/// What a sender who is not approved gets, once a day at most.
pub const REFUSAL: &str = "Hello,\n\nThis address is answered by an automated assistant that takes \
requests only from approved senders, so your message was not acted on. \
If you think you should be on that list, please ask the person who runs it.\n";

pub struct Mailer {
    from: String,
    transport: AsyncSmtpTransport<Tokio1Executor>,
}

impl Mailer {
    /// `password` is the value of the saved key `account.smtp`'s
    /// `password_key` names (ignored when it names none).
    pub fn new(
        account: &Account,
        password: Option<&str>,
        trust: &Trust,
    ) -> Result<Self, MailError> {
        let smtp = &account.smtp;
        let tls = match smtp.tls {
            Tls::None => SmtpTls::None,
            Tls::Implicit => SmtpTls::Wrapper(trust.smtp_parameters(&smtp.host)?),
            Tls::Starttls => SmtpTls::Required(trust.smtp_parameters(&smtp.host)?),
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host)
            .port(smtp.port)
            .tls(tls);
        if let (Some((username, _)), Some(password)) = (smtp.login(), password) {
            builder =
                builder.credentials(Credentials::new(username.to_owned(), password.to_owned()));
        }
        Ok(Self {
            from: account.address.clone(),
            transport: builder.build(),
        })
    }

    /// Sends the polite refusal ([`REFUSAL`]) to the sender of `original`.
    pub async fn refuse(&self, original: &Mail) -> Result<Sent, MailError> {
        self.reply(original, REFUSAL).await
    }

    /// Sends `body` as the answer to `original`.
    pub async fn reply(&self, original: &Mail, body: &str) -> Result<Sent, MailError> {
        let (message, sent) = build_reply(&self.from, original, body)?;
        self.transport.send(message).await?;
        Ok(sent)
    }
}

impl Mailer {
    /// Sends a new message of Switchboard's own (a report, a crash, the
    /// weekly digest) to `to`, marked `Auto-Submitted: auto-generated`.
    pub async fn send_new(&self, to: &str, subject: &str, body: &str) -> Result<Sent, MailError> {
        let bad = |what: &str, e: &dyn std::fmt::Display| MailError::Build(format!("{what}: {e}"));
        let from_box: Mailbox = self.from.parse().map_err(|e| bad("our address", &e))?;
        let to_box: Mailbox = to.parse().map_err(|e| bad("the reports' address", &e))?;
        let domain = self
            .from
            .rsplit_once('@')
            .map(|(_, d)| d)
            .unwrap_or("localhost");
        let message_id = format!("{}@{domain}", uuid::Uuid::new_v4().simple());
        let message = Message::builder()
            .from(from_box)
            .to(to_box)
            .subject(subject)
            .message_id(Some(format!("<{message_id}>")))
            .header(ContentType::TEXT_PLAIN)
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("Auto-Submitted"),
                "auto-generated".to_owned(),
            ))
            .body(body.to_owned())
            .map_err(|e| bad("the message", &e))?;
        self.transport.send(message).await?;
        Ok(Sent {
            message_id,
            to: to.to_owned(),
        })
    }
}

/// The reply to `original` from `from`, and what identifies it.
pub fn build_reply(from: &str, original: &Mail, body: &str) -> Result<(Message, Sent), MailError> {
    let bad = |what: &str, e: &dyn std::fmt::Display| MailError::Build(format!("{what}: {e}"));
    let to = original
        .reply_to
        .as_deref()
        .ok_or_else(|| MailError::Build("the mail has no sender to answer".to_owned()))?;
    let from_box: Mailbox = from.parse().map_err(|e| bad("our address", &e))?;
    let to_box: Mailbox = to.parse().map_err(|e| bad("the sender's address", &e))?;
    let domain = from.rsplit_once('@').map(|(_, d)| d).unwrap_or("localhost");
    let message_id = format!("{}@{domain}", uuid::Uuid::new_v4().simple());
    let mut builder = Message::builder()
        .from(from_box)
        .to(to_box)
        .subject(reply_subject(&original.subject))
        .message_id(Some(format!("<{message_id}>")))
        .header(ContentType::TEXT_PLAIN)
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-replied".to_owned(),
        ));
    if let Some(parent) = &original.message_id {
        let mut thread: Vec<&str> = original.references.iter().map(String::as_str).collect();
        if original.references.is_empty() {
            thread.extend(original.in_reply_to.iter().map(String::as_str));
        }
        thread.push(parent);
        let references: Vec<String> = thread.iter().map(|id| format!("<{id}>")).collect();
        builder = builder
            .in_reply_to(format!("<{parent}>"))
            .references(references.join(" "));
    }
    let message = builder
        .body(body.to_owned())
        .map_err(|e| bad("the message", &e))?;
    Ok((
        message,
        Sent {
            message_id,
            to: to.to_owned(),
        },
    ))
}

/// `Re: ` once, however many the subject already has (any case).
pub fn reply_subject(subject: &str) -> String {
    let mut rest = subject.trim();
    while let Some(prefix) = rest.get(..3)
        && prefix.eq_ignore_ascii_case("re:")
    {
        rest = rest[3..].trim_start();
    }
    format!("Re: {rest}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn original() -> Mail {
        crate::parse(
            b"From: ann@example.com\r\nSubject: RE: re: Build\r\nMessage-ID: <m2@example.com>\r\n\
              In-Reply-To: <m1@example.com>\r\nReferences: <m0@example.com> <m1@example.com>\r\n\r\nhi\r\n",
        )
        .unwrap()
    }

    #[test]
    fn a_reply_continues_the_thread() {
        let (message, sent) = build_reply("agent@switchboard.test", &original(), "Done.").unwrap();
        let raw = message.formatted();
        let back = crate::parse(&raw).unwrap();
        assert_eq!(back.subject, "Re: Build");
        assert_eq!(back.in_reply_to, ["m2@example.com"]);
        assert_eq!(
            back.references,
            ["m0@example.com", "m1@example.com", "m2@example.com"]
        );
        assert_eq!(back.message_id.as_deref(), Some(sent.message_id.as_str()));
        assert!(sent.message_id.ends_with("@switchboard.test"));
        assert_eq!(sent.to, "ann@example.com");
        assert!(back.automated.is_some_and(|r| r.contains("auto-replied")));
        assert_eq!(back.text.trim(), "Done.");
    }

    #[test]
    fn the_subject_gets_one_re() {
        assert_eq!(reply_subject("Build"), "Re: Build");
        assert_eq!(reply_subject("Re: RE:re:  Build"), "Re: Build");
        assert_eq!(reply_subject(""), "Re: ");
        assert_eq!(reply_subject("Réunion"), "Re: Réunion");
        assert_eq!(reply_subject("ééé"), "Re: ééé");
    }
}

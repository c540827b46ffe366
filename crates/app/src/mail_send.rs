//! Sending from the person's account (`POST /mail/send`): the `mailclient`
//! crate composes the Markdown as text and HTML (threaded with
//! In-Reply-To and References when it answers a message), lettre hands it
//! to the account's SMTP server, and a copy goes to the Sent folder by
//! IMAP APPEND unless the server files sent mail itself (Gmail does). A
//! send that fails keeps the message in Drafts and returns the error, so
//! nothing the person wrote is lost.

use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use crate::mail_accounts::Reach;
use crate::mail_error::{MailClientError, off_thread};
use crate::mail_reads;
use crate::services::App;

/// A message to send, as the page writes it.
#[derive(Debug, Clone)]
pub struct Outgoing {
    pub account: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub bcc: Vec<String>,
    pub subject: String,
    pub markdown: String,
    /// The id (`messages[].id` of a thread) of the message this answers.
    pub in_reply_to: Option<String>,
    pub attachments: Vec<mailclient::OutgoingAttachment>,
}

/// `POST /mail/send`'s answer.
#[derive(Debug, Clone, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailSent {
    /// The new message's Message-ID, bare.
    pub message_id: String,
    /// Whether a copy was appended to Sent (false where the server files it).
    pub saved_to_sent: bool,
}

impl App {
    pub async fn mail_send(&self, owner: &str, out: Outgoing) -> Result<MailSent, MailClientError> {
        let reach = self.mail_reach(owner, &out.account).await?;
        let parent = match out.in_reply_to.as_deref() {
            Some(id) if mail_reads::parse_public_id(id).is_none_or(|(a, _)| a != out.account) => {
                return Err(MailClientError::invalid(
                    "inReplyTo",
                    "must be a message of the sending account (a thread's messages[].id)",
                ));
            }
            Some(id) => Some(self.parent_of(owner, id).await?),
            None => None,
        };
        let addresses = |field: &'static str,
                         list: &[String]|
         -> Result<Vec<mailclient::Address>, MailClientError> {
            list.iter()
                .flat_map(|item| item.split(','))
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(|a| {
                    let bare = crate::mail_arrivals::bare_address(a);
                    if bare.contains('@') && !bare.contains(char::is_whitespace) {
                        Ok(mailclient::Address::new(None, &bare))
                    } else {
                        Err(MailClientError::invalid(
                            field,
                            format!("{a:?} is not a mail address"),
                        ))
                    }
                })
                .collect()
        };
        let draft = mailclient::Draft {
            from: mailclient::Address::new(
                Some(&reach.account.name)
                    .filter(|n| **n != reach.account.address)
                    .map(String::as_str),
                &reach.account.address,
            ),
            to: addresses("to", &out.to)?,
            cc: addresses("cc", &out.cc)?,
            bcc: addresses("bcc", &out.bcc)?,
            subject: out.subject,
            markdown: out.markdown,
            in_reply_to: parent,
            attachments: out.attachments,
        };
        let now = self.clock.now().unix_timestamp();
        let composed =
            mailclient::compose(&draft, now, mailclient::Purpose::Send).map_err(compose_error)?;
        if let Err(error) = smtp_send(&reach, &composed).await {
            let kept = match mailclient::compose(&draft, now, mailclient::Purpose::Draft) {
                Ok(as_draft) => self
                    .append_to_role(
                        &reach,
                        &out.account,
                        mailclient::Role::Drafts,
                        &as_draft.bytes,
                        "(\\Draft \\Seen)",
                    )
                    .await
                    .is_ok(),
                Err(_) => false,
            };
            let kept = if kept {
                "; the message was kept in Drafts"
            } else {
                ""
            };
            return Err(MailClientError::Unreachable(format!(
                "The mail was not sent: {error}{kept}."
            )));
        }
        let saved_to_sent = !files_sent_itself(&reach)
            && self
                .append_to_role(
                    &reach,
                    &out.account,
                    mailclient::Role::Sent,
                    &composed.bytes,
                    "(\\Seen)",
                )
                .await
                .map_err(|error| tracing::warn!(%error, "a sent mail was not copied to Sent"))
                .is_ok();
        self.mail.wake.notify_one();
        Ok(MailSent {
            message_id: composed.message_id,
            saved_to_sent,
        })
    }

    /// What a reply to message `id` threads on.
    async fn parent_of(
        &self,
        owner: &str,
        id: &str,
    ) -> Result<mailclient::Parent, MailClientError> {
        let raw = self
            .mail_message_raw(owner, id)
            .await
            .map_err(|e| match e {
                MailClientError::NotFound(message) => {
                    MailClientError::invalid("inReplyTo", message)
                }
                other => other,
            })?;
        mailclient::parent_of(&raw).ok_or_else(|| {
            MailClientError::invalid("inReplyTo", "names a message that cannot be read")
        })
    }

    /// Appends `bytes` to the account's folder of `role` (fails when it has none).
    async fn append_to_role(
        &self,
        reach: &Reach,
        account: &str,
        role: mailclient::Role,
        bytes: &[u8],
        flags: &str,
    ) -> Result<(), MailClientError> {
        let folder = {
            let (app, account) = (self.clone(), account.to_owned());
            off_thread(move || Ok(app.mail.store.folder_with_role(&account, role)?)).await?
        }
        .ok_or_else(|| {
            MailClientError::NotFound(format!("The account has no {} folder.", role.as_str()))
        })?;
        let mut session = reach.login().open().await?;
        session
            .append(&folder, Some(flags), None, bytes)
            .await
            .map_err(mailclient::ClientError::from)?;
        let _ = session.logout().await;
        Ok(())
    }
}

fn compose_error(error: mailclient::ComposeError) -> MailClientError {
    let field = match &error {
        mailclient::ComposeError::AttachmentTooLarge { .. }
        | mailclient::ComposeError::AttachmentsTooLarge { .. } => "attachments",
        mailclient::ComposeError::NoRecipients | mailclient::ComposeError::BadAddress(_) => "to",
        mailclient::ComposeError::Build(_) => "markdown",
    };
    MailClientError::invalid(field, error.to_string())
}

/// Gmail files what its SMTP server sends in Sent itself; an APPEND would
/// make a second copy.
fn files_sent_itself(reach: &Reach) -> bool {
    let host = reach.servers.smtp.host.to_ascii_lowercase();
    host.ends_with("gmail.com") || host.ends_with("googlemail.com")
}

async fn smtp_send(reach: &Reach, composed: &mailclient::Composed) -> Result<(), String> {
    let smtp = &reach.servers.smtp;
    let parameters = || -> Result<TlsParameters, String> {
        let mut builder = TlsParameters::builder(smtp.host.clone())
            .certificate_store(CertificateStore::WebpkiRoots);
        if let Some(pem) = &reach.ca_pem {
            builder = builder
                .add_root_certificate(Certificate::from_pem(pem).map_err(|e| e.to_string())?);
        }
        builder.build_rustls().map_err(|e| e.to_string())
    };
    let tls = match smtp.tls {
        mail::Tls::None => Tls::None,
        mail::Tls::Implicit => Tls::Wrapper(parameters()?),
        mail::Tls::Starttls => Tls::Required(parameters()?),
    };
    let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host)
        .port(smtp.port)
        .tls(tls)
        .timeout(Some(std::time::Duration::from_secs(60)));
    if let (Some(username), Some(password)) =
        (smtp.username.as_deref(), reach.smtp_password.as_deref())
    {
        builder = builder.credentials(Credentials::new(username.to_owned(), password.to_owned()));
    }
    let envelope = lettre::address::Envelope::new(
        composed.envelope_from.parse().ok(),
        composed
            .recipients
            .iter()
            .map(|r| r.parse().map_err(|e| format!("{r}: {e}")))
            .collect::<Result<Vec<_>, _>>()?,
    )
    .map_err(|e| e.to_string())?;
    builder
        .build()
        .send_raw(&envelope, &composed.bytes)
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

//! Mail: a raw RFC 822 message, an IMAP server's replies as the watcher's
//! client reads them, and `email.toml`.

use std::collections::HashSet;
use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::TryStreamExt;
use mail::{Config, MAX_ATTACHMENT_NAME_CHARS};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::input::text;

/// A message as IMAP hands it over: read, or [`mail::MailError`]. Every
/// attachment name is safe to write into a folder and unique.
pub fn mime(data: &[u8]) {
    let Ok(mail) = mail::parse(data) else {
        return;
    };
    let mut names = HashSet::new();
    for attachment in &mail.attachments {
        let name = &attachment.name;
        assert!(!name.is_empty(), "an empty attachment name");
        assert!(
            !name.contains(['/', '\\', '\0']) && !name.starts_with('.'),
            "unsafe attachment name {name:?}"
        );
        // The extension is kept beside the cut name, hence the margin.
        assert!(
            name.chars().count() <= MAX_ATTACHMENT_NAME_CHARS + 40,
            "attachment name of {} characters",
            name.chars().count()
        );
        assert!(names.insert(name.clone()), "two attachments named {name:?}");
    }
}

/// `data` is everything an IMAP server says on one connection; the client
/// speaks to it as the mail watcher does (greeting, LOGIN, CAPABILITY,
/// SELECT, UID FETCH of the new messages, NOOP, LOGOUT) and each fetched
/// body is then read as [`mime`]. Every step ends in a value or an error.
/// The IMAP library panics on some replies (imap-proto slices a reply's
/// text by byte); the watcher catches that as a failed connection, so this
/// does too, with the panic hook (libFuzzer's aborts) silenced meanwhile.
pub fn imap(data: &[u8]) {
    let server = Scripted {
        said: Cursor::new(data.to_vec()),
    };
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().build() else {
        return;
    };
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let bodies = catch_unwind(AssertUnwindSafe(|| runtime.block_on(watch_once(server))));
    std::panic::set_hook(hook);
    for body in bodies.unwrap_or_default() {
        mime(&body);
    }
}

/// The bodies of the messages fetched, as the watcher hands them over.
async fn watch_once(server: Scripted) -> Vec<Vec<u8>> {
    let mut client = async_imap::Client::new(server);
    if !matches!(client.read_response().await, Ok(Some(_))) {
        return Vec::new();
    }
    let Ok(mut session) = client.login("user", "password").await else {
        return Vec::new();
    };
    let Ok(capabilities) = session.capabilities().await else {
        return Vec::new();
    };
    let _ = capabilities.has_str("IDLE");
    let Ok(selected) = session.select("INBOX").await else {
        return Vec::new();
    };
    let last_uid = selected.uid_next.unwrap_or(1).saturating_sub(1);
    let range = format!("{}:*", last_uid.saturating_add(1));
    let fetched = match session.uid_fetch(&range, "(UID BODY.PEEK[])").await {
        Ok(stream) => stream.try_collect::<Vec<_>>().await.unwrap_or_default(),
        Err(_) => return Vec::new(),
    };
    let bodies = fetched
        .iter()
        .filter_map(|message| Some((message.uid?, message.body()?.to_vec())))
        .filter(|(uid, _)| *uid > last_uid)
        .map(|(_, body)| body)
        .collect();
    if session.noop().await.is_ok() {
        let _ = session.logout().await;
    }
    bodies
}

/// A server that has said `said` and then closes; what the client writes
/// is dropped.
#[derive(Debug)]
struct Scripted {
    said: Cursor<Vec<u8>>,
}

impl AsyncRead for Scripted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.said).poll_read(cx, buf)
    }
}

impl AsyncWrite for Scripted {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// `email.toml`'s text: a checked configuration or the reason it is not one.
pub fn email_toml(data: &[u8]) {
    if let Ok(config) = Config::parse(&text(data)) {
        assert!(
            !config.accounts.is_empty(),
            "a configuration without accounts"
        );
        assert!(
            config.poll_interval().as_secs() >= 1,
            "a poll interval of 0"
        );
    }
}

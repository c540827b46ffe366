//! What the server asks a runner about its sessions' apps: a connection to
//! a port on the runner host (the app proxy's way to a dev server there,
//! one channel per proxied connection), what its sessions listen on, and
//! starting, stopping and reading the apps it keeps.

use crate::channel::RunnerStream;
use crate::hosts::Runners;
use crate::wire::{self, AppStart, AppStarted, AppState, Request};

impl Runners {
    /// A connection to `port` on runner `name`'s loopback, carried by a
    /// channel of its own; the error names the port when nothing listens
    /// there.
    pub async fn connect(&self, name: &str, port: u16) -> Result<RunnerStream, String> {
        let mut channel = self.open_channel(name, &Request::Connect { port }).await?;
        let _: serde_json::Value = channel
            .reply()
            .await
            .map_err(|e| older(name, "reach its apps", e))?;
        Ok(channel.into_stream())
    }

    /// The ports these sessions' processes listen on, on runner `name`.
    pub async fn listeners(
        &self,
        name: &str,
        session_ids: Vec<String>,
    ) -> Result<Vec<apps::listeners::Listener>, String> {
        let found: Vec<wire::Listening> = self
            .ask(name, &Request::Listeners { session_ids })
            .await
            .map_err(|e| older(name, "list its listeners", e))?;
        Ok(found
            .into_iter()
            .map(|l| apps::listeners::Listener {
                session_id: l.session_id,
                pid: l.pid,
                port: l.port,
                command: l.command,
            })
            .collect())
    }

    /// Starts an app on runner `name`, detached from the channel: it runs
    /// until stopped, its session ends, or it exits. Says its pid (its
    /// process group) there.
    pub async fn start_app(&self, name: &str, launch: AppStart) -> Result<u32, String> {
        let started: AppStarted = self
            .ask(name, &Request::StartApp(Box::new(launch)))
            .await
            .map_err(|e| older(name, "start apps", e))?;
        Ok(started.pid)
    }

    /// Stops an app on runner `name` (SIGTERM, SIGKILL 3 s later) and says
    /// how it ended.
    pub async fn stop_app(
        &self,
        name: &str,
        session_id: &str,
        app: &str,
    ) -> Result<AppState, String> {
        let request = Request::StopApp {
            session_id: session_id.to_owned(),
            name: app.to_owned(),
        };
        self.ask(name, &request)
            .await
            .map_err(|e| older(name, "stop apps", e))
    }

    /// Whether an app on runner `name` runs, how it ended, and its last
    /// lines of output.
    pub async fn app_state(
        &self,
        name: &str,
        session_id: &str,
        app: &str,
    ) -> Result<AppState, String> {
        let request = Request::AppState {
            session_id: session_id.to_owned(),
            name: app.to_owned(),
        };
        self.ask(name, &request)
            .await
            .map_err(|e| older(name, "read its apps", e))
    }
}

/// A helper that does not know the request (a pool runner of an older
/// build: an SSH runner's helper is always this build) says so in words a
/// person can act on; any other refusal stays as it was.
pub(crate) fn older(name: &str, what: &str, error: String) -> String {
    if error.starts_with(wire::UNKNOWN_OP) || error.contains("unknown variant") {
        format!(
            "the runner `{name}` runs an older Switchboard that cannot {what}; update it ({error})"
        )
    } else {
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Hello;
    use crate::pool::mux;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A pool runner on the far end of an in-memory HTTP/2 connection,
    /// serving each channel with the real helper, attached as `pool1`.
    async fn pool_runner() -> (Runners, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let runners = Runners::new(dir.path(), "test", std::sync::Arc::new(clock::SystemClock));
        let (server_io, runner_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            let mut connection = h2::server::Builder::new()
                .initial_window_size(mux::CHANNEL_BUFFER as u32)
                .handshake::<_, bytes::Bytes>(runner_io)
                .await
                .unwrap();
            while let Some(Ok((request, mut respond))) = connection.accept().await {
                let send = respond
                    .send_response(http::Response::new(()), false)
                    .unwrap();
                let (near, far) = mux::pipe();
                tokio::spawn(mux::bridge(send, request.into_body(), far));
                tokio::spawn(async move {
                    let (input, output) = tokio::io::split(near);
                    crate::helper::serve("test", input, output).await
                });
            }
        });
        let (send, connection) = h2::client::handshake(server_io).await.unwrap();
        let driver = tokio::spawn(async move {
            let _ = connection.await;
        });
        let hello = Hello {
            name: "pool1".into(),
            labels: Vec::new(),
            max_sessions: None,
            tunnel_port: 1,
            exe: "switchboard".into(),
            peer: "127.0.0.1".into(),
        };
        runners
            .attach_pool(hello, "token".into(), send, driver.abort_handle())
            .await
            .unwrap();
        (runners, dir)
    }

    /// A loopback server that reads until the peer half-closes, then
    /// answers with `size` bytes of a pattern and closes.
    async fn patterned_server(size: usize) -> (u16, Vec<u8>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let pattern: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        let answer = pattern.clone();
        tokio::spawn(async move {
            let (mut tcp, _) = listener.accept().await.unwrap();
            let mut asked = Vec::new();
            tcp.read_to_end(&mut asked).await.unwrap();
            tcp.write_all(&asked).await.unwrap();
            tcp.write_all(&answer).await.unwrap();
        });
        (port, pattern)
    }

    #[tokio::test]
    async fn a_pool_runners_stream_carries_raw_bytes_both_ways_with_half_closes() {
        let (runners, _dir) = pool_runner().await;
        let (port, pattern) = patterned_server(3 << 20).await;
        let mut stream = runners.connect("pool1", port).await.unwrap();
        stream.write_all(b"\x00\x01 not a frame\n").await.unwrap();
        stream.shutdown().await.unwrap();
        let mut got = Vec::new();
        tokio::time::timeout(
            std::time::Duration::from_secs(20),
            stream.read_to_end(&mut got),
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!(&got[..15], b"\x00\x01 not a frame\n");
        assert!(got[15..] == pattern[..], "{} bytes came back", got.len());
    }

    #[tokio::test]
    async fn a_pool_runner_names_the_port_nothing_listens_on() {
        let (runners, _dir) = pool_runner().await;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let refused = runners
            .connect("pool1", port)
            .await
            .err()
            .unwrap_or_default();
        assert!(
            refused.starts_with(&format!("nothing listens on port {port}")),
            "{refused}"
        );
    }

    #[test]
    fn an_older_helper_is_named_as_such_and_other_refusals_pass_through() {
        let said = older(
            "gpu",
            "reach its apps",
            "unreadable request: unknown variant `connect`, expected one of `probe`".to_owned(),
        );
        assert!(
            said.starts_with("the runner `gpu` runs an older Switchboard"),
            "{said}"
        );
        let said = older(
            "gpu",
            "reach its apps",
            "unknown op `connect`: …".to_owned(),
        );
        assert!(said.contains("update it"), "{said}");
        let plain = "nothing listens on port 4100 on the runner host".to_owned();
        assert_eq!(older("gpu", "reach its apps", plain.clone()), plain);
    }
}

//! Finds the running server and speaks to its control API.
//!
//! Inside an agent session `APP_CONTROL_URL`, `APP_CLI_TOKEN` and
//! `APP_SESSION_ID` say everything; elsewhere `server.json` and `cli-token` in
//! the data directory do.

use std::path::Path;

use anyhow::{Context, anyhow, bail};
use serde_json::Value;

pub struct Client {
    base: String,
    token: String,
    source_session: Option<String>,
    agent: ureq::Agent,
}

/// A reply the server refused, with its message for the user.
pub struct Refusal {
    pub status: u16,
    pub code: String,
    pub message: String,
}

impl Client {
    pub fn discover(data_dir: &Path) -> anyhow::Result<Self> {
        let env = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        if let (Some(base), Some(token)) = (env("APP_CONTROL_URL"), env("APP_CLI_TOKEN")) {
            return Ok(Self {
                base,
                token,
                source_session: env("APP_SESSION_ID"),
                agent,
            });
        }
        let server_file = data_dir.join("server.json");
        let text = std::fs::read_to_string(&server_file).with_context(|| {
            if env("APP_SESSION_ID").is_some() {
                // A session's engine is handed APP_CONTROL_URL whenever the
                // control server runs, and its sandbox hides server.json: the
                // server is there, its control server is not.
                format!(
                    "cannot reach Switchboard: this session has no APP_CONTROL_URL because the \
                     control server is off (setting cliServerEnabled), and {} cannot be read",
                    server_file.display()
                )
            } else {
                format!(
                    "no running Switchboard found ({} is missing); start one with `switchboard serve`",
                    server_file.display()
                )
            }
        })?;
        let info: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not valid JSON", server_file.display()))?;
        let base = match info.get("controlUrl") {
            Some(Value::String(url)) => url.clone(),
            _ => bail!(
                "the running Switchboard has its control server turned off (setting cliServerEnabled)"
            ),
        };
        let token_file = data_dir.join("cli-token");
        let token = std::fs::read_to_string(&token_file)
            .with_context(|| format!("cannot read {}", token_file.display()))?
            .trim()
            .to_owned();
        Ok(Self {
            base,
            token,
            source_session: env("APP_SESSION_ID"),
            agent,
        })
    }

    pub fn get(&self, path: &str) -> anyhow::Result<Result<Value, Refusal>> {
        self.send("GET", path, None)
    }

    pub fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> anyhow::Result<Result<Value, Refusal>> {
        let url = format!("{}{}", self.base.trim_end_matches('/'), path);
        let request = ureq::http::Request::builder()
            .method(method)
            .uri(&url)
            .header("Authorization", format!("Bearer {}", self.token));
        let request = match &self.source_session {
            Some(id) => request.header("X-App-Source-Session-Id", id),
            None => request,
        };
        let response = match body {
            Some(body) => self.agent.run(
                request
                    .header("Content-Type", "application/json")
                    .body(body.to_string())?,
            ),
            // ureq sends `()` on a POST, PUT or PATCH as `Transfer-Encoding:
            // chunked` and one empty last chunk: a body the server cannot see
            // is empty without reading it. An empty slice is `Content-Length: 0`.
            None if matches!(method, "POST" | "PUT" | "PATCH") => {
                self.agent.run(request.body(&[][..])?)
            }
            None => self.agent.run(request.body(())?),
        }
        .map_err(|e| anyhow!("cannot reach Switchboard at {}: {e}", self.base))?;
        let status = response.status().as_u16();
        // ureq stops at 10 MiB by default; a full board of 100,000 items is about 24 MB.
        let text = response
            .into_body()
            .with_config()
            .limit(u64::MAX)
            .read_to_string()
            .context("the server's reply could not be read")?;
        let value: Value = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).context("the server's reply is not JSON")?
        };
        if status < 400 {
            return Ok(Ok(value));
        }
        let field = |name: &str| value["error"][name].as_str().unwrap_or_default().to_owned();
        Ok(Err(Refusal {
            status,
            code: field("code"),
            message: field("message"),
        }))
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::TcpListener;

    use super::*;

    /// The head of the one request `call` makes, as the server reads it.
    fn request_head(call: impl FnOnce(&Client) + Send + 'static) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let caller = std::thread::spawn(move || {
            let client = Client {
                base,
                token: "t".into(),
                source_session: None,
                agent: ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .build()
                    .into(),
            };
            call(&client);
        });
        let (mut stream, _) = listener.accept().unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte).unwrap();
            head.push(byte[0]);
        }
        stream
            .write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
            .unwrap();
        caller.join().unwrap();
        String::from_utf8(head).unwrap().to_ascii_lowercase()
    }

    /// A write without a body says so in its length: a chunked one would
    /// need the server to read it to know it is empty.
    #[test]
    fn a_write_without_a_body_is_sent_with_length_zero() {
        for method in ["POST", "PUT", "PATCH", "DELETE"] {
            let head = request_head(move |client| {
                client.send(method, "/x", None).unwrap().ok().unwrap();
            });
            assert!(!head.contains("transfer-encoding"), "{head}");
            if method != "DELETE" {
                assert!(head.contains("\r\ncontent-length: 0\r\n"), "{head}");
            }
        }
        let head = request_head(|client| {
            client.get("/x").unwrap().ok().unwrap();
        });
        assert!(!head.contains("content-length"), "{head}");
    }
}

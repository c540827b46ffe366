//! One request through the proxy: checked against the `*.localhost` rule,
//! looked up, rewritten and sent to the app as HTTP/1.1 over a kept-alive
//! connection, and its answer streamed back (or an upgrade spliced).

use std::net::SocketAddr;
use std::sync::Arc;

use http::uri::Parts as UriParts;
use http::{Method, Request, Response, StatusCode, Uri, Version};
use hyper::body::Incoming;
use hyper::client::conn::http1::{Builder, SendRequest};
use hyper_util::rt::TokioIo;
use tokio::sync::watch;

use crate::body::ProxyBody;
use crate::headers::{self, Forwarded};
use crate::host::app_host;
use crate::pages;
use crate::pool::{Key, Pool, Reuse};
use crate::routes::{ConnectError, Lookup, Routes, Target};
use crate::splice::splice;

/// How the proxy is set up.
#[derive(Debug, Clone)]
pub struct Options {
    /// The port the proxy listens on, told to apps as `X-Forwarded-Port`.
    pub proxy_port: u16,
    /// The UI's session cookie, never passed to an app (e.g. `switchboard_ui`).
    pub ui_cookie: String,
}

pub struct Proxy {
    routes: Arc<dyn Routes>,
    options: Options,
    pool: Arc<Pool>,
    shutdown: watch::Receiver<bool>,
}

/// Why a request did not reach the app.
enum Failure {
    Connect(ConnectError),
    /// The app took the connection and closed it without answering.
    Dropped(hyper::Error),
}

impl Proxy {
    pub fn new(routes: Arc<dyn Routes>, options: Options, shutdown: watch::Receiver<bool>) -> Self {
        Self {
            routes,
            options,
            pool: Arc::default(),
            shutdown,
        }
    }

    pub async fn handle(
        &self,
        mut request: Request<Incoming>,
        client: SocketAddr,
    ) -> Response<ProxyBody> {
        if request.method() == Method::CONNECT {
            return pages::connect_refused();
        }
        let Some(host) = app_host(&request) else {
            return pages::forbidden();
        };
        let target = match self.routes.lookup(&host.name) {
            Lookup::Found(target) => target,
            Lookup::Stopped { name } => return pages::stopped(&name, &self.routes.running()),
            Lookup::Unknown => return pages::unknown(&host.name, &self.routes.running()),
        };
        let client_version = request.version();
        let upgrade = (client_version == Version::HTTP_11)
            .then(|| headers::upgrade_protocol(request.headers()))
            .flatten();
        let client_upgrade = upgrade.is_some().then(|| hyper::upgrade::on(&mut request));
        let upgrading = upgrade.is_some();

        let (mut parts, body) = request.into_parts();
        let Some(uri) = origin_form(&parts.uri) else {
            return pages::bad_request();
        };
        parts.uri = uri;
        parts.version = Version::HTTP_11;
        headers::rewrite_request(
            &mut parts.headers,
            Forwarded {
                app_port: target.port,
                proxy_port: self.options.proxy_port,
                original_host: &host.original,
                client: client.ip(),
                ui_cookie: &self.options.ui_cookie,
                upgrade,
            },
        );
        let key: Key = (target.runner.clone(), target.port);
        let (mut response, sender) = match self
            .send(&target, &key, Request::from_parts(parts, body))
            .await
        {
            Ok(sent) => sent,
            Err(failure) => return self.failure_page(&target, failure),
        };

        if response.status() == StatusCode::SWITCHING_PROTOCOLS {
            let Some(client_upgrade) = client_upgrade else {
                tracing::debug!(app = %target.name, "an app switched protocols unasked");
                return pages::not_answering(&target.name, &self.routes.running());
            };
            let app_upgrade = hyper::upgrade::on(&mut response);
            tokio::spawn(splice(client_upgrade, app_upgrade, self.shutdown.clone()));
            let (parts, _) = response.into_parts();
            return Response::from_parts(parts, ProxyBody::empty());
        }

        let (mut parts, body) = response.into_parts();
        headers::strip_hop_by_hop(&mut parts.headers);
        parts.version = client_version;
        // A connection that carried an upgrade request is not reused: had the
        // app switched, it would no longer speak HTTP.
        let reuse = (!upgrading).then(|| Reuse {
            pool: self.pool.clone(),
            key,
            sender,
        });
        Response::from_parts(parts, ProxyBody::upstream(body, reuse))
    }

    /// Sends `request` on a kept-alive connection to the app, or a new one.
    async fn send(
        &self,
        target: &Target,
        key: &Key,
        mut request: Request<Incoming>,
    ) -> Result<(Response<Incoming>, SendRequest<Incoming>), Failure> {
        while let Some(mut sender) = self.pool.take(key) {
            if sender.ready().await.is_err() {
                continue;
            }
            match sender.try_send_request(request).await {
                Ok(response) => return Ok((response, sender)),
                Err(mut error) => match error.take_message() {
                    // The connection closed before the request went out:
                    // nothing reached the app, so another connection may
                    // carry it.
                    Some(unsent) => request = unsent,
                    None => return Err(Failure::Dropped(error.into_error())),
                },
            }
        }
        let io = self
            .routes
            .connect(target)
            .await
            .map_err(Failure::Connect)?;
        let (mut sender, connection) = Builder::new()
            .handshake(TokioIo::new(io))
            .await
            .map_err(Failure::Dropped)?;
        let app = target.name.clone();
        tokio::spawn(async move {
            if let Err(error) = connection.with_upgrades().await {
                tracing::debug!(%app, %error, "a connection to an app ended with an error");
            }
        });
        let response = sender
            .send_request(request)
            .await
            .map_err(Failure::Dropped)?;
        Ok((response, sender))
    }

    fn failure_page(&self, target: &Target, failure: Failure) -> Response<ProxyBody> {
        let running = self.routes.running();
        match failure {
            Failure::Connect(ConnectError::Refused) => pages::not_answering(&target.name, &running),
            Failure::Connect(ConnectError::RunnerAway { runner, reason }) => {
                tracing::debug!(app = %target.name, %runner, %reason, "an app's runner is away");
                pages::runner_away(&target.name, &runner, &reason, &running)
            }
            Failure::Connect(ConnectError::Other(reason)) => {
                tracing::debug!(app = %target.name, %reason, "could not connect to an app");
                pages::unreachable(&target.name, &reason, &running)
            }
            Failure::Dropped(error) => {
                tracing::debug!(app = %target.name, %error, "an app closed the connection without answering");
                pages::not_answering(&target.name, &running)
            }
        }
    }
}

/// The path and query alone, as an HTTP/1.1 request to the app carries them
/// (the client may have sent an absolute URI, or `:authority` over HTTP/2).
fn origin_form(uri: &Uri) -> Option<Uri> {
    let mut parts = UriParts::default();
    parts.path_and_query = Some(
        uri.path_and_query()
            .cloned()
            .unwrap_or_else(|| http::uri::PathAndQuery::from_static("/")),
    );
    Uri::from_parts(parts).ok()
}

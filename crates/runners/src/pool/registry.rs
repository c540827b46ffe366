//! Pool runners in the registry of runners: attached when one connects,
//! marked gone when its connection ends (its turns wait for it as for an
//! SSH host that dropped), ended when its token is revoked.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::channel::Channel;
use crate::config;
use crate::host::{Hello, Host, Link, PoolConn, PoolLink, Ready, Status};
use crate::hosts::Runners;
use crate::info::{Memory, RunnerInfo, RunnerKind, RunnerState};
use crate::wire::{self, ProbeReply, Request};

/// Why a runner's connection was refused, as the listener answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Another runner (declared, built in, or connected with another
    /// token) has the name.
    NameTaken(String),
    /// The runner is connected with this token from another address, and
    /// that connection still answers its pings: a copied token does not
    /// push out the runner it was copied from.
    TokenInUse(String),
}

impl Runners {
    /// Whether a runner connecting as `name` with token `token_id` from
    /// `peer` may take that name: not a declared or built-in runner, not a
    /// pool runner connected with another token, nor with this one from
    /// another address.
    pub(crate) fn may_take(
        &self,
        name: &str,
        token_id: &str,
        peer: std::net::IpAddr,
    ) -> Result<(), Refusal> {
        let taken = || Refusal::NameTaken(format!("the runner name `{name}` is taken"));
        if name == config::LOCAL || name == config::AUTO {
            return Err(taken());
        }
        let declared = self
            .inner
            .file
            .read()
            .is_ok_and(|f| f.names().contains(&name));
        if declared {
            return Err(taken());
        }
        match self.host(name) {
            Some(host) => match host.pool() {
                Some(link) => {
                    let conn = link.conn.lock().map_err(|_| taken())?;
                    match conn.as_ref() {
                        Some(c) if c.token_id != token_id => Err(taken()),
                        Some(c)
                            if !c.driver.is_finished() && !same_address(&c.hello.peer, peer) =>
                        {
                            Err(Refusal::TokenInUse(format!(
                                "the runner `{name}` is connected with this token from another address"
                            )))
                        }
                        _ => Ok(()),
                    }
                }
                None => Err(taken()),
            },
            None => Ok(()),
        }
    }

    /// A runner connected: it replaces its earlier connection, is probed,
    /// and is ready for turns. Returns the connection's generation.
    pub(crate) async fn attach_pool(
        &self,
        hello: Hello,
        token_id: String,
        send: h2::client::SendRequest<bytes::Bytes>,
        driver: tokio::task::AbortHandle,
    ) -> Result<u64, String> {
        let generation = self.inner.generation.fetch_add(1, Ordering::Relaxed) + 1;
        let name = hello.name.clone();
        let host = {
            let mut hosts = self
                .inner
                .hosts
                .write()
                .map_err(|_| "the runners are poisoned".to_owned())?;
            Arc::clone(hosts.entry(name.clone()).or_insert_with(|| {
                Arc::new(Host {
                    link: Link::Pool(PoolLink::default()),
                    status: std::sync::Mutex::new(Status::connecting()),
                    connecting: tokio::sync::Mutex::new(()),
                })
            }))
        };
        let Some(link) = host.pool() else {
            return Err(format!("the runner name `{name}` is taken"));
        };
        self.inner.tunnel_ports.add(hello.tunnel_port);
        let earlier = link.conn.lock().ok().and_then(|mut conn| {
            conn.replace(PoolConn {
                send,
                hello: hello.clone(),
                token_id,
                generation,
                driver,
            })
        });
        if let Some(earlier) = earlier {
            earlier.driver.abort();
        }
        let probe = self.probe_pool(&host).await;
        let mut status = host
            .status
            .lock()
            .map_err(|_| "the runner's state is poisoned".to_owned())?;
        match probe {
            Ok(probe) => {
                status.state = RunnerState::Connected;
                status.reason = None;
                status.ready = Some(Ready {
                    remote_exe: hello.exe.clone(),
                    tunnel_port: hello.tunnel_port,
                    home: probe.home.clone(),
                });
                status.probe = Some(probe);
                status.last_seen = Some(self.inner.clock.timestamp());
                Ok(generation)
            }
            Err(reason) => {
                status.state = RunnerState::Unreachable;
                status.reason = Some(reason.clone());
                status.ready = None;
                Err(reason)
            }
        }
    }

    async fn probe_pool(&self, host: &Arc<Host>) -> Result<ProbeReply, String> {
        let engines = self
            .inner
            .engines
            .read()
            .map(|e| e.clone())
            .unwrap_or_default();
        let mut channel = Channel::open(host, "", &Request::Probe { engines }).await?;
        let probe: ProbeReply = channel.reply().await?;
        if probe.protocol != wire::PROTOCOL {
            return Err(format!(
                "the runner speaks protocol {}, this server {}",
                probe.protocol,
                wire::PROTOCOL
            ));
        }
        Ok(probe)
    }

    /// Connection `generation` of `name` ended; a newer one is left alone.
    pub(crate) fn pool_gone(&self, name: &str, generation: u64, reason: &str) {
        let Some(host) = self.host(name) else {
            return;
        };
        let Some(link) = host.pool() else {
            return;
        };
        let ended = link.conn.lock().ok().is_some_and(|mut conn| {
            let current = conn.as_ref().is_some_and(|c| c.generation == generation);
            if current {
                *conn = None;
            }
            current
        });
        if ended {
            tracing::warn!(runner = name, "pool runner disconnected: {reason}");
            self.lost(name, reason);
        }
    }

    /// Ends at once every connection and tunnel opened with runner token
    /// `token_id` (it was revoked).
    pub fn revoke_token(&self, token_id: &str) {
        let hosts: Vec<(String, Arc<Host>)> = self
            .inner
            .hosts
            .read()
            .map(|h| h.iter().map(|(n, h)| (n.clone(), Arc::clone(h))).collect())
            .unwrap_or_default();
        for (name, host) in hosts {
            let Some(link) = host.pool() else {
                continue;
            };
            let ended = link.conn.lock().ok().and_then(|mut conn| {
                if conn.as_ref().is_some_and(|c| c.token_id == token_id) {
                    conn.take()
                } else {
                    None
                }
            });
            if let Some(conn) = ended {
                conn.driver.abort();
                self.lost(&name, "its runner token was revoked");
            }
        }
        if let Ok(mut tunnels) = self.inner.tunnels.lock() {
            tunnels.retain(|(token, tunnel)| {
                if token == token_id {
                    tunnel.abort();
                }
                token != token_id && !tunnel.is_finished()
            });
        }
    }

    /// Whether `name` is a pool runner connected with token `token_id`.
    pub(crate) fn pool_connected_with(&self, name: &str, token_id: &str) -> bool {
        self.host(name).is_some_and(|host| {
            host.pool().is_some_and(|link| {
                link.conn
                    .lock()
                    .ok()
                    .is_some_and(|conn| conn.as_ref().is_some_and(|c| c.token_id == token_id))
            })
        })
    }

    pub(crate) fn remember_tunnel(&self, token_id: &str, tunnel: tokio::task::AbortHandle) {
        if let Ok(mut tunnels) = self.inner.tunnels.lock() {
            tunnels.retain(|(_, t)| !t.is_finished());
            tunnels.push((token_id.to_owned(), tunnel));
        }
    }

    pub(crate) fn pool_max_sessions(&self, name: &str) -> Option<u32> {
        let host = self.host(name)?;
        let conn = host.pool()?.conn.lock().ok()?;
        conn.as_ref()?.hello.max_sessions
    }

    /// The pool runners as `GET /runners` lists them; `count` says how many
    /// sessions run on each.
    pub(crate) fn pool_list(&self, count: &dyn Fn(&str) -> u32) -> Vec<RunnerInfo> {
        let mut list = Vec::new();
        for name in self.pool_names() {
            let Some(host) = self.host(&name) else {
                continue;
            };
            let hello = host
                .pool()
                .and_then(|link| link.conn.lock().ok()?.as_ref().map(|c| c.hello.clone()));
            let Ok(status) = host.status.lock() else {
                continue;
            };
            let probe = status.probe.as_ref();
            list.push(RunnerInfo {
                name: name.clone(),
                kind: RunnerKind::Pool,
                state: status.state,
                reason: status.reason.clone(),
                sessions: count(&name),
                max_sessions: hello.as_ref().and_then(|h| h.max_sessions),
                load: probe.and_then(|p| p.load),
                memory: probe.and_then(|p| {
                    Some(Memory {
                        total_mb: p.total_mb?,
                        available_mb: p.available_mb?,
                    })
                }),
                engines: probe.map(|p| p.engines.clone()).unwrap_or_default(),
                sandbox: probe.map(|p| p.sandbox.clone()),
                switchboard_version: probe.map(|p| p.version.clone()),
                labels: hello.as_ref().map(|h| h.labels.clone()).unwrap_or_default(),
                destination: hello.map(|h| h.peer),
                last_seen: status.last_seen.clone(),
            });
        }
        list
    }
}

/// Whether `connected` (the `ip:port` a runner connected from) is `peer`'s
/// address; a port changes with every connection, an address does not.
fn same_address(connected: &str, peer: std::net::IpAddr) -> bool {
    connected
        .parse::<std::net::SocketAddr>()
        .is_ok_and(|address| address.ip() == peer)
}

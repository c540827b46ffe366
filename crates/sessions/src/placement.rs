//! Where a session runs (docs/runners.md): the runner a spawn asked for,
//! checked, `auto` placed, and the user's approval of a session that a
//! session on a runner started.

use crate::actor::Start;
use crate::db;
use crate::error::{Result, SessionError};
use crate::model::{Session, SpawnRequest, Status};
use crate::supervisor::Supervisor;

impl Supervisor {
    /// The runner a spawn asked for, checked: `local` when it names none,
    /// the best connected runner with room for `auto`.
    pub(crate) async fn place(
        &self,
        requested: Option<&str>,
        remote_runners: bool,
    ) -> Result<String> {
        let requested = requested.map(str::trim).filter(|r| !r.is_empty());
        let Some(requested) = requested else {
            return Ok(runners::LOCAL.to_owned());
        };
        if requested == runners::LOCAL || (requested == runners::AUTO && !remote_runners) {
            return Ok(runners::LOCAL.to_owned());
        }
        // Read at each spawn, as engines.toml is: an edit needs no restart.
        if let Some(runners) = &self.inner.runners {
            runners.reload();
        }
        let names = self
            .inner
            .runners
            .as_ref()
            .map_or_else(|| vec![runners::LOCAL.to_owned()], runners::Runners::names);
        if requested == runners::AUTO {
            let Some(runners) = self.inner.runners.clone() else {
                return Ok(runners::LOCAL.to_owned());
            };
            let running = self.inner.read(db::running_by_runner).await?;
            let local = runners::LocalFacts {
                memory: self.local_memory(),
                ..runners::LocalFacts::default()
            };
            return Ok(runners
                .place(&running, &local)
                .unwrap_or_else(|| runners::LOCAL.to_owned()));
        }
        if names.iter().any(|n| n == requested) {
            if !remote_runners {
                return Err(SessionError::RunnersOff);
            }
            Ok(requested.to_owned())
        } else {
            Err(SessionError::UnknownRunner {
                name: requested.to_owned(),
                known: names.join(", "),
            })
        }
    }

    /// This machine's memory, as the memory guard reads it.
    pub fn local_memory(&self) -> Option<runners::Memory> {
        match &self.inner.governance {
            Some(governance) => governance.local_memory(),
            None => runners::helper::memory(),
        }
    }

    /// Running sessions by runner.
    pub async fn running_by_runner(&self) -> Result<std::collections::BTreeMap<String, u32>> {
        self.inner.read(db::running_by_runner).await
    }

    /// The user's answer to a session held for approval (started by a
    /// session on a runner): approved, it starts as a spawned session does;
    /// refused, it is stopped without ever running.
    pub async fn decide_start(&self, account: &str, id: &str, approve: bool) -> Result<Session> {
        let (owned, who) = (id.to_owned(), account.to_owned());
        let session = self
            .inner
            .read(move |tx| db::get_session(tx, &who, &owned)?.ok_or(SessionError::NotFound))
            .await?;
        // A held session stopped meanwhile (its tree was) stays stopped.
        if !session.awaiting_approval || session.status != Status::Queued {
            return Err(SessionError::NotAwaitingApproval);
        }
        let owned = id.to_owned();
        if !self
            .inner
            .write(move |tx| db::release_approval(tx, &owned))
            .await?
        {
            return Err(SessionError::NotAwaitingApproval);
        }
        if approve {
            self.inner
                .move_to(
                    id,
                    account,
                    Status::Queued,
                    "approved by the user".to_owned(),
                )
                .await?;
            self.launch(id.to_owned(), account.to_owned(), Start::Burst);
        } else {
            self.inner
                .move_to(
                    id,
                    account,
                    Status::Stopped,
                    "the user refused its start".to_owned(),
                )
                .await?;
        }
        self.get(account, id).await
    }

    /// A session on a runner host: `cwd` is a path there, checked when its
    /// turn starts (or its worktree is made there).
    pub(crate) fn check_remote(request: &SpawnRequest) -> Result<()> {
        if let Some(cwd) = request
            .cwd
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            && !cwd.starts_with('/')
            && cwd != "~"
        {
            return Err(SessionError::InvalidInput(format!(
                "cwd must be an absolute path on the runner host; {cwd} is not."
            )));
        }
        Ok(())
    }
}

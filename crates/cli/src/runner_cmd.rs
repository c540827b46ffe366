//! `switchboard runner`: the helper side of a runner host. The server starts
//! `runner --stdio` over SSH for each request; `runner --keep DIR` is the
//! detached keeper of one turn that the helper starts.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;

pub fn run(keep: Option<&Path>) -> anyhow::Result<ExitCode> {
    if let Some(dir) = keep {
        runners::helper::keep(dir).with_context(|| format!("turn {}", dir.display()))?;
        return Ok(ExitCode::SUCCESS);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("the helper's runtime could not start")?;
    runtime
        .block_on(runners::helper::serve_stdio(env!("CARGO_PKG_VERSION")))
        .context("the runner channel failed")?;
    Ok(ExitCode::SUCCESS)
}

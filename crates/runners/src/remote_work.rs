//! What the server asks a runner of the work done there (docs/work.md):
//! git's facts of a piece of work in a checkout on the runner host, and its
//! diff for the reviewers. The helper reads them with the same code this
//! machine reads its own with, so a runner's work is decided by the same
//! rules.

use crate::hosts::Runners;
use crate::remote_apps::older;
use crate::wire::{Request, WorkDiff};

impl Runners {
    /// What git says of `piece` on runner `name`, or why it could not be asked.
    pub async fn work_facts(
        &self,
        name: &str,
        piece: &work::facts::Piece,
    ) -> Result<work::facts::Facts, String> {
        self.ask(name, &Request::WorkFacts(Box::new(piece.clone())))
            .await
            .map_err(|e| older(name, "read the work there", e))
    }

    /// `piece`'s diff since its base on runner `name`.
    pub async fn work_diff(
        &self,
        name: &str,
        piece: &work::facts::Piece,
    ) -> Result<WorkDiff, String> {
        self.ask(name, &Request::WorkDiff(Box::new(piece.clone())))
            .await
            .map_err(|e| older(name, "show the work's diff", e))
    }
}

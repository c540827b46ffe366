//! What the server asks a runner for the `/` menu (docs/skills.md): an
//! engine's skills in a folder on the runner host.

use crate::hosts::Runners;
use crate::remote_apps::older;
use crate::wire::{Request, SkillsAsk};

impl Runners {
    /// The skills engine `ask.engine` offers in `ask.cwd` on runner `name`,
    /// or why the runner could not be asked.
    pub async fn skills(&self, name: &str, ask: SkillsAsk) -> Result<Vec<skills::Skill>, String> {
        self.ask(name, &Request::Skills(Box::new(ask)))
            .await
            .map_err(|e| older(name, "list skills", e))
    }
}

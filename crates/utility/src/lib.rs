//! The utility model: the one path by which Switchboard asks a model a short
//! question of its own (a session's title, the follow-ups in a transcript, a
//! weekly summary), never an agent's turn.
//!
//! A call runs the primary engine's own CLI (so it uses the person's existing
//! login and billing) non-interactively, with no tools, no MCP servers and no
//! saved conversation: Claude Code as `-p --output-format json --tools ""`,
//! Codex as `exec --json --ephemeral --sandbox read-only` (`engine.rs`). The
//! prompt travels on stdin, so a long transcript never meets the argument
//! length limit.
//!
//! Every call is recorded (`ledger.rs`): feature, engine, model, tokens, the
//! cost as the CLI reported it, duration and outcome. A feature's spend since
//! the start of its day is checked before each call: at its cap the call is
//! not made and is recorded as `capped`. A JSON answer is parsed and
//! deserialised into the caller's type (the schema the prompt states); an
//! invalid one is asked again once, with the error, and both attempts are
//! recorded. Knows nothing of HTTP, settings or sessions: the caller passes
//! the engine, the model and the budget.

mod answer;
mod call;
mod engine;
mod ledger;
mod model;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clock::Clock;
use serde::de::DeserializeOwned;
use serde_json::Value;
use store::Db;
use time::OffsetDateTime;

pub use answer::Answer;
pub use call::{Feature, Outcome, UtilityCall};
use engine::ImageInput;
pub use engine::{Engine, EngineKind};
pub use ledger::{FeatureSpend, MIGRATIONS};
use model::Model;

/// A feature's allowance: calls stop once what it spent since `since` (the
/// start of its day in the person's zone) reaches `cap_usd`. No cap, or a cap
/// of 0 where the setting says 0 means no limit, never stops it.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub cap_usd: Option<f64>,
    pub since: OffsetDateTime,
}

impl Budget {
    pub fn unlimited(since: OffsetDateTime) -> Budget {
        Budget {
            cap_usd: None,
            since,
        }
    }

    fn cap(&self) -> Option<f64> {
        self.cap_usd.filter(|cap| *cap > 0.0)
    }
}

/// One question.
#[derive(Debug, Clone)]
pub struct Ask<'a> {
    pub feature: Feature,
    /// The feature's model setting; `None` asks the engine's small model
    /// (the spec's global utility model), never the CLI's default.
    pub model: Option<&'a str>,
    pub prompt: &'a str,
    pub budget: Budget,
}

#[derive(Debug, thiserror::Error)]
pub enum UtilityError {
    #[error("no primary engine is configured for the utility model")]
    NoEngine,
    #[error("the daily cap of ${cap:.2} for {feature} is reached (${spent:.4} spent)")]
    Capped {
        feature: &'static str,
        spent: f64,
        cap: f64,
    },
    #[error("the utility model failed: {0}")]
    Failed(String),
    #[error("the utility model's answer was not the JSON asked for: {0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] store::StoreError),
}

/// Where the engine comes from at each call: `engines.toml` may change while
/// the server runs, and an engine added later must be used without a restart.
pub type EngineSource = Arc<dyn Fn() -> Option<Engine> + Send + Sync>;

/// The utility model of one server.
#[derive(Clone)]
pub struct Utility {
    db: Arc<Db>,
    clock: Arc<dyn Clock>,
    engine: EngineSource,
    workdir: PathBuf,
    policy: sandbox::Policy,
    timeout: Duration,
}

/// How long one CLI run may take before it is killed and recorded as failed.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(120);

impl Utility {
    /// The CLI runs in `DIR/utility` (made when missing), an empty folder,
    /// so it never reads a project's instruction files into a utility
    /// prompt, confined so that the rest of the data directory `DIR` is out
    /// of its reach.
    pub fn new(
        db: Arc<Db>,
        clock: Arc<dyn Clock>,
        engine: EngineSource,
        data_dir: &Path,
    ) -> Utility {
        let workdir = data_dir.join("utility");
        let policy = sandbox::Policy {
            hidden: vec![data_dir.to_owned()],
            exceptions: vec![workdir.clone()],
            network: sandbox::Network::Allowed,
        };
        Utility {
            db,
            clock,
            engine,
            workdir,
            policy,
            timeout: CALL_TIMEOUT,
        }
    }

    /// The engine a call would use now.
    pub fn engine(&self) -> Option<Engine> {
        (self.engine)()
    }

    /// Asks for plain text.
    pub async fn text(&self, ask: &Ask<'_>) -> Result<Answer, UtilityError> {
        let engine = self.admit(ask).await?;
        let model = ask.model.map_or(Model::Small, Model::Named);
        self.run(&engine, model, ask, ask.prompt)
            .await
            .map(|(answer, _)| answer)
    }

    /// Asks about an image (`image`, of `media_type`): Claude Code gets it
    /// as a content block of a stream-json message, Codex as `--image` of
    /// a copy in the call's own folder, the one place its sandbox lets it
    /// read. `ask.model` must see images; `None` asks the engine's small
    /// model, which does (Claude Haiku 4.5, Codex's default).
    pub async fn describe_image(
        &self,
        ask: &Ask<'_>,
        image: &Path,
        media_type: &str,
    ) -> Result<Answer, UtilityError> {
        let engine = self.admit(ask).await?;
        let model = ask.model.map_or(Model::Small, Model::Named);
        let copy = match engine.kind {
            EngineKind::Codex => Some(self.copy_into_workdir(image).await?),
            EngineKind::Claude => None,
        };
        let input = ImageInput {
            path: copy.as_deref().unwrap_or(image),
            media_type,
        };
        let result = self
            .run_with(&engine, model, ask, ask.prompt, Some(&input))
            .await;
        if let Some(copy) = copy {
            // A copy left behind is only disk space; the call's answer matters more.
            let _ = tokio::fs::remove_file(copy).await;
        }
        result.map(|(answer, _)| answer)
    }

    async fn copy_into_workdir(&self, image: &Path) -> Result<PathBuf, UtilityError> {
        let name = image
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "image".to_owned());
        let copy = self
            .workdir
            .join(format!("{}-{name}", uuid::Uuid::now_v7()));
        tokio::fs::create_dir_all(&self.workdir)
            .await
            .and(tokio::fs::copy(image, &copy).await.map(drop))
            .map_err(|e| UtilityError::Failed(format!("cannot copy {}: {e}", image.display())))?;
        Ok(copy)
    }

    /// Asks for JSON of type `T`, described to the model by `schema`; an
    /// answer that does not parse is asked again once, with the reason.
    pub async fn json<T: DeserializeOwned>(
        &self,
        ask: &Ask<'_>,
        schema: &Value,
    ) -> Result<(T, Answer), UtilityError> {
        let engine = self.admit(ask).await?;
        let model = ask.model.map_or(Model::Small, Model::Named);
        self.json_with(&engine, model, ask, schema).await
    }

    /// [`Utility::json`] asked of a named engine rather than the primary
    /// one (a reviewer of `engines.toml`), on the model its own arguments
    /// choose unless the ask names one. Confined and tool-less the same way.
    pub async fn json_on<T: DeserializeOwned>(
        &self,
        engine: &Engine,
        ask: &Ask<'_>,
        schema: &Value,
    ) -> Result<(T, Answer), UtilityError> {
        self.check_budget(ask, engine).await?;
        let model = ask.model.map_or(Model::EngineDefault, Model::Named);
        self.json_with(engine, model, ask, schema).await
    }

    async fn json_with<T: DeserializeOwned>(
        &self,
        engine: &Engine,
        model: Model<'_>,
        ask: &Ask<'_>,
        schema: &Value,
    ) -> Result<(T, Answer), UtilityError> {
        let prompt = format!(
            "{}\n\nReply with one JSON value and nothing else (no prose, no code fence). \
             It must match this JSON Schema:\n{schema}",
            ask.prompt
        );
        let (answer, id) = self.run(engine, model, ask, &prompt).await?;
        let reason = match parse_json::<T>(&answer.text) {
            Ok(value) => return Ok((value, answer)),
            Err(reason) => reason,
        };
        self.mark_invalid(&id, &reason).await?;
        let again = format!(
            "{prompt}\n\nYour previous reply was not valid ({reason}). It was:\n{}\n\
             Reply again with the JSON value only.",
            clip(&answer.text, 2_000)
        );
        let (answer, id) = self.run(engine, model, ask, &again).await?;
        match parse_json::<T>(&answer.text) {
            Ok(value) => Ok((value, answer)),
            Err(reason) => {
                self.mark_invalid(&id, &reason).await?;
                Err(UtilityError::Invalid(reason))
            }
        }
    }

    /// The recorded calls, newest first: of one feature, from a moment on.
    pub async fn calls(
        &self,
        feature: Option<Feature>,
        from: Option<OffsetDateTime>,
        limit: usize,
    ) -> Result<Vec<UtilityCall>, UtilityError> {
        let db = self.db.clone();
        blocking(move || ledger::calls(&db, feature, from, limit)).await
    }

    /// What each feature spent since `since`, and how many calls it made.
    pub async fn spend(&self, since: OffsetDateTime) -> Result<Vec<FeatureSpend>, UtilityError> {
        let db = self.db.clone();
        blocking(move || ledger::spend(&db, since)).await
    }

    /// True the first time it is asked for `key`, never again: a notice
    /// ("no primary engine") said once, not at every call.
    pub async fn first_notice(&self, key: &str) -> Result<bool, UtilityError> {
        let db = self.db.clone();
        let key = key.to_owned();
        let at = self.clock.timestamp();
        blocking(move || ledger::first_notice(&db, &key, &at)).await
    }

    /// Checks the engine and the budget; a refusal is recorded.
    async fn admit(&self, ask: &Ask<'_>) -> Result<Engine, UtilityError> {
        let Some(engine) = self.engine() else {
            self.record_refusal(ask, None, Outcome::NoEngine, None)
                .await?;
            return Err(UtilityError::NoEngine);
        };
        self.check_budget(ask, &engine).await?;
        Ok(engine)
    }

    /// Refuses, and records the refusal, once the feature's cap is reached.
    async fn check_budget(&self, ask: &Ask<'_>, engine: &Engine) -> Result<(), UtilityError> {
        if let Some(cap) = ask.budget.cap() {
            let db = self.db.clone();
            let (feature, since) = (ask.feature, ask.budget.since);
            let spent = blocking(move || ledger::spent(&db, feature, since)).await?;
            if spent >= cap {
                let error = UtilityError::Capped {
                    feature: ask.feature.as_str(),
                    spent,
                    cap,
                };
                self.record_refusal(ask, Some(engine), Outcome::Capped, Some(error.to_string()))
                    .await?;
                return Err(error);
            }
        }
        Ok(())
    }

    async fn record_refusal(
        &self,
        ask: &Ask<'_>,
        engine: Option<&Engine>,
        outcome: Outcome,
        error: Option<String>,
    ) -> Result<(), UtilityError> {
        let call = UtilityCall {
            id: uuid::Uuid::now_v7().to_string(),
            feature: ask.feature,
            engine: engine.map(|e| e.name.clone()),
            model: ask.model.map(str::to_owned),
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: None,
            duration_ms: 0,
            outcome,
            error,
            at: self.clock.timestamp(),
        };
        let db = self.db.clone();
        blocking(move || ledger::record(&db, &call)).await
    }

    /// Runs the CLI once and records it; the id names the record, so a
    /// caller can mark an answer it could not use.
    async fn run(
        &self,
        engine: &Engine,
        model: Model<'_>,
        ask: &Ask<'_>,
        prompt: &str,
    ) -> Result<(Answer, String), UtilityError> {
        self.run_with(engine, model, ask, prompt, None).await
    }

    async fn run_with(
        &self,
        engine: &Engine,
        model: Model<'_>,
        ask: &Ask<'_>,
        prompt: &str,
        image: Option<&ImageInput<'_>>,
    ) -> Result<(Answer, String), UtilityError> {
        let started = Instant::now();
        let at = self.clock.timestamp();
        let result = engine
            .run(
                prompt,
                image,
                model,
                &self.workdir,
                &self.policy,
                self.timeout,
            )
            .await;
        let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let id = uuid::Uuid::now_v7().to_string();
        let mut call = UtilityCall {
            id: id.clone(),
            feature: ask.feature,
            engine: Some(engine.name.clone()),
            model: ask.model.map(str::to_owned),
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: None,
            duration_ms,
            outcome: Outcome::Ok,
            error: None,
            at,
        };
        let outcome = match result {
            Ok(reply) => {
                call.model = call.model.or(reply.model);
                call.input_tokens = reply.answer.input_tokens;
                call.output_tokens = reply.answer.output_tokens;
                call.cost_usd = reply.answer.cost_usd;
                Ok(reply.answer)
            }
            Err(reason) => {
                call.outcome = Outcome::Failed;
                call.error = Some(clip(&reason, 1_000).to_owned());
                Err(UtilityError::Failed(reason))
            }
        };
        let db = self.db.clone();
        blocking(move || ledger::record(&db, &call)).await?;
        outcome.map(|answer| (answer, id))
    }

    async fn mark_invalid(&self, id: &str, reason: &str) -> Result<(), UtilityError> {
        let db = self.db.clone();
        let (id, reason) = (id.to_owned(), clip(reason, 1_000).to_owned());
        blocking(move || ledger::mark_invalid(&db, &id, &reason)).await
    }
}

/// The JSON value in a model's reply: the whole text, else the text between
/// a code fence, else from the first `{` or `[` to the last `}` or `]`.
fn parse_json<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let text = text.trim();
    let fenced = text
        .strip_prefix("```json")
        .or_else(|| text.strip_prefix("```"))
        .and_then(|rest| rest.rsplit_once("```"))
        .map(|(inside, _)| inside.trim());
    let spanned = text
        .find(['{', '['])
        .zip(text.rfind(['}', ']']))
        .filter(|(start, end)| start < end)
        .map(|(start, end)| &text[start..=end]);
    let mut last_error = "the reply is empty".to_owned();
    for candidate in [Some(text), fenced, spanned].into_iter().flatten() {
        match serde_json::from_str::<T>(candidate) {
            Ok(value) => return Ok(value),
            Err(error) => last_error = error.to_string(),
        }
    }
    Err(last_error)
}

/// At most `limit` bytes of `text`, cut at a character boundary.
fn clip(text: &str, limit: usize) -> &str {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, store::StoreError> + Send + 'static,
) -> Result<T, UtilityError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| UtilityError::Failed(format!("the database task failed: {error}")))?
        .map_err(UtilityError::Store)
}

#[cfg(test)]
mod tests;

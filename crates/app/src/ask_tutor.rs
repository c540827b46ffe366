//! The Ask tutor as the application runs it (docs/ask.md): the engine it
//! runs on, checked in the doctor's words before each question; the docs
//! laid out where its session may read them; a fact sheet gathered from the
//! live services; and the spawn request that puts its session in the `ask`
//! project, at the `read_only` level, with a token that may only read.

use std::sync::Mutex;

use sessions::{Isolation, SpawnRequest, Status, Trigger};

use crate::services::App;

/// The engine the tutor runs on: the one spawns use when they name none.
pub const TUTOR_ENGINE: &str = "primary";

/// Characters a question may have.
pub const MAX_QUESTION_CHARS: usize = 8_000;

/// Keeps two questions from laying out the docs at once.
static DOCS_LAID_OUT: Mutex<()> = Mutex::new(());

#[derive(Debug, thiserror::Error)]
pub enum TutorError {
    #[error("A question is 1 to {MAX_QUESTION_CHARS} characters.")]
    BadQuestion,
    /// No engine of that name is in force: the doctor's words.
    #[error("{0}")]
    EngineMissing(String),
    /// The engine is there but cannot start a session: the doctor's words.
    #[error("{0}")]
    EngineUnavailable(String),
    #[error(transparent)]
    Docs(#[from] ask::AskError),
    #[error("the docs could not be laid out: {0}")]
    Task(String),
}

impl App {
    /// The engines in force as the doctor sees them, without reaching runners.
    pub async fn tutor_engines(&self) -> doctor::EnginesInForce {
        let data_dir = self.data_dir.clone();
        let supervisor = self.sessions.clone();
        let runtime = tokio::runtime::Handle::current();
        let examined = tokio::task::spawn_blocking(move || {
            doctor::examine_engines(
                &data_dir,
                doctor::Versions::Kept {
                    supervisor: &supervisor,
                    runtime,
                },
            )
        })
        .await;
        examined.unwrap_or_else(|error| doctor::EnginesInForce {
            file: doctor::EnginesFile {
                path: sessions::engines::engines_path(&self.data_dir)
                    .display()
                    .to_string(),
                present: false,
                error: Some(error.to_string()),
            },
            engines: Vec::new(),
            blockers: vec![format!("The engines could not be examined: {error}")],
        })
    }

    /// What a new Ask session is started with for `question`: the docs laid
    /// out, the tutor's engine checked, the first prompt with a fresh sheet.
    pub async fn ask_request(
        &self,
        account_id: &str,
        question: &str,
    ) -> Result<SpawnRequest, TutorError> {
        let question = question.trim();
        if question.is_empty() || question.chars().count() > MAX_QUESTION_CHARS {
            return Err(TutorError::BadQuestion);
        }
        let engines = self.tutor_engines().await;
        tutor_ready(&engines)?;
        let data_dir = self.data_dir.clone();
        let folder = tokio::task::spawn_blocking(move || {
            let _alone = DOCS_LAID_OUT.lock().unwrap_or_else(|p| p.into_inner());
            ask::prepare_docs(&data_dir)
        })
        .await
        .map_err(|error| TutorError::Task(error.to_string()))??;
        let sheet = self.ask_facts(account_id, &engines).await.render();
        let title: String = question.chars().take(80).collect();
        Ok(SpawnRequest {
            engine: Some(TUTOR_ENGINE.to_owned()),
            prompt: ask::first_turn(question, &sheet, &ask::doc_names()),
            cwd: Some(folder.display().to_string()),
            title: Some(title),
            isolation: Some(Isolation::Worktree),
            trigger: Some(Trigger::Ask),
            permission_level: Some(permissions::Level::ReadOnly),
            ..SpawnRequest::default()
        })
    }

    /// A follow-up in an Ask conversation, with a fresh sheet before it.
    pub async fn ask_follow_up(&self, account_id: &str, text: &str) -> String {
        let engines = self.tutor_engines().await;
        let sheet = self.ask_facts(account_id, &engines).await.render();
        ask::follow_up(text, &sheet)
    }

    /// The installation as it is now, for the account's fact sheet; what
    /// cannot be read stays `None` (`unknown` on the sheet).
    pub async fn ask_facts(
        &self,
        account_id: &str,
        engines: &doctor::EnginesInForce,
    ) -> ask::Facts {
        let runners = self.list_runners(false).await.ok().map(|listed| {
            listed
                .into_iter()
                .map(|runner| ask::RunnerFact {
                    name: runner.name,
                    state: runner.state.as_str().to_owned(),
                    reason: runner.reason,
                })
                .collect()
        });
        let engines = engines.file.error.is_none().then(|| {
            engines
                .engines
                .iter()
                .map(|engine| ask::EngineFact {
                    name: engine.name.clone(),
                    kind: engine.kind.clone(),
                    version: engine.version.clone(),
                })
                .collect()
        });
        let sessions = self.sessions.list_records(account_id).await.ok();
        let pick = |wanted: Status| {
            sessions.as_ref().map(|all| {
                all.iter()
                    .filter(|s| s.status == wanted && !s.archived && s.project.is_none())
                    .map(|s| ask::SessionFact {
                        id: s.id.clone(),
                        title: s.title.clone(),
                        error: s.error.clone(),
                    })
                    .collect()
            })
        };
        ask::Facts {
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            runners,
            engines,
            changed_settings: Some(self.changed_settings()),
            waiting: pick(Status::WaitingForInput),
            failed: pick(Status::Failed),
            recent_errors: ask::log_ring::recent(),
        }
    }

    fn changed_settings(&self) -> Vec<(String, String)> {
        self.settings
            .all()
            .into_iter()
            .filter(|(key, value)| {
                self.settings
                    .get(key)
                    .is_ok_and(|view| view.default != *value)
            })
            .map(|(key, value)| (key, value.to_string()))
            .collect()
    }
}

/// Whether the tutor's engine can start a session, in the doctor's words
/// when it cannot.
fn tutor_ready(engines: &doctor::EnginesInForce) -> Result<(), TutorError> {
    let Some(engine) = engines.engines.iter().find(|e| e.name == TUTOR_ENGINE) else {
        let why = engines.blockers.first().cloned().unwrap_or_else(|| {
            format!(
                "{} names no engine `{TUTOR_ENGINE}`, which the Ask tutor runs on.",
                engines.file.path
            )
        });
        return Err(TutorError::EngineMissing(why));
    };
    if engine.can_run() {
        Ok(())
    } else {
        Err(TutorError::EngineUnavailable(format!(
            "The Ask tutor's engine `{TUTOR_ENGINE}` cannot start: {}",
            engine.blockers.join(" ")
        )))
    }
}

//! The secrets crate end to end on a real database and folder: requests answered into files and nothing stored, saved keys sealed and reused by name, expiry on a manual clock, bad input refused with nothing changed, proposals kept only once saved.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clock::ManualClock;

use crate::*;

struct Fixture {
    dir: tempfile::TempDir,
    clock: Arc<ManualClock>,
    secrets: Secrets,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(MIGRATIONS).unwrap();
        let clock = Arc::new(ManualClock::starting_now());
        let cipher = Cipher::load_or_create(&dir.path().join(KEY_FILE)).unwrap();
        std::fs::create_dir(dir.path().join("project")).unwrap();
        let secrets = Secrets::new(db, clock.clone(), cipher);
        Self {
            dir,
            clock,
            secrets,
        }
    }

    fn folder(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn ask(&self, account: &str, name: &str) -> InputRequest {
        let folder = self.folder();
        self.secrets
            .open_request(&NewInputRequest {
                account_id: account,
                session_id: "s1",
                folder: &folder,
                name,
                prompt: "Paste your API key",
                file: None,
            })
            .unwrap()
    }

    /// Every byte the data directory holds (the database and its WAL).
    fn stored_bytes(&self) -> Vec<u8> {
        let mut all = Vec::new();
        for entry in std::fs::read_dir(self.dir.path()).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() && path.file_name().is_some_and(|n| n != "project") {
                all.extend(std::fs::read(&path).unwrap());
            }
        }
        all
    }
}

fn holds(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn an_answer_reaches_the_file_and_nothing_stored() {
    let f = Fixture::new();
    let request = f.ask("a", "OPENAI_API_KEY");
    assert_eq!(request.state, RequestState::Pending);
    assert_eq!(
        Path::new(&request.file),
        f.folder().canonicalize().unwrap().join(".env")
    );
    let answered = f
        .secrets
        .answer(
            "a",
            &request.id,
            Answer::Value {
                value: "sk-typed-by-user".into(),
                remember: false,
            },
        )
        .unwrap();
    assert_eq!(answered.state, RequestState::Saved);
    assert_eq!(
        read(Path::new(&request.file)),
        "OPENAI_API_KEY=sk-typed-by-user\n"
    );
    assert!(!holds(&f.stored_bytes(), "sk-typed-by-user"));
    assert!(f.secrets.keys("a").unwrap().is_empty());

    // Answered once: a second answer changes nothing.
    let again = f.secrets.answer("a", &request.id, Answer::Decline);
    assert!(matches!(again, Err(SecretsError::AlreadyAnswered("saved"))));
}

#[test]
fn a_remembered_value_is_sealed_and_answers_a_later_request_by_name() {
    let f = Fixture::new();
    let first = f.ask("a", "TOKEN");
    f.secrets
        .answer(
            "a",
            &first.id,
            Answer::Value {
                value: "remember-me-42".into(),
                remember: true,
            },
        )
        .unwrap();
    assert!(!holds(&f.stored_bytes(), "remember-me-42"));
    let keys = f.secrets.keys("a").unwrap();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0].name, "TOKEN");
    assert!(f.secrets.keys("b").unwrap().is_empty());

    std::fs::remove_file(&first.file).unwrap();
    let second = f.ask("a", "OTHER_NAME");
    f.secrets
        .answer("a", &second.id, Answer::SavedKey("TOKEN".into()))
        .unwrap();
    assert_eq!(read(Path::new(&second.file)), "OTHER_NAME=remember-me-42\n");

    // Another account cannot use it, nor see the request.
    let theirs = f.ask("b", "X");
    let refused = f
        .secrets
        .answer("b", &theirs.id, Answer::SavedKey("TOKEN".into()));
    assert!(matches!(refused, Err(SecretsError::KeyNotFound(_))));
    assert!(matches!(
        f.secrets.request("b", &second.id),
        Err(SecretsError::RequestNotFound)
    ));

    f.secrets.delete_key("a", "TOKEN").unwrap();
    assert!(f.secrets.keys("a").unwrap().is_empty());
}

#[test]
fn a_request_expires_after_ten_minutes_on_the_clock() {
    let f = Fixture::new();
    let request = f.ask("a", "KEY");
    f.clock.advance(INPUT_WAIT - time::Duration::seconds(1));
    assert_eq!(
        f.secrets.request("a", &request.id).unwrap().state,
        RequestState::Pending
    );
    f.clock.advance(time::Duration::seconds(1));
    assert_eq!(
        f.secrets.request("a", &request.id).unwrap().state,
        RequestState::Expired
    );
    assert!(f.secrets.requests("a", true).unwrap().is_empty());
    let late = f.secrets.answer(
        "a",
        &request.id,
        Answer::Value {
            value: "late".into(),
            remember: false,
        },
    );
    assert!(matches!(
        late,
        Err(SecretsError::AlreadyAnswered("expired"))
    ));
    assert!(!Path::new(&request.file).exists());
}

#[test]
fn bad_requests_and_values_are_refused_and_change_nothing() {
    let f = Fixture::new();
    let folder = f.folder();
    let ask = |name: &str, prompt: &str, file: Option<&str>| {
        f.secrets.open_request(&NewInputRequest {
            account_id: "a",
            session_id: "s1",
            folder: &folder,
            name,
            prompt,
            file,
        })
    };
    assert!(matches!(
        ask("1BAD", "p", None),
        Err(SecretsError::InvalidName)
    ));
    assert!(matches!(
        ask("A=B", "p", None),
        Err(SecretsError::InvalidName)
    ));
    assert!(matches!(
        ask("OK", "  ", None),
        Err(SecretsError::InvalidPrompt)
    ));
    assert!(matches!(
        ask("OK", "p", Some("../../.bashrc")),
        Err(SecretsError::FileOutsideFolder { .. })
    ));
    assert!(f.secrets.requests("a", false).unwrap().is_empty());

    let request = f.ask("a", "KEY");
    let split = f.secrets.answer(
        "a",
        &request.id,
        Answer::Value {
            value: "line\nINJECTED=1".into(),
            remember: false,
        },
    );
    assert!(matches!(split, Err(SecretsError::InvalidValue)));
    assert_eq!(
        f.secrets.request("a", &request.id).unwrap().state,
        RequestState::Pending
    );
    assert!(!Path::new(&request.file).exists());
}

#[test]
fn a_proposal_is_saved_only_when_the_user_saves_it() {
    let f = Fixture::new();
    let proposal = f
        .secrets
        .propose(&NewProposal {
            account_id: "a",
            session_id: "s1",
            name: "GITHUB_TOKEN",
            value: "ghp_proposed",
        })
        .unwrap();
    assert!(f.secrets.keys("a").unwrap().is_empty());
    assert!(!holds(&f.stored_bytes(), "ghp_proposed"));
    let reviewed = f.secrets.review("a", &proposal.id).unwrap();
    assert_eq!(reviewed.value.as_deref(), Some("ghp_proposed"));
    assert!(f.secrets.review("b", &proposal.id).is_err());

    let saved = f
        .secrets
        .decide_proposal(
            "a",
            &proposal.id,
            ProposalDecision::Save {
                name: "GH_TOKEN".into(),
                value: "ghp_edited".into(),
            },
        )
        .unwrap();
    assert_eq!(saved.state, ProposalState::Saved);
    assert_eq!(f.secrets.keys("a").unwrap()[0].name, "GH_TOKEN");
    assert_eq!(f.secrets.review("a", &proposal.id).unwrap().value, None);

    let request = f.ask("a", "GH_TOKEN");
    f.secrets
        .answer("a", &request.id, Answer::SavedKey("GH_TOKEN".into()))
        .unwrap();
    assert_eq!(read(Path::new(&request.file)), "GH_TOKEN=ghp_edited\n");

    let discarded = f
        .secrets
        .propose(&NewProposal {
            account_id: "a",
            session_id: "s1",
            name: "DROP_ME",
            value: "x",
        })
        .unwrap();
    f.secrets
        .decide_proposal("a", &discarded.id, ProposalDecision::Discard)
        .unwrap();
    assert_eq!(f.secrets.keys("a").unwrap().len(), 1);
    assert!(f.secrets.proposals("a", true).unwrap().is_empty());
    assert_eq!(f.secrets.proposals("a", false).unwrap().len(), 2);
}

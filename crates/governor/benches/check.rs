//! One governor check over 10,000 stored sessions (most finished, 2,000
//! interrupted, 1,000 paused, each with a turn), with the refill target
//! reached so the check plans over every candidate and revives none: the
//! time of reading the fleet, the revive history and the day's spend, and
//! planning. p50, p95 and max over 200 checks, printed (issue 14 aims at
//! under 10 ms).

use std::sync::Arc;
use std::time::{Duration, Instant};

use governor::{Governor, Rules};
use store::rusqlite::params;

const SESSIONS: usize = 10_000;
const CHECKS: usize = 200;

struct NoTokens;

impl sessions::TokenIssuer for NoTokens {
    fn mint(&self, _: &str, _: &str, _: sessions::TokenAccess) -> String {
        String::new()
    }
    fn revoke(&self, _: &str) {}
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let db = Arc::new(store::Db::open(&dir.path().join("bench.db")).expect("the database"));
        db.migrate(governor::MIGRATIONS).expect("migrations");
        let clock: Arc<dyn clock::Clock> = Arc::new(clock::SystemClock);
        let supervisor = sessions::Supervisor::start(
            db.clone(),
            clock.clone(),
            dir.path().to_owned(),
            None,
            Arc::new(NoTokens),
            sessions::Hooks::default(),
            false,
        )
        .await
        .expect("the supervisor");
        let now = clock.timestamp();
        db.write(|tx| {
            for n in 0..SESSIONS {
                let status = match n % 10 {
                    0 | 1 => "interrupted",
                    2 => "paused",
                    _ => "finished",
                };
                let id = format!("s{n:05}");
                tx.execute(
                    "INSERT INTO sessions (id, account_id, engine, engine_kind, engine_spec, cwd,
                       prompt, status, agent_driven, max_dollars, max_turns, created_at, updated_at,
                       last_turn_at, reports_cost)
                     VALUES (?1, 'a', 'primary', 'claude', '{}', '/tmp', 'p', ?2, 0, 0, 0, ?3, ?3, ?3, 1)",
                    params![id, status, now],
                )?;
                tx.execute(
                    "INSERT INTO session_turns (session_id, turn, kind, input, status, started_at, cost_usd)
                     VALUES (?1, 1, 'prompt', 'p', 'done', ?2, 0.01)",
                    params![id, now],
                )?;
            }
            Ok::<_, store::StoreError>(())
        })
        .expect("the sessions");
        let governor = Governor::new(db, clock, supervisor, jiff::tz::TimeZone::system());
        let rules = Rules {
            target: 0,
            batch: 5,
            cooldown: time::Duration::minutes(30),
            max_age: time::Duration::hours(48),
            max_per_day: 3,
            spend_cap_usd: 50.0,
            include_paused: true,
            reopen_closed: false,
        };
        let mut samples: Vec<Duration> = Vec::with_capacity(CHECKS);
        let mut candidates = 0;
        for _ in 0..CHECKS {
            let started = Instant::now();
            let check = governor.check(&rules).await.expect("a check").expect("not running");
            samples.push(started.elapsed());
            candidates = check.candidates;
        }
        samples.sort();
        let at = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
        println!(
            "governor check over {SESSIONS} stored sessions ({candidates} dormant): p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms (aim: under 10 ms)",
            at(0.5).as_secs_f64() * 1e3,
            at(0.95).as_secs_f64() * 1e3,
            at(1.0).as_secs_f64() * 1e3,
        );
    });
}

//! Which web apps are open, and in front, as they report it, and whether
//! the page in front is a session's (the agent-watching time of
//! `watchingTimeRecapCardEnabled`).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use clock::Clock;
use time::{Duration, OffsetDateTime};

use crate::Front;

/// How often an open web app says it is still there.
pub const HEARTBEAT: Duration = Duration::seconds(30);
/// A web app not heard from for this long is gone (its tab closed without a word).
pub const PRESENCE_TTL: Duration = Duration::seconds(75);

#[derive(Debug, Clone, Copy)]
struct Seen {
    visible: bool,
    at: OffsetDateTime,
    /// Since when this tab has had a session's page in front, if it has.
    watching_since: Option<OffsetDateTime>,
}

pub struct Presence {
    clock: Arc<dyn Clock>,
    /// Per account, per web app (a tab's own id).
    apps: Mutex<HashMap<(String, String), Seen>>,
}

impl Presence {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        Self {
            clock,
            apps: Mutex::new(HashMap::new()),
        }
    }

    /// A web app's report: shown (`visible`) or hidden. `gone` forgets it
    /// (the tab is closing).
    pub fn report(&self, account_id: &str, app_id: &str, visible: bool, gone: bool) {
        self.report_page(account_id, app_id, visible, gone, false);
    }

    /// [`Presence::report`] from a tab that says whether it shows a
    /// session's page.
    pub fn report_page(
        &self,
        account_id: &str,
        app_id: &str,
        visible: bool,
        gone: bool,
        session_page: bool,
    ) {
        let key = (account_id.to_owned(), app_id.to_owned());
        let mut apps = self.lock();
        if gone {
            apps.remove(&key);
            return;
        }
        let now = self.clock.now();
        let watching_since = (visible && session_page).then(|| {
            apps.get(&key)
                .filter(|seen| now - seen.at < PRESENCE_TTL)
                .and_then(|seen| seen.watching_since)
                .unwrap_or(now)
        });
        apps.insert(
            key,
            Seen {
                visible,
                at: now,
                watching_since,
            },
        );
        // Forgotten tabs go when anyone reports, so the map stays small.
        apps.retain(|_, seen| now - seen.at < PRESENCE_TTL);
    }

    /// Whether any account has a tab of the app in front now.
    pub fn any_visible(&self) -> bool {
        let now = self.clock.now();
        self.lock()
            .values()
            .any(|seen| seen.visible && now - seen.at < PRESENCE_TTL)
    }

    /// The accounts with a session's page in front in a tab heard from
    /// lately, each with the moment the earliest such page came in front,
    /// so time before it is not counted as watched.
    pub fn watching(&self) -> BTreeMap<String, OffsetDateTime> {
        let now = self.clock.now();
        let mut accounts = BTreeMap::new();
        for ((account, _), seen) in self.lock().iter() {
            let Some(since) = seen.watching_since else {
                continue;
            };
            if now - seen.at < PRESENCE_TTL {
                accounts
                    .entry(account.clone())
                    .and_modify(|earliest: &mut OffsetDateTime| *earliest = (*earliest).min(since))
                    .or_insert(since);
            }
        }
        accounts
    }

    pub fn front(&self, account_id: &str) -> Front {
        let now = self.clock.now();
        let apps = self.lock();
        let live = apps
            .iter()
            .filter(|((account, _), seen)| account == account_id && now - seen.at < PRESENCE_TTL)
            .map(|(_, seen)| seen.visible);
        let mut front = Front::None;
        for visible in live {
            if visible {
                return Front::Visible;
            }
            front = Front::Hidden;
        }
        front
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Seen>> {
        self.apps.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use clock::ManualClock;

    use super::*;

    #[test]
    fn an_app_is_in_front_while_shown_and_heard_from() {
        let clock = Arc::new(ManualClock::starting_now());
        let presence = Presence::new(clock.clone());
        assert_eq!(presence.front("a"), Front::None);
        presence.report("a", "tab1", false, false);
        assert_eq!(presence.front("a"), Front::Hidden);
        presence.report("a", "tab2", true, false);
        assert_eq!(presence.front("a"), Front::Visible);
        assert_eq!(presence.front("b"), Front::None);
        presence.report("a", "tab2", false, true);
        assert_eq!(presence.front("a"), Front::Hidden);
        clock.advance(PRESENCE_TTL);
        assert_eq!(presence.front("a"), Front::None, "a silent tab is gone");
    }

    #[test]
    fn watching_is_a_session_page_in_front() {
        let clock = Arc::new(ManualClock::starting_now());
        let presence = Presence::new(clock.clone());
        presence.report_page("a", "tab1", true, false, false);
        presence.report_page("b", "tab2", false, false, true);
        assert!(presence.watching().is_empty());
        let first_in_front = clock.now();
        presence.report_page("a", "tab3", true, false, true);
        let since = |presence: &Presence| presence.watching().into_iter().collect::<Vec<_>>();
        assert_eq!(since(&presence), vec![("a".to_owned(), first_in_front)]);
        clock.advance(HEARTBEAT);
        presence.report_page("a", "tab3", true, false, true);
        presence.report_page("a", "tab4", true, false, true);
        assert_eq!(
            since(&presence),
            vec![("a".to_owned(), first_in_front)],
            "a heartbeat keeps the moment the page came in front, and the earliest tab counts"
        );
        presence.report_page("a", "tab3", true, false, false);
        presence.report_page("a", "tab4", true, false, false);
        clock.advance(HEARTBEAT);
        presence.report_page("a", "tab3", true, false, true);
        assert_eq!(
            since(&presence),
            vec![("a".to_owned(), clock.now())],
            "a page in front again counts from then"
        );
        clock.advance(PRESENCE_TTL);
        assert!(
            presence.watching().is_empty(),
            "a silent tab watches nothing"
        );
    }
}

//! The daily briefing (`dailyDigestEnabled`, docs/briefings.md): one
//! `digest` row per account when a new day begins in the inbox's zone (the
//! project-event notifier's tick says when; `POST /digests/run?kind=daily`
//! runs one at once), with one section per source on in
//! `dailyDigestSources`. The facts are gathered first, without the model:
//! today's calendar and due tasks, unread mail from people in the mail
//! client, yesterday's project events and project digests, this morning's
//! feed picks, what the sessions did, yesterday's team chat mentions of the
//! person (`mention_user` in `teamchat.toml`), and a line for each source
//! that is not set up (text messages, the messenger). The
//! utility model then writes once over them; when it cannot (no engine,
//! failing), the row is the facts alone.

use std::sync::Arc;

use briefings::SummaryBook;
use briefings::sections::{self, Section, Source};
use inbox::{Category, ListQuery, NewRow, StateFilter};
use jiff::civil::Date;
use pm_inbox::{DayRange, Notifier, window};
use utility::{Ask, Feature};

use crate::error::blocking;
use crate::services::App;
use crate::{calendar_words, rss_digest, utility_model};

/// The most lines one section lists.
const LISTED: usize = 15;

/// Posts `account_id`'s briefing after the day `range` ended; the row's id.
pub(crate) async fn post(
    state: &App,
    notifier: &Arc<Notifier>,
    account_id: &str,
    range: &DayRange,
) -> Option<String> {
    let today = range.day.tomorrow().unwrap_or(range.day);
    let mut gathered = Vec::new();
    for source in Source::chosen(&state.settings.daily_digest_sources()) {
        gathered.push(section(state, notifier, account_id, range, today, source).await);
    }
    let facts = sections::facts(&gathered);
    let prompt = sections::prompt(&today.to_string(), &facts);
    let ask = Ask {
        feature: Feature::DailyBriefing,
        model: None,
        prompt: &prompt,
        budget: utility_model::budget(state, Feature::DailyBriefing),
    };
    let written = match state.utility.text(&ask).await {
        Ok(answer) => Some(answer.text),
        Err(error) => {
            utility_model::report(state, account_id, Feature::DailyBriefing, &error).await;
            None
        }
    };
    let title = format!("Daily briefing for {today}");
    let body = inbox::clip(
        &sections::body(written.as_deref(), &facts),
        inbox::MAX_BODY_CHARS,
    );
    let mut row = NewRow::new(Category::Digest, title.clone());
    row.body = Some(body.clone());
    let (inbox, account) = (state.inbox.clone(), account_id.to_owned());
    match blocking(move || inbox.add(&account, row)).await {
        Ok(added) => {
            let id = added.row.id.clone();
            crate::publish::inbox_added(state, account_id, added);
            state.push_briefing(account_id, &id, &title, &body);
            Some(id)
        }
        Err(error) => {
            tracing::warn!(%error, "cannot post the daily briefing");
            None
        }
    }
}

async fn section(
    state: &App,
    notifier: &Arc<Notifier>,
    account_id: &str,
    range: &DayRange,
    today: Date,
    source: Source,
) -> Section {
    let lines = match source {
        Source::Calendar => {
            if !state.settings.calendar_enabled() {
                return Section::not_set_up(source, "calendars are off");
            }
            let mut lines = calendar_lines(state, account_id, today).await;
            lines.extend(due_tasks(state, account_id, today).await);
            lines
        }
        Source::Webmail => return webmail(state, account_id).await,
        Source::PmEvents => {
            let (notifier, account, day) = (
                notifier.clone(),
                account_id.to_owned(),
                range.day.to_string(),
            );
            match tokio::task::spawn_blocking(move || notifier.day_events(&account, &day)).await {
                Ok(Ok((0, _))) => Vec::new(),
                Ok(Ok((events, listed))) => project_lines(events, &listed),
                Ok(Err(error)) => vec![format!("could not be read ({error})")],
                Err(error) => vec![format!("could not be read ({error})")],
            }
        }
        Source::PmFeedDigest => project_digests(state, account_id, range).await,
        Source::Rss => {
            if !state.settings.rss_digest_enabled() {
                return Section::not_set_up(source, "rssDigestEnabled is off");
            }
            match rss_digest::picks(state, account_id, &today.to_string()).await {
                Some(picks) => picks
                    .lines()
                    .filter(|line| !line.trim().is_empty())
                    .map(|line| line.trim_start_matches("- ").to_owned())
                    .collect(),
                None => vec!["no morning digest yet today".to_owned()],
            }
        }
        Source::Sessions => sessions(state, account_id, range).await,
        Source::ChatApp => return chat_mentions(state, account_id, range).await,
        Source::Sms => return Section::not_set_up(source, "no text relay in this version"),
        Source::Messenger => {
            if !state.data_dir.join(messenger::CONFIG_FILE).exists() {
                return Section::not_set_up(source, "no messenger.toml");
            }
            messenger_chats(state, account_id, range).await
        }
    };
    Section::new(source, lines)
}

/// The day's project events as lines: the count, then each notice named
/// by its board (the notifier lists them under a `Board (n)` heading).
fn project_lines(events: u32, listed: &str) -> Vec<String> {
    let mut lines = vec![match events {
        1 => "1 event yesterday".to_owned(),
        n => format!("{n} events yesterday"),
    }];
    let mut board = "";
    for line in listed.lines() {
        if let Some(notice) = line.strip_prefix("- ") {
            lines.push(format!("{board}: {notice}"));
        } else if !line.trim().is_empty() {
            board = line.rsplit_once(" (").map_or(line, |(name, _)| name);
        }
    }
    lines
}

/// The stored form of a moment, so text comparison is time comparison.
fn stored(at: jiff::Timestamp) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(at.as_nanosecond())
        .map(clock::timestamp)
        .unwrap_or_default()
}

/// Open tasks due `today`, every list of the account's.
async fn due_tasks(state: &App, account_id: &str, today: Date) -> Vec<String> {
    let (tasks, account, day) = (
        state.tasks.clone(),
        account_id.to_owned(),
        today.to_string(),
    );
    let found = tokio::task::spawn_blocking(move || tasks.list(&account, None)).await;
    let Ok(Ok(all)) = found else {
        return Vec::new();
    };
    all.into_iter()
        .filter(|t| t.state == tasks::TaskState::Open && t.due.as_deref() == Some(day.as_str()))
        .take(LISTED)
        .map(|t| format!("Due today: {}", t.text))
        .collect()
}

/// Unread mail in each mail client account's inbox from people: a mail
/// with a `List-Id` or `List-Unsubscribe` came from a list.
async fn webmail(state: &App, account_id: &str) -> Section {
    if !state.mail_enabled() {
        return Section::not_set_up(
            Source::Webmail,
            "mailclientEnabled and webmailEnabled are off",
        );
    }
    let accounts = state.mail_accounts(account_id).await.unwrap_or_default();
    if accounts.is_empty() {
        return Section::not_set_up(Source::Webmail, "no mail account");
    }
    let store = state.mail.store.clone();
    let ids: Vec<String> = accounts.into_iter().map(|a| a.id).collect();
    let read = tokio::task::spawn_blocking(move || {
        let mut senders: Vec<(String, usize)> = Vec::new();
        for id in ids {
            let folder = store
                .folder_with_role(&id, mailclient::Role::Inbox)
                .ok()
                .flatten()
                .unwrap_or_else(|| "INBOX".to_owned());
            for (_, raw, unread) in store.header_fields(&id, &folder).unwrap_or_default() {
                let headers = mailclient::sender_headers(&raw, unread);
                if !unread || headers.list_id.is_some() || headers.list_unsubscribe.is_some() {
                    continue;
                }
                match senders.iter_mut().find(|(from, _)| *from == headers.from) {
                    Some((_, count)) => *count += 1,
                    None => senders.push((headers.from, 1)),
                }
            }
        }
        senders
    })
    .await
    .unwrap_or_default();
    let total: usize = senders_total(&read);
    let mut lines = Vec::new();
    if total > 0 {
        lines.push(format!("{total} unread from people"));
        lines.extend(read.iter().take(LISTED).map(|(from, count)| match count {
            1 => from.clone(),
            n => format!("{from} ({n})"),
        }));
    }
    Section::new(Source::Webmail, lines)
}

fn senders_total(senders: &[(String, usize)]) -> usize {
    senders.iter().map(|(_, n)| n).sum()
}

/// The hourly project digests the day that ended brought.
async fn project_digests(state: &App, account_id: &str, range: &DayRange) -> Vec<String> {
    let (inbox, account) = (state.inbox.clone(), account_id.to_owned());
    let (from, to) = (stored(range.from), stored(range.to));
    let query = ListQuery {
        category: Some(Category::Digest),
        state: StateFilter::All,
        before: None,
        limit: 200,
        hidden: Vec::new(),
    };
    let rows = blocking(move || inbox.list(&account, &query))
        .await
        .unwrap_or_default();
    rows.into_iter()
        .filter(|r| r.title.starts_with("Project digest"))
        .filter(|r| r.created_at >= from && r.created_at < to)
        .take(LISTED)
        .map(|r| r.title)
        .collect()
}

/// What the sessions did in the day that ended, and who waits now.
async fn sessions(state: &App, account_id: &str, range: &DayRange) -> Vec<String> {
    let all = state.sessions.list(account_id).await.unwrap_or_default();
    let (from, to) = (stored(range.from), stored(range.to));
    let within = |at: &str| from.as_str() <= at && at < to.as_str();
    let (mut started, mut finished, mut failed, mut cost) = (0, 0, 0, 0.0);
    for session in &all {
        let (began, changed) = (within(&session.created_at), within(&session.updated_at));
        started += usize::from(began);
        finished += usize::from(changed && session.status == sessions::Status::Finished);
        failed += usize::from(changed && session.status == sessions::Status::Failed);
        if began || changed {
            cost += session.cost_usd.unwrap_or(0.0);
        }
    }
    let mut lines = vec![format!(
        "{started} started, {finished} finished, {failed} failed; cost ${cost:.2}"
    )];
    let waiting: Vec<&sessions::Session> = all
        .iter()
        .filter(|s| s.status == sessions::Status::WaitingForInput && s.archived_at.is_none())
        .collect();
    if !waiting.is_empty() {
        lines.push(format!("{} waiting for you", waiting.len()));
        lines.extend(waiting.iter().take(LISTED).map(|s| {
            let title = s
                .title
                .clone()
                .unwrap_or_else(|| s.prompt.chars().take(80).collect());
            format!("Waiting: {title}")
        }));
    }
    lines
}

/// The longest mention text a line quotes.
const MENTION_CHARS: usize = 200;

/// The person's team chat mentions in the day that ended, read with the
/// bot token the saved key `token_key` names; a `Retry-After` is waited out
/// on the application's clock.
async fn chat_mentions(state: &App, account_id: &str, range: &DayRange) -> Section {
    let (data_dir, secrets, clock) = (
        state.data_dir.clone(),
        state.secrets.clone(),
        state.clock.clone(),
    );
    let account = account_id.to_owned();
    let runtime = tokio::runtime::Handle::current();
    let (oldest, latest) = (range.from.as_second(), range.to.as_second());
    let read = tokio::task::spawn_blocking(move || {
        let config = match teamchat::Config::load(&data_dir) {
            Ok(config) => config,
            Err(teamchat::ChatError::NotConfigured(_)) => {
                return Section::not_set_up(Source::ChatApp, "no teamchat.toml");
            }
            Err(error) => return unread(&error.to_string()),
        };
        let Some(user) = config.mention_user.clone() else {
            return Section::not_set_up(Source::ChatApp, "no mention_user in teamchat.toml");
        };
        let token = match secrets.reveal(&account, &config.token_key) {
            Ok(token) => token,
            Err(secrets::SecretsError::KeyNotFound(_)) => {
                return unread(&format!(
                    "the saved key {} (token_key in teamchat.toml) does not exist",
                    config.token_key
                ));
            }
            Err(error) => return unread(&error.to_string()),
        };
        let wait = |pause: std::time::Duration| {
            let pause = time::Duration::try_from(pause).unwrap_or(time::Duration::ZERO);
            runtime.block_on(clock.sleep(pause));
        };
        match teamchat::Client::new(&config.base_url, token).mentions(&user, oldest, latest, &wait)
        {
            Ok(mentions) => Section::new(Source::ChatApp, mention_lines(&user, &mentions)),
            Err(teamchat::ChatError::Service { code }) if code == teamchat::RATE_LIMITED => {
                unread("rate limited by the team chat service")
            }
            Err(error) => unread(&error.to_string()),
        }
    })
    .await;
    read.unwrap_or_else(|error| unread(&error.to_string()))
}

fn unread(why: &str) -> Section {
    Section::new(Source::ChatApp, vec![format!("could not be read ({why})")])
}

/// "#channel, author: text", the person's own mention shown as `@you` so
/// the model knows who is meant.
fn mention_lines(user: &str, mentions: &teamchat::Mentions) -> Vec<String> {
    let found = &mentions.found;
    let mut lines = if found.is_empty() {
        vec!["no mentions yesterday".to_owned()]
    } else {
        found
            .iter()
            .take(LISTED)
            .map(|m| {
                let text = m
                    .text
                    .replace(&format!("<@{user}>"), "@you")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                let text = match text.char_indices().nth(MENTION_CHARS) {
                    Some((end, _)) => format!("{}…", &text[..end]),
                    None => text,
                };
                format!("#{}, {}: {text}", m.channel, m.author)
            })
            .collect()
    };
    if found.len() > LISTED {
        lines.push(format!("and {} more mentions", found.len() - LISTED));
    }
    if mentions.truncated {
        lines.push(format!(
            "more may be unread: at most {} mentions in {} channels are read",
            teamchat::MAX_MENTIONS,
            teamchat::MAX_CHANNELS
        ));
    }
    lines
}

/// The messenger's chats (each a session) active in the day that ended.
async fn messenger_chats(state: &App, account_id: &str, range: &DayRange) -> Vec<String> {
    let all = state.sessions.list(account_id).await.unwrap_or_default();
    let (from, to) = (stored(range.from), stored(range.to));
    let active = all
        .iter()
        .filter(|s| s.trigger == Some(sessions::Trigger::Messenger))
        .filter(|s| s.updated_at >= from && s.updated_at < to)
        .count();
    match active {
        0 => Vec::new(),
        n => vec![format!("{n} chats active yesterday")],
    }
}

fn zone(state: &App) -> jiff::tz::TimeZone {
    window::zone(&state.settings.pm_inbox_quiet_hours_time_zone())
}

/// The range of the day that ended at the last start of a day: what
/// `POST /digests/run?kind=daily` briefs on.
pub(crate) fn last_day(state: &App) -> Option<DayRange> {
    let zone = zone(state);
    let today = window::local_day(&zone, window::instant(state.clock.now()));
    let day = today.yesterday().ok()?;
    Some(DayRange {
        day,
        from: window::start_of_day(&zone, day)?,
        to: window::start_of_day(&zone, today)?,
    })
}

/// A notifier for a briefing run outside the scheduler's loop.
pub(crate) fn notifier(state: &App) -> Arc<Notifier> {
    Arc::new(Notifier::new(state.db.clone(), state.inbox.clone()))
}

/// The account's calendar events on the local day `day`, one line each,
/// read in the inbox's zone.
pub(crate) async fn calendar_lines(
    state: &App,
    account_id: &str,
    day: jiff::civil::Date,
) -> Vec<String> {
    let zone = zone(state);
    let bounds = window::start_of_day(&zone, day).zip(
        day.tomorrow()
            .ok()
            .and_then(|next| window::start_of_day(&zone, next)),
    );
    let moment = |at: jiff::Timestamp| time::OffsetDateTime::from_unix_timestamp(at.as_second());
    let Some((Ok(from), Ok(to))) = bounds.map(|(from, to)| (moment(from), moment(to))) else {
        return Vec::new();
    };
    let (service, owner) = (state.calendars.clone(), account_id.to_owned());
    let events = crate::error::blocking(move || service.events(&owner, from, to))
        .await
        .unwrap_or_else(|error| {
            tracing::warn!(%error, "daily briefing: the calendar was not read");
            Vec::new()
        });
    let day = day.to_string();
    events
        .iter()
        .filter(|e| calendar_words::on_day(e, &day, &zone))
        .map(|e| calendar_words::event_line(e, &zone))
        .collect()
}

impl App {
    /// Runs the daily briefing (`daily`, over the day that ended) or the
    /// morning digest (`rss`, of today) for `account_id` now; the row's id.
    pub async fn run_digest(&self, account_id: &str, rss: bool) -> Option<String> {
        if rss {
            let today = pm_inbox::window::local_day(&zone(self), window::instant(self.clock.now()));
            return rss_digest::run(self, account_id, &today.to_string()).await;
        }
        let range = last_day(self)?;
        post(self, &notifier(self), account_id, &range).await
    }

    /// A page of `account_id`'s email summaries, newest first.
    pub async fn email_summaries(
        &self,
        account_id: &str,
        limit: usize,
        before: Option<String>,
    ) -> crate::error::AppResult<briefings::SummaryPage> {
        let book = SummaryBook::new(self.db.clone(), self.clock.clone());
        let account = account_id.to_owned();
        blocking(move || book.page(&account, limit, before.as_deref())).await
    }
}

//! The fleet's own inbox cards, wired (docs/fleet-cards.md): one loop on the
//! app clock that, every [`watching::SAMPLE`], counts agent-watching time
//! from the presence the web app reports, and makes each card at most once
//! per its period while its setting is on: the crowded login (a day per
//! login), the weekly watching recap (a week), the balance alerts (a day per
//! vendor). The balance routes read and write through here too.

use std::collections::BTreeMap;

use fleet_cards::balance::{self, BURN_WINDOW, Spend};
use fleet_cards::load::{self, Login};
use fleet_cards::watching::{self, Recap};
use fleet_cards::{Balance, Cards, CardsError, Forecast, Vendor};
use inbox::{Category, NewRow};
use time::{Date, Duration, OffsetDateTime};

use crate::services::App;
use crate::utility_model;

#[derive(Debug, thiserror::Error)]
pub enum FleetCardsError {
    #[error(transparent)]
    Cards(#[from] CardsError),
    #[error(transparent)]
    Sessions(#[from] sessions::SessionError),
    #[error("the work was cancelled")]
    Cancelled,
}

/// Runs `work` off the async threads: the cards' store is SQLite.
async fn off<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, CardsError> + Send + 'static,
) -> Result<T, FleetCardsError> {
    Ok(tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| FleetCardsError::Cancelled)??)
}

fn cards(app: &App) -> Cards {
    Cards::new(app.db.clone())
}

/// Starts the loop; it ends with the server.
pub(crate) fn start(app: &App) {
    let app = app.clone();
    tokio::spawn(async move {
        let mut stop = app.stop.subscribe();
        let mut last: Option<OffsetDateTime> = None;
        loop {
            let now = app.clock.now();
            look(&app, last, now).await;
            last = Some(now);
            tokio::select! {
                _ = stop.wait_for(Option::is_some) => return,
                () = app.clock.sleep_until(now + watching::SAMPLE) => {}
            }
        }
    });
}

async fn look(app: &App, last: Option<OffsetDateTime>, now: OffsetDateTime) {
    let today = local_date(app);
    if let Err(error) = count_watching(app, last, now, today).await {
        tracing::warn!(%error, "cannot count agent-watching time");
    }
    if app.settings.load_balancing_notice_enabled()
        && let Err(error) = crowded_card(app, today).await
    {
        tracing::warn!(%error, "cannot look at the logins' load");
    }
    if app.settings.watching_time_recap_card_enabled()
        && let Err(error) = recap_cards(app, today).await
    {
        tracing::warn!(%error, "cannot make the watching recap");
    }
    if let Err(error) = balance_cards(app, today).await {
        tracing::warn!(%error, "cannot watch the vendors' balances");
    }
}

/// Today in the inbox's time zone, the day watched time is counted on.
fn local_date(app: &App) -> Date {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(&utility_model::local_day(app), format).unwrap_or(app.clock.now().date())
}

async fn count_watching(
    app: &App,
    last: Option<OffsetDateTime>,
    now: OffsetDateTime,
    today: Date,
) -> Result<(), FleetCardsError> {
    let watched: Vec<(String, i64)> = app
        .presence
        .watching()
        .into_iter()
        .map(|(account, since)| (account, watching::step(last, since, now)))
        .filter(|(_, seconds)| *seconds > 0)
        .collect();
    if watched.is_empty() {
        return Ok(());
    }
    let cards = cards(app);
    off(move || {
        watched
            .iter()
            .try_for_each(|(account, seconds)| cards.add_watching(account, today, *seconds))
    })
    .await
}

/// The account's watching this week so far, for `GET /fleet/watching`.
pub async fn this_week(app: &App, account_id: &str) -> Result<Recap, FleetCardsError> {
    let monday = watching::week_start(local_date(app));
    week(app, account_id, monday).await
}

async fn week(app: &App, account_id: &str, monday: Date) -> Result<Recap, FleetCardsError> {
    let (cards, account) = (cards(app), account_id.to_owned());
    let days = off(move || cards.watching(&account, monday, monday + Duration::days(6))).await?;
    Ok(Recap::of(monday, &days))
}

async fn recap_cards(app: &App, today: Date) -> Result<(), FleetCardsError> {
    let monday = watching::last_week_start(today);
    let accounts = app.accounts.clone();
    let accounts = tokio::task::spawn_blocking(move || accounts.list())
        .await
        .map_err(|_| FleetCardsError::Cancelled)?
        .unwrap_or_default();
    for account in accounts {
        let recap = week(app, &account.id, monday).await?;
        if !recap.heavy() {
            continue;
        }
        let title = format!(
            "You watched agents for {:.1} hours last week",
            recap.total_seconds as f64 / 3600.0
        );
        let mut row = NewRow::new(Category::Note, title);
        row.body = Some(recap.body());
        row.reason = Some("watching_recap".to_owned());
        once(app, &account.id, "watching_recap", &recap.week, row).await?;
    }
    Ok(())
}

/// Adds `row` unless the card `kind` of `period` was made already.
async fn once(
    app: &App,
    account_id: &str,
    kind: &'static str,
    period: &str,
    row: NewRow,
) -> Result<(), FleetCardsError> {
    let (cards, account, period, at) = (
        cards(app),
        account_id.to_owned(),
        period.to_owned(),
        app.clock.timestamp(),
    );
    if off(move || cards.first(&account, kind, &period, &at)).await? {
        utility_model::note(app, account_id, row).await;
    }
    Ok(())
}

/// Each engine login of `engines.toml` with its sessions queued, starting
/// or running now (every account's: a login is the server's).
pub async fn logins(app: &App) -> Result<Vec<Login>, FleetCardsError> {
    let engines = sessions::engines::load(&app.data_dir)?;
    let mut running: BTreeMap<String, u32> = BTreeMap::new();
    let accounts = app.accounts.clone();
    let accounts = tokio::task::spawn_blocking(move || accounts.list())
        .await
        .map_err(|_| FleetCardsError::Cancelled)?
        .unwrap_or_default();
    for account in accounts {
        for session in app.sessions.list(&account.id).await? {
            let live = matches!(
                session.status,
                sessions::Status::Queued | sessions::Status::Starting | sessions::Status::Running
            );
            if live && !session.archived {
                *running.entry(session.engine).or_default() += 1;
            }
        }
    }
    Ok(engines
        .iter()
        .map(|(name, spec)| Login {
            name: name.clone(),
            running: running.get(name).copied().unwrap_or(0),
            limit: spec.max_sessions,
        })
        .collect())
}

async fn crowded_card(app: &App, today: Date) -> Result<(), FleetCardsError> {
    let Some(crowded) = load::crowded(&logins(app).await?) else {
        return Ok(());
    };
    let Ok(owner) = crate::connections::owner(app).await else {
        return Ok(());
    };
    let mut row = NewRow::new(
        Category::Note,
        format!(
            "Login {} carries {} of its {} sessions",
            crowded.login, crowded.running, crowded.limit
        ),
    );
    row.body = Some(match &crowded.suggest {
        Some(other) => format!(
            "It runs far more sessions than the other logins and is near the limit set in \
             engines.toml (max_sessions). Start the next session on {other}."
        ),
        None => "It runs far more sessions than the other logins and is near the limit set in \
                 engines.toml (max_sessions); no other login has room. Raise a limit or add a login."
            .to_owned(),
    });
    row.reason = Some("load_balancing".to_owned());
    let period = format!("{today}:{}", crowded.login);
    once(app, &owner, "load_balancing", &period, row).await
}

/// Each vendor's forecast for the account.
pub async fn forecasts(app: &App, account_id: &str) -> Result<Vec<Forecast>, FleetCardsError> {
    let now = app.clock.now();
    let spend = SpendBook::read(app, account_id, now).await?;
    let mut all = Vec::new();
    for vendor in Vendor::ALL {
        let (cards, account) = (cards(app), account_id.to_owned());
        let balance = off(move || cards.balance(&account, vendor)).await?;
        all.push(balance::forecast(
            vendor,
            balance.as_ref(),
            spend.of(vendor, balance.as_ref(), now),
            now,
        ));
    }
    Ok(all)
}

/// Keeps the balance the person entered for `vendor`, as of now.
pub async fn set_balance(
    app: &App,
    account_id: &str,
    vendor: Vendor,
    balance_usd: f64,
) -> Result<Balance, FleetCardsError> {
    let (cards, account, at) = (cards(app), account_id.to_owned(), app.clock.timestamp());
    off(move || cards.set_balance(&account, vendor, balance_usd, &at)).await
}

pub async fn clear_balance(
    app: &App,
    account_id: &str,
    vendor: Vendor,
) -> Result<(), FleetCardsError> {
    let (cards, account) = (cards(app), account_id.to_owned());
    off(move || cards.clear_balance(&account, vendor)).await
}

async fn balance_cards(app: &App, today: Date) -> Result<(), FleetCardsError> {
    let lead_hours = app.settings.vendor_a_balance_alert_lead_hours();
    let watch_b = app.settings.vendor_b_balance_monitor_enabled();
    let threshold = app.settings.vendor_b_balance_threshold_usd();
    let cards = cards(app);
    let accounts = off(move || cards.accounts_with_balances()).await?;
    let now = app.clock.now();
    for account in accounts {
        for forecast in forecasts(app, &account).await? {
            let due = match forecast.vendor {
                Vendor::A => balance::run_out_due(&forecast, lead_hours, now),
                Vendor::B => watch_b && balance::under_threshold(&forecast, threshold),
            };
            if !due {
                continue;
            }
            let kind = match forecast.vendor {
                Vendor::A => "balance_a",
                Vendor::B => "balance_b",
            };
            let row = balance_row(&forecast, now);
            once(app, &account, kind, &today.to_string(), row).await?;
        }
    }
    Ok(())
}

fn balance_row(forecast: &Forecast, now: OffsetDateTime) -> NewRow {
    let remaining = forecast.remaining_usd.unwrap_or(0.0).max(0.0);
    let title = match balance::hours_left(forecast, now) {
        Some(hours) if hours > 0.0 => format!(
            "{} balance runs out in about {hours:.0} hours",
            forecast.vendor_name
        ),
        _ if remaining <= 0.0 => format!("{} balance is used up", forecast.vendor_name),
        _ => format!(
            "{} balance is down to ${remaining:.2}",
            forecast.vendor_name
        ),
    };
    let mut row = NewRow::new(Category::Alert, title);
    row.body = Some(format!(
        "${remaining:.2} left of the ${:.2} entered, spending ${:.2} an hour over the last \
         seven days{}. Recharge: {}",
        forecast.balance_usd.unwrap_or(0.0),
        forecast.burn_usd_per_hour,
        forecast
            .runs_out_at
            .as_deref()
            .map(|at| format!("; at that rate it runs out at {at}"))
            .unwrap_or_default(),
        forecast.recharge_url
    ));
    row.reason = Some("balance".to_owned());
    row
}

/// The account's recorded spend per engine kind, per UTC day: the sessions'
/// turns and the utility model's calls.
struct SpendBook {
    /// (kind, day) → dollars.
    days: BTreeMap<(String, Date), f64>,
    window_start: OffsetDateTime,
}

impl SpendBook {
    async fn read(
        app: &App,
        account_id: &str,
        now: OffsetDateTime,
    ) -> Result<SpendBook, FleetCardsError> {
        let engines = sessions::engines::load(&app.data_dir)?;
        let kind_of = |engine: &str| {
            engines
                .get(engine)
                .map(|spec| spec.kind.as_str().to_owned())
        };
        let window_start = (now - BURN_WINDOW).date().midnight().assume_utc();
        // Balances older than the window still count what was spent since.
        let (cards, account) = (cards(app), account_id.to_owned());
        let oldest_set = off(move || {
            Vendor::ALL
                .into_iter()
                .map(|vendor| cards.balance(&account, vendor))
                .collect::<Result<Vec<_>, _>>()
        })
        .await?
        .into_iter()
        .flatten()
        .filter_map(|b| parse_stamp(&b.set_at))
        .min()
        .map_or(window_start, |set| set.min(window_start));
        let mut days: BTreeMap<(String, Date), f64> = BTreeMap::new();
        let usage = app
            .sessions
            .usage(account_id, Some(&oldest_set.date().to_string()), None)
            .await?;
        let format = time::macros::format_description!("[year]-[month]-[day]");
        for day in usage.days {
            let (Some(kind), Ok(date)) = (kind_of(&day.engine), Date::parse(&day.date, format))
            else {
                continue;
            };
            *days.entry((kind, date)).or_default() += day.cost_usd.unwrap_or(0.0);
        }
        if let Ok(calls) = app.utility.calls(None, Some(oldest_set), 100_000).await {
            for call in calls {
                let kind = call.engine.as_deref().and_then(kind_of);
                let date = parse_stamp(&call.at).map(|at| at.date());
                if let (Some(kind), Some(date)) = (kind, date) {
                    *days.entry((kind, date)).or_default() += call.cost_usd.unwrap_or(0.0);
                }
            }
        }
        Ok(SpendBook { days, window_start })
    }

    /// The vendor's spend since its balance was set (from the start of that
    /// UTC day: the ledger sums per day, so the forecast errs early) and
    /// over the burn window.
    fn of(&self, vendor: Vendor, balance: Option<&Balance>, now: OffsetDateTime) -> Spend {
        let sum = |from: Date| {
            self.days
                .iter()
                .filter(|((kind, day), _)| kind == vendor.engine_kind() && *day >= from)
                .map(|(_, usd)| usd)
                .sum::<f64>()
        };
        let set_day = balance
            .and_then(|b| parse_stamp(&b.set_at))
            .map_or(now.date(), |at| at.date());
        Spend {
            since_set_usd: sum(set_day),
            window_usd: sum(self.window_start.date()),
            window: now - self.window_start,
        }
    }
}

fn parse_stamp(text: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).ok()
}

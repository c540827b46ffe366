//! Web Push to the user's devices (docs/phone.md): when a session needs the
//! user (a question, a failure, an approval) every device that chose
//! **Notify me on this device** gets a push whose click opens that session,
//! generic when `contentFreeMobilePush` is on. Quiet hours hold a push
//! until they end (it goes out then, if still due); focus mode keeps it in
//! the inbox only, as calendar reminders. A loop sends the pushes whose
//! retry has come (429 and 5xx answers wait on the app clock).

use attention::{Notice, Reason};
use push::{Devices, NeedsYou, Payload, Urgency};
use sessions::Session;

use crate::error::blocking;
use crate::services::App;

/// Who runs this server, as the push services may read it (the VAPID
/// `sub`): there is no operator address to give, so a reserved one.
pub const VAPID_CONTACT: &str = "mailto:switchboard@localhost";

/// The longest the loop sleeps with nothing due: a push held by quiet
/// hours, or one a crash left claimed, is looked at again by then.
const LOOK_EVERY: time::Duration = time::Duration::minutes(5);

impl App {
    /// A push was queued to retry: the loop looks at the next due one.
    pub fn wake_push(&self) {
        self.push_wake.notify_one();
    }

    /// Pushes an agent's alert the caller asked to be pushed; a repeat that
    /// bumped the row is pushed again, each bump once.
    pub fn push_alert(&self, owner: &str, row: &inbox::InboxRow) {
        let alert = Alert {
            title: &row.title,
            detail: row.body.as_deref().unwrap_or(""),
            url: &format!("/inbox?row={}", row.id),
            tag: &format!("alert-{}", row.id),
        };
        self::alert(
            self,
            owner,
            &format!("alert-{}-{}", row.id, row.count),
            &alert,
        );
    }

    /// A daily briefing just posted, pushed to the devices that chose it
    /// (`PATCH /push/subscriptions/{id}`): a click opens its row;
    /// content-free, it names no section.
    pub(crate) fn push_briefing(&self, owner: &str, row_id: &str, title: &str, body: &str) {
        let first_line = body.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let briefing = Alert {
            title,
            detail: first_line,
            url: &format!("/inbox?row={row_id}"),
            tag: "daily-briefing",
        };
        let id = format!("briefing-{row_id}");
        to_devices(self, owner, &id, &briefing, Devices::DailyBriefing);
    }
}

pub(crate) fn start(app: &App) {
    crate::looking::spawn_reading(
        app,
        app.push_wake.clone(),
        |_| (),
        |app| async move { retry_round(&app).await },
    );
}

async fn retry_round(app: &App) -> time::OffsetDateTime {
    let push = app.push.clone();
    let next = match tokio::task::spawn_blocking(move || {
        push.retry_due()?;
        push.next_due()
    })
    .await
    {
        Ok(Ok(next)) => next,
        Ok(Err(error)) => {
            tracing::warn!(%error, "the push retry round failed");
            None
        }
        Err(error) => {
            tracing::warn!(%error, "the push retry round stopped");
            None
        }
    };
    let now = app.clock.now();
    next.map_or(now + LOOK_EVERY, |at| {
        at.clamp(now + time::Duration::SECOND, now + LOOK_EVERY)
    })
}

/// Pushes `notice` about `session` to the owner's devices, once per
/// `notification_id`, on a task of its own: a slow push service holds up
/// neither the inbox row nor the session. A routine update is not pushed:
/// it does not need the user.
pub(crate) fn needs_you(app: &App, session: &Session, notice: &Notice, notification_id: &str) {
    if notice.reason == Reason::Routine {
        return;
    }
    let content_free = app.settings.content_free_mobile_push();
    let payload = Payload::needs_you(
        &NeedsYou {
            session: &notice.title,
            detail: notice.body.as_deref().unwrap_or(""),
            url: &format!("/sessions/{}", session.id),
            tag: &format!("session-{}", session.id),
        },
        content_free,
    );
    let (app, owner, id) = (
        app.clone(),
        session.account_id.clone(),
        notification_id.to_owned(),
    );
    tokio::spawn(async move { send(&app, owner, id, payload, Devices::All).await });
}

/// What an alert push says and opens.
pub(crate) struct Alert<'a> {
    pub title: &'a str,
    pub detail: &'a str,
    /// The page or row a click opens.
    pub url: &'a str,
    /// One notification per tag on a device.
    pub tag: &'a str,
}

/// Pushes an alert that is not a session's (an alarm ringing, an agent's
/// alert asked to be pushed, texts failing) to the owner's devices, once per
/// `notification_id`, held by quiet hours and focus as every push is.
pub(crate) fn alert(app: &App, owner: &str, notification_id: &str, alert: &Alert<'_>) {
    to_devices(app, owner, notification_id, alert, Devices::All);
}

fn to_devices(app: &App, owner: &str, notification_id: &str, alert: &Alert<'_>, devices: Devices) {
    let content_free = app.settings.content_free_mobile_push();
    let payload = Payload::alert(
        alert.title,
        alert.detail,
        alert.url,
        alert.tag,
        content_free,
    );
    let (app, owner, id) = (app.clone(), owner.to_owned(), notification_id.to_owned());
    tokio::spawn(async move { send(&app, owner, id, payload, devices).await });
}

/// A ringing alarm reaches the user's devices too: an alarm is set to be
/// heard. One push per ring (a snooze rings again under a new `at`); the
/// click opens the app, where the ringer shows it.
pub(crate) fn push_ring(state: &App, alarm: &alarms::Alarm) {
    let ring = Alert {
        title: &alarm.label,
        detail: "Alarm",
        url: "/",
        tag: &format!("alarm-{}", alarm.id),
    };
    let id = format!("alarm-{}-{}", alarm.id, alarm.at);
    alert(state, &alarm.account_id, &id, &ring);
}

async fn send(app: &App, owner: String, id: String, payload: Payload, devices: Devices) {
    if app.settings.focus_mode_feature_enabled() {
        let (focus, account) = (app.focus.clone(), owner.clone());
        if blocking(move || focus.focus(&account))
            .await
            .is_ok_and(|state| state.on)
        {
            return;
        }
    }
    let held_until = quiet_until(app);
    let push = app.push.clone();
    let sent = tokio::task::spawn_blocking(move || {
        push.notify_after(&owner, &id, &payload, Urgency::High, held_until, devices)
    })
    .await;
    match sent {
        Ok(Ok(report)) if report.retrying > 0 || held_until.is_some() => app.wake_push(),
        Ok(Ok(_)) => {}
        Ok(Err(error)) => tracing::warn!(%error, "a push was not sent"),
        Err(error) => tracing::warn!(%error, "a push did not finish"),
    }
}

/// When the quiet hours under way end, if they are.
fn quiet_until(app: &App) -> Option<time::OffsetDateTime> {
    let prefs = crate::notifier::prefs(&app.settings);
    let quiet = prefs.quiet?;
    let now = pm_inbox::window::instant(app.clock.now());
    if !quiet.contains(&prefs.zone, now) {
        return None;
    }
    let end = quiet.end_after(&prefs.zone, now);
    time::OffsetDateTime::from_unix_timestamp_nanos(end.as_nanosecond()).ok()
}

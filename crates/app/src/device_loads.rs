//! `mobileReliabilityAlertsEnabled` (docs/phone.md): the page reports that a
//! device started loading the app (first thing in `main.tsx`) and that it
//! finished (once the shell rendered). A start with no finish within
//! [`LOAD_LIMIT`] on the app clock makes one inbox alert, archived when that
//! device next finishes loading. The starts are kept in memory only: a
//! restart forgets a load in flight, and an alert raised before it stays
//! until the user archives it.

use std::sync::Arc;

pub use crate::load_reports::{DeviceLoad, LoadStage, valid_device};
use crate::services::App;

/// How long a device may take from its first script to a rendered shell: a
/// slow phone on a poor line takes seconds, never minutes.
pub const LOAD_LIMIT: time::Duration = time::Duration::minutes(2);

/// The alert's title.
const ALERT_TITLE: &str = "A device never finished loading Switchboard";

impl App {
    /// Notes a device's load; a finish archives the alert its earlier
    /// unfinished load raised.
    pub async fn device_load(&self, account_id: &str, load: DeviceLoad) {
        let now = self.clock.now();
        let alert = self.device_loads.with(|devices| {
            let device = devices.entry(load.device).or_default();
            match load.stage {
                LoadStage::Started => {
                    device.started = Some((now, account_id.to_owned()));
                    None
                }
                LoadStage::Finished => {
                    device.started = None;
                    device.alert.take()
                }
            }
        });
        if load.stage == LoadStage::Started {
            self.device_loads.wake.notify_one();
        }
        if let Some((owner, row)) = alert {
            self.clear_load_alert(&owner, row).await;
        }
    }

    async fn clear_load_alert(&self, owner: &str, row: String) {
        let (inbox, who) = (Arc::clone(&self.inbox), owner.to_owned());
        let change = inbox::RowChange {
            read: Some(true),
            archived: Some(true),
        };
        match crate::error::blocking(move || inbox.change(&who, &row, change)).await {
            Ok(row) => crate::publish::inbox_changed(
                self,
                owner,
                &crate::stream_events::InboxEvent::Updated(row),
            ),
            Err(error) => tracing::warn!(%error, "the loading alert was not cleared"),
        }
    }
}

pub(crate) fn start(app: &App) {
    crate::looking::spawn(app, app.device_loads.wake.clone(), |app| async move {
        look(&app).await
    });
}

/// Raises the alert of every load past its limit; answers when the next
/// load in flight reaches it.
async fn look(app: &App) -> time::OffsetDateTime {
    let now = app.clock.now();
    let overdue: Vec<(String, String)> = app.device_loads.with(|devices| {
        devices
            .iter_mut()
            .filter_map(|(id, device)| match &device.started {
                Some((at, _)) if *at + LOAD_LIMIT <= now => {
                    let (_, owner) = device.started.take()?;
                    Some((id.clone(), owner))
                }
                _ => None,
            })
            .collect()
    });
    for (device, owner) in overdue {
        if app.settings.mobile_reliability_alerts_enabled() {
            raise(app, &device, &owner).await;
        }
    }
    let next = app.device_loads.with(|devices| {
        devices
            .values()
            .filter_map(|device| device.started.as_ref().map(|(at, _)| *at + LOAD_LIMIT))
            .min()
    });
    next.unwrap_or(now + time::Duration::HOUR)
}

async fn raise(app: &App, device: &str, owner: &str) {
    let already = app
        .device_loads
        .with(|devices| devices.get(device).is_some_and(|d| d.alert.is_some()));
    if already {
        return;
    }
    let mut row = inbox::NewRow::new(inbox::Category::Alert, ALERT_TITLE);
    row.body = Some(format!(
        "A device started loading the app and had not finished {} minutes later. \
         It clears itself when that device next loads.",
        LOAD_LIMIT.whole_minutes()
    ));
    let (inbox, who) = (Arc::clone(&app.inbox), owner.to_owned());
    match crate::error::blocking(move || inbox.add(&who, row)).await {
        Ok(added) => {
            let row = crate::publish::inbox_added(app, owner, added);
            app.device_loads.with(|devices| {
                devices.entry(device.to_owned()).or_default().alert =
                    Some((owner.to_owned(), row.id));
            });
        }
        Err(error) => tracing::warn!(%error, "the loading alert was not raised"),
    }
}

//! The state of `device_loads.rs` (the page's load reports, in memory) and
//! its wire types, apart so that `services.rs` can hold it without the two
//! files importing each other.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde::Deserialize;
use tokio::sync::Notify;
use ts_rs::TS;
use utoipa::ToSchema;

/// `POST /device-loads`: one device's load, started or finished.
#[derive(Debug, Clone, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeviceLoad {
    /// The device's random id, kept in its `localStorage`.
    pub device: String,
    pub stage: LoadStage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum LoadStage {
    Started,
    Finished,
}

/// What is known of one device's loads.
#[derive(Debug, Default)]
pub(crate) struct Device {
    /// The start not yet finished, and whose it is.
    pub(crate) started: Option<(time::OffsetDateTime, String)>,
    /// The alert this device raised, until it loads again.
    pub(crate) alert: Option<(String, String)>,
}

/// The devices' loads in flight and the alerts they raised.
#[derive(Debug, Default)]
pub struct DeviceLoads {
    devices: Mutex<HashMap<String, Device>>,
    pub(crate) wake: Arc<Notify>,
}

/// A device id the page could have made: 1 to 64 letters, digits or `-`.
pub fn valid_device(device: &str) -> bool {
    (1..=64).contains(&device.len())
        && device
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

impl DeviceLoads {
    pub(crate) fn with<T>(&self, work: impl FnOnce(&mut HashMap<String, Device>) -> T) -> T {
        work(&mut self.devices.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

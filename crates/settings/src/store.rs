//! The settings store: stored values in SQLite, served from memory.
//!
//! Only keys ever set have a row; every other key is at its default. At load
//! the rows are read once into a [`Snapshot`] (every value in catalog order
//! plus the `GET /settings` body already serialised), so a read is a pointer
//! clone under a briefly held read lock. A write commits to the database
//! first and only then publishes a new snapshot, so memory never shows a value
//! that is not durable.

use std::sync::{Arc, Mutex, PoisonError, RwLock};

use bytes::Bytes;
use serde_json::{Map, Value};
use store::rusqlite::params;
use store::{Db, Migration};

use crate::catalog::DEFINITIONS;
use crate::error::SettingsError;
use crate::index::{DEFAULTS, position};
use crate::schema::SettingDef;

/// The settings table: one row per key ever set, its value as JSON text.
pub const MIGRATIONS: &[Migration] = &[Migration {
    feature: "settings",
    sql: "CREATE TABLE settings (
        key TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;",
}];

/// One setting as `GET /settings/<key>` shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct SettingView {
    pub key: &'static str,
    pub value: Value,
    pub default: Value,
    pub type_label: &'static str,
}

/// Every current value, in catalog order, each as JSON text too, and the
/// whole as a JSON object body. Values and texts are shared between
/// snapshots: a write copies pointers and serialises only its own value,
/// where copying and serialising all of them was a good part of a `PATCH`.
struct Snapshot {
    values: Box<[Arc<Value>]>,
    texts: Box<[Arc<str>]>,
    body: Bytes,
}

impl Snapshot {
    fn new(values: Vec<Value>) -> Self {
        let texts = values
            .iter()
            .map(|value| Arc::from(value.to_string()))
            .collect();
        let values = values.into_iter().map(Arc::new).collect();
        Self::of(values, texts)
    }

    /// This snapshot with `value` at `index`.
    fn with(&self, index: usize, value: Value) -> Self {
        let mut values = self.values.clone();
        let mut texts = self.texts.clone();
        texts[index] = Arc::from(value.to_string());
        values[index] = Arc::new(value);
        Self::of(values, texts)
    }

    fn of(values: Box<[Arc<Value>]>, texts: Box<[Arc<str>]>) -> Self {
        let mut body = String::with_capacity(16 * 1024);
        body.push('{');
        for (index, (def, text)) in DEFINITIONS.iter().zip(texts.iter()).enumerate() {
            if index > 0 {
                body.push(',');
            }
            // Keys are plain ASCII identifiers (a test checks), so they need no escaping.
            body.push('"');
            body.push_str(def.key);
            body.push_str("\":");
            body.push_str(text);
        }
        body.push('}');
        Self {
            values,
            texts,
            body: Bytes::from(body),
        }
    }
}

/// The key [`SettingsStore::allow_messenger_bot_user`] changes, for the
/// change's announcement.
pub const MESSENGER_BOT_ALLOWED_USER_IDS: &str = "messengerBotAllowedUserIds";

/// The installation's settings. `Send + Sync`: share it in an `Arc`.
pub struct SettingsStore {
    db: Arc<Db>,
    current: RwLock<Arc<Snapshot>>,
    /// Held across a database write and the publication of its snapshot, so
    /// two writers cannot publish in the opposite order to their commits.
    writer: Mutex<()>,
}

impl std::fmt::Debug for SettingsStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SettingsStore")
            .field("db", &self.db)
            .finish_non_exhaustive()
    }
}

impl SettingsStore {
    /// Applies the settings migrations and loads every stored value. A stored
    /// value that the schema no longer accepts is replaced by the default in
    /// memory (its row stays until the key is next set), with a warning.
    pub fn load(db: Arc<Db>) -> Result<Self, SettingsError> {
        db.migrate(MIGRATIONS)?;
        let rows: Vec<(String, String)> = db.read(|tx| {
            let mut statement = tx.prepare("SELECT key, value FROM settings")?;
            let rows = statement
                .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
                .collect::<Result<_, _>>()?;
            Ok::<_, SettingsError>(rows)
        })?;
        let mut values = DEFAULTS.to_vec();
        for (key, text) in rows {
            let Some(index) = position(&key) else {
                tracing::warn!(
                    key,
                    "a stored setting is no longer in the catalog; ignoring it"
                );
                continue;
            };
            let parsed = serde_json::from_str::<Value>(&text)
                .map_err(|error| error.to_string())
                .and_then(|value| {
                    DEFINITIONS[index]
                        .validate(&value)
                        .map_err(|error| error.to_string())
                });
            match parsed {
                Ok(value) => values[index] = value,
                Err(reason) => tracing::warn!(
                    key,
                    stored = %text,
                    %reason,
                    "a stored setting is no longer valid; using its default"
                ),
            }
        }
        Ok(Self {
            db,
            current: RwLock::new(Arc::new(Snapshot::new(values))),
            writer: Mutex::new(()),
        })
    }

    fn snapshot(&self) -> Arc<Snapshot> {
        // A panic elsewhere cannot leave the pointer half-written.
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// The `GET /settings` body: every key with its current value, in catalog
    /// order. Cloning the returned `Bytes` is a reference-count increment.
    pub fn all_json(&self) -> Bytes {
        self.snapshot().body.clone()
    }

    /// Every key with its current value, in catalog order.
    pub fn all(&self) -> Map<String, Value> {
        let snapshot = self.snapshot();
        DEFINITIONS
            .iter()
            .zip(snapshot.values.iter())
            .map(|(def, value)| (def.key.to_owned(), Value::clone(value)))
            .collect()
    }

    pub fn get(&self, key: &str) -> Result<SettingView, SettingsError> {
        let (index, def) = find(key)?;
        Ok(view(def, Value::clone(&self.snapshot().values[index])))
    }

    /// Validates `value`, stores it durably, then makes it current. Returns
    /// the value as stored (normalised, e.g. `5.0` → `5` for integers). A
    /// refused value leaves the stored one as it was.
    pub fn set(&self, key: &str, value: &Value) -> Result<Value, SettingsError> {
        let (index, def) = find(key)?;
        let value = def.validate(value)?;
        let _writing = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        self.write_through(index, def, value)
    }

    /// Stores a validated value, then makes it current; the caller holds `writer`.
    fn write_through(
        &self,
        index: usize,
        def: &SettingDef,
        value: Value,
    ) -> Result<Value, SettingsError> {
        self.db.write(|tx| {
            tx.execute(
                "INSERT INTO settings (key, value, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                params![def.key, value.to_string(), store::now_rfc3339()],
            )
        })?;
        self.publish(index, value.clone());
        Ok(value)
    }

    /// Approving a messenger pairing request adds its sender to
    /// `messengerBotAllowedUserIds` (read and written under the one writer,
    /// so two approvals at once both stay). The list as stored when it
    /// changed; `None` when the id was there already.
    pub fn allow_messenger_bot_user(&self, user_id: &str) -> Result<Option<Value>, SettingsError> {
        let (index, def) = find(MESSENGER_BOT_ALLOWED_USER_IDS)?;
        let _writing = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let mut ids = self.messenger_bot_allowed_user_ids();
        if ids.iter().any(|id| id == user_id) {
            return Ok(None);
        }
        ids.push(user_id.to_owned());
        let value = def.validate(&Value::from(ids))?;
        self.write_through(index, def, value).map(Some)
    }

    /// Forgets the stored value of `key`, so it is back at its default.
    pub fn reset(&self, key: &str) -> Result<SettingView, SettingsError> {
        let (index, def) = find(key)?;
        let _writing = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        self.db
            .write(|tx| tx.execute("DELETE FROM settings WHERE key = ?1", [def.key]))?;
        let default = DEFAULTS[index].clone();
        self.publish(index, default.clone());
        Ok(view(def, default))
    }

    /// Builds the next snapshot outside the lock readers take; the caller
    /// holds `writer`, so nobody else replaces `current` meanwhile.
    fn publish(&self, index: usize, value: Value) {
        let next = Arc::new(self.snapshot().with(index, value));
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = next;
    }

    /// The current value at catalog position `index`, read through `pick`.
    /// Only the generated accessors call this, with positions a test keeps in
    /// step with the catalog; a value of another shape (impossible once
    /// validated) falls back to the default rather than failing a request.
    fn read_at<T>(&self, index: usize, pick: impl Fn(&Value) -> Option<T>) -> Option<T> {
        let current = self.snapshot();
        current
            .values
            .get(index)
            .and_then(|value| pick(value))
            .or_else(|| DEFAULTS.get(index).and_then(&pick))
    }

    pub(crate) fn toggle_at(&self, index: usize) -> bool {
        self.read_at(index, Value::as_bool).unwrap_or_default()
    }

    pub(crate) fn integer_at(&self, index: usize) -> i64 {
        self.read_at(index, Value::as_i64).unwrap_or_default()
    }

    /// An integer whose range the catalog keeps within `u32`.
    pub(crate) fn count_at(&self, index: usize) -> u32 {
        self.read_at(index, |value| {
            value.as_u64().and_then(|n| u32::try_from(n).ok())
        })
        .unwrap_or_default()
    }

    pub(crate) fn number_at(&self, index: usize) -> f64 {
        self.read_at(index, Value::as_f64).unwrap_or_default()
    }

    pub(crate) fn text_at(&self, index: usize) -> String {
        self.read_at(index, |value| value.as_str().map(str::to_owned))
            .unwrap_or_default()
    }

    /// A text that may be `null` where the catalog gives null a meaning.
    pub(crate) fn optional_text_at(&self, index: usize) -> Option<String> {
        self.read_at(index, |value| match value {
            Value::Null => Some(None),
            Value::String(text) => Some(Some(text.clone())),
            _ => None,
        })
        .flatten()
    }

    pub(crate) fn strings_at(&self, index: usize) -> Vec<String> {
        self.read_at(index, |value| {
            value.as_array().map(|items| {
                items
                    .iter()
                    .filter_map(|item| item.as_str().map(str::to_owned))
                    .collect()
            })
        })
        .unwrap_or_default()
    }

    /// A structured value (map, object, list of objects or numbers).
    pub(crate) fn json_at(&self, index: usize) -> Value {
        self.read_at(index, |value| Some(value.clone()))
            .unwrap_or_default()
    }
}

fn find(key: &str) -> Result<(usize, &'static SettingDef), SettingsError> {
    position(key)
        .map(|index| (index, &DEFINITIONS[index]))
        .ok_or_else(|| SettingsError::UnknownSetting {
            key: key.to_owned(),
        })
}

fn view(def: &'static SettingDef, value: Value) -> SettingView {
    SettingView {
        key: def.key,
        value,
        default: def.default_value().clone(),
        type_label: def.type_label(),
    }
}

//! What the catalog knows about one setting ([`SettingDef`]): the types the
//! table in `catalog.rs` is written in. The lookups over that table are in
//! `index.rs`, so this module needs nothing from the table itself.

use serde_json::Value;

use crate::error::SettingsError;
use crate::kind::Kind;

/// The four areas of the catalog, in catalog order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Area {
    GettingStarted,
    SessionsAgents,
    InboxNotifications,
    ProjectsTasks,
}

impl Area {
    pub const ALL: [Area; 4] = [
        Area::GettingStarted,
        Area::SessionsAgents,
        Area::InboxNotifications,
        Area::ProjectsTasks,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Area::GettingStarted => "Getting Started",
            Area::SessionsAgents => "Sessions & Agents",
            Area::InboxNotifications => "Inbox & Notifications",
            Area::ProjectsTasks => "Projects & Tasks",
        }
    }
}

/// When a change to a setting is felt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TakesEffect {
    Immediately,
    /// On the next session started (or, for cloud keys, launched).
    NextSession,
    /// On the next start of the application.
    NextStart,
}

impl TakesEffect {
    pub fn as_str(self) -> &'static str {
        match self {
            TakesEffect::Immediately => "immediately",
            TakesEffect::NextSession => "next session",
            TakesEffect::NextStart => "next start",
        }
    }
}

/// Why this version does nothing with a key it stores: the settings page
/// groups such keys by this reason and shows it, rather than offer a switch
/// that visibly does nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoEffect {
    /// Nothing in this version reads the key yet.
    NotBuilt,
    /// The key acts on a desktop application's window, tray or dock, which a
    /// page in a browser does not have.
    DesktopApp,
    /// The key acts only on Windows; Switchboard's server runs on Linux.
    WindowsOnly,
    /// The spec asks only that the value be stored and returned.
    StoredOnly,
    /// It would choose between session engines, and this version has one:
    /// the settings page shows it read-only.
    OneEngine,
}

impl NoEffect {
    /// Short, for the catalog's "Takes effect" column ("no effect: ...").
    pub fn as_str(self) -> &'static str {
        match self {
            NoEffect::NotBuilt => "not built yet",
            NoEffect::DesktopApp => "desktop app only",
            NoEffect::WindowsOnly => "Windows only",
            NoEffect::StoredOnly => "stored and returned only",
            NoEffect::OneEngine => "one session engine",
        }
    }

    /// The sentence the settings page shows for the key.
    pub fn reason(self) -> &'static str {
        match self {
            NoEffect::NotBuilt => {
                "Not built yet: Switchboard keeps the value, but nothing in this version uses it."
            }
            NoEffect::DesktopApp => {
                "Only for a desktop app: Switchboard runs in your browser, which has no tray icon \
                 or dock and cannot raise its own window."
            }
            NoEffect::WindowsOnly => "Only on Windows: Switchboard's server runs on Linux.",
            NoEffect::StoredOnly => {
                "Stored and returned only, as the spec asks: agents and scripts may read it, \
                 and nothing in Switchboard enforces it."
            }
            NoEffect::OneEngine => {
                "Read-only: this version has one session engine, so there is nothing to switch \
                 between; the value is kept and changes nothing."
            }
        }
    }
}

/// A default as it can be written in a `static` table; [`SettingDef::default_value`]
/// gives it as JSON.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DefaultValue {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'static str),
    Strings(&'static [&'static str]),
    /// Structured defaults (maps, objects), as JSON text.
    Json(&'static str),
}

impl DefaultValue {
    pub(crate) fn to_value(self) -> Value {
        match self {
            DefaultValue::Null => Value::Null,
            DefaultValue::Bool(b) => Value::Bool(b),
            DefaultValue::Int(n) => Value::from(n),
            DefaultValue::Float(x) => Value::from(x),
            DefaultValue::Str(s) => Value::from(s),
            DefaultValue::Strings(items) => Value::from(items.to_vec()),
            // The text is a literal of the catalog table, and a test parses
            // and validates every default, so this cannot fail in a build.
            DefaultValue::Json(text) => {
                serde_json::from_str(text).expect("catalog default is valid JSON")
            }
        }
    }
}

/// Everything the catalog says about one key. Validation, defaults, the
/// Markdown catalog and the JSON Schema are all derived from these rows.
/// Rows exist only in the catalog table (`non_exhaustive` keeps other crates
/// from making more), so every `SettingDef` has a default in the table of defaults.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct SettingDef {
    pub key: &'static str,
    pub area: Area,
    /// The spec's subsection title within the area, e.g. "agent control";
    /// "general" for the two areas the spec does not subdivide.
    pub section: &'static str,
    pub kind: Kind,
    pub default: DefaultValue,
    /// Whether JSON `null` is a value of this key (only where it has a meaning).
    pub nullable: bool,
    pub takes_effect: TakesEffect,
    /// Guarded keys govern what agents may do; agent tokens cannot change them.
    pub guarded: bool,
    /// Whether this version acts on the key; `false` means it is only stored
    /// (and said so in the docs and the settings page).
    pub in_effect: bool,
    /// Why a key that is not in effect has none; ignored for one that is.
    pub no_effect: NoEffect,
    pub description: &'static str,
}

/// The spec's subsection a row belongs to; keeps the table rows short.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Section {
    pub area: Area,
    pub title: &'static str,
}

/// One row of the catalog table, immediate, unguarded, not nullable and only
/// stored unless a modifier below says otherwise.
pub(crate) const fn def(
    section: Section,
    key: &'static str,
    kind: Kind,
    default: DefaultValue,
    description: &'static str,
) -> SettingDef {
    SettingDef {
        key,
        area: section.area,
        section: section.title,
        kind,
        default,
        nullable: false,
        takes_effect: TakesEffect::Immediately,
        guarded: false,
        in_effect: false,
        no_effect: NoEffect::NotBuilt,
        description,
    }
}

impl SettingDef {
    pub(crate) const fn guarded(self) -> Self {
        Self {
            guarded: true,
            ..self
        }
    }

    /// Marks a key this version acts on. A tidy test checks that every such
    /// key is read somewhere outside this crate.
    pub(crate) const fn acts(self) -> Self {
        Self {
            in_effect: true,
            ..self
        }
    }

    /// Marks a stored-only key as one a desktop application would act on.
    pub(crate) const fn desktop_app(self) -> Self {
        Self {
            no_effect: NoEffect::DesktopApp,
            ..self
        }
    }

    /// Marks a key the spec asks only to store and return.
    pub(crate) const fn stored_only(self) -> Self {
        Self {
            no_effect: NoEffect::StoredOnly,
            ..self
        }
    }

    /// Marks a key that would choose between session engines, of which
    /// this version has one.
    pub(crate) const fn one_engine(self) -> Self {
        Self {
            no_effect: NoEffect::OneEngine,
            ..self
        }
    }

    /// Marks a stored-only key as one only Windows would act on.
    pub(crate) const fn windows_only(self) -> Self {
        Self {
            no_effect: NoEffect::WindowsOnly,
            ..self
        }
    }

    /// Why this version does nothing with the key, or `None` when it acts on it.
    pub fn why_no_effect(&self) -> Option<NoEffect> {
        (!self.in_effect).then_some(self.no_effect)
    }

    pub(crate) const fn nullable(self) -> Self {
        Self {
            nullable: true,
            ..self
        }
    }

    pub(crate) const fn takes_effect(self, takes_effect: TakesEffect) -> Self {
        Self {
            takes_effect,
            ..self
        }
    }

    pub fn type_label(&self) -> &'static str {
        self.kind.type_label()
    }

    pub fn is_guarded(&self) -> bool {
        self.guarded
    }

    /// What the key accepts, as a phrase completing "KEY takes ...".
    pub fn accepted(&self) -> String {
        let mut phrase = self.kind.describe();
        if self.nullable {
            phrase.push_str(", or null");
        }
        phrase
    }

    /// Checks `value` against the key and returns it normalised, or a refusal
    /// whose message names what the key accepts.
    pub fn validate(&self, value: &Value) -> Result<Value, SettingsError> {
        if self.nullable && value.is_null() {
            return Ok(Value::Null);
        }
        self.kind.check(value).map_err(|refusal| {
            let mut message = format!("{} takes {}", self.key, self.accepted());
            if !refusal.path.is_empty() {
                message.push_str(&format!(
                    "; {}{} {}",
                    self.key, refusal.path, refusal.reason
                ));
            }
            SettingsError::InvalidValue {
                key: self.key,
                message,
            }
        })
    }
}

//! What a drip's item is (a Markdown, HTML or text piece, from the drip's
//! folder or added in the app), the kinds and the fields that add one:
//! pure, no storage.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::error::DripError;

/// The most an item holds, in bytes: a larger file is cut there.
pub const MAX_ITEM_BYTES: usize = 256 * 1024;

/// The longest item name.
pub const MAX_ITEM_NAME_CHARS: usize = 200;

/// How an item is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "DripItemKind")]
#[schema(as = DripItemKind)]
pub enum ItemKind {
    /// `.md`, `.markdown`: rendered as Markdown.
    Markdown,
    /// `.html`, `.htm`: previewed in a sandboxed frame with no network
    /// (`dripHtmlPreviewEnabled`), else shown as a plain chip.
    Html,
    /// `.txt`, `.text`: shown as it is.
    Text,
}

impl ItemKind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ItemKind::Markdown => "markdown",
            ItemKind::Html => "html",
            ItemKind::Text => "text",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Self> {
        [ItemKind::Markdown, ItemKind::Html, ItemKind::Text]
            .into_iter()
            .find(|k| k.as_str() == text)
    }

    /// The kind a file's extension names (letter case aside), if any.
    pub fn of_name(name: &str) -> Option<Self> {
        let (_, extension) = name.rsplit_once('.')?;
        match extension.to_ascii_lowercase().as_str() {
            "md" | "markdown" => Some(ItemKind::Markdown),
            "html" | "htm" => Some(ItemKind::Html),
            "txt" | "text" => Some(ItemKind::Text),
            _ => None,
        }
    }
}

/// One item of a drip's queue, without its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DripItem")]
#[schema(as = DripItem)]
pub struct Item {
    pub id: String,
    /// A folder item's file name; an app item's name.
    pub name: String,
    pub kind: ItemKind,
    /// When it went to the inbox; `null` while it waits.
    pub released_at: Option<String>,
    /// Its place in the queue (1 is released next); `null` once released.
    pub position: Option<u32>,
    pub created_at: String,
}

/// An item with its content (`GET /drips/{id}/items/{itemId}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "DripItemContent")]
#[schema(as = DripItemContent)]
pub struct ItemContent {
    #[serde(flatten)]
    pub item: Item,
    /// As released, or (a folder item still waiting) as its file reads now.
    pub content: String,
}

/// The fields that add an item in the app.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, TS, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(rename = "DripItemFields")]
#[schema(as = DripItemFields)]
pub struct NewItem {
    /// 1 to 200 characters.
    #[serde(default)]
    pub name: String,
    /// At most 256 KiB.
    #[serde(default)]
    pub content: String,
    /// Default: the kind the name's extension names, else `markdown`.
    #[ts(optional)]
    pub kind: Option<ItemKind>,
}

impl NewItem {
    /// The name and kind checked.
    pub(crate) fn checked(&self) -> Result<(String, ItemKind), DripError> {
        let name = checked_name(&self.name, "name", MAX_ITEM_NAME_CHARS)?;
        if self.content.trim().is_empty() {
            return Err(DripError::invalid("content", "is required"));
        }
        if self.content.len() > MAX_ITEM_BYTES {
            return Err(DripError::invalid(
                "content",
                format!("must be at most {} KiB", MAX_ITEM_BYTES / 1024),
            ));
        }
        let kind = self
            .kind
            .or_else(|| ItemKind::of_name(&name))
            .unwrap_or(ItemKind::Markdown);
        Ok((name, kind))
    }
}

/// A name: trimmed, 1 to `max` characters, no control characters.
pub(crate) fn checked_name(
    name: &str,
    field: &'static str,
    max: usize,
) -> Result<String, DripError> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > max {
        return Err(DripError::invalid(
            field,
            format!("must be 1 to {max} characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(DripError::invalid(
            field,
            "must not hold control characters",
        ));
    }
    Ok(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_come_from_extensions() {
        assert_eq!(ItemKind::of_name("01-intro.MD"), Some(ItemKind::Markdown));
        assert_eq!(ItemKind::of_name("page.htm"), Some(ItemKind::Html));
        assert_eq!(ItemKind::of_name("notes.txt"), Some(ItemKind::Text));
        assert_eq!(ItemKind::of_name("picture.png"), None);
        assert_eq!(ItemKind::of_name("README"), None);
        for kind in [ItemKind::Markdown, ItemKind::Html, ItemKind::Text] {
            assert_eq!(ItemKind::parse(kind.as_str()), Some(kind));
        }
    }

    #[test]
    fn an_item_needs_a_name_and_content() {
        let item = |name: &str, content: &str, kind: Option<ItemKind>| NewItem {
            name: name.into(),
            content: content.into(),
            kind,
        };
        assert_eq!(
            item(" Tip 1 ", "Drink water", None).checked().unwrap(),
            ("Tip 1".to_owned(), ItemKind::Markdown)
        );
        assert_eq!(
            item("card.html", "<p>hi</p>", None).checked().unwrap().1,
            ItemKind::Html
        );
        assert_eq!(
            item("card.html", "<p>hi</p>", Some(ItemKind::Text))
                .checked()
                .unwrap()
                .1,
            ItemKind::Text
        );
        let big = "x".repeat(MAX_ITEM_BYTES + 1);
        for (bad, field) in [
            (item("", "x", None), "name"),
            (item("a\u{7}b", "x", None), "name"),
            (item(&"n".repeat(201), "x", None), "name"),
            (item("ok", "  ", None), "content"),
            (item("ok", &big, None), "content"),
        ] {
            assert_eq!(bad.checked().unwrap_err().field(), Some(field));
        }
    }
}

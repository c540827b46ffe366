//! The bookmarks of `switchboard serve --demo`: links to where the demo
//! team's work lives, and a session recipe on the demo engine that starts
//! a session in one of the demo's project folders.
//!
//! Made through [`Bookmarks::create`], so they pass the checks a person's
//! bookmarks do and sit in the order given.

use std::path::Path;

use crate::{Bookmark, BookmarkError, Bookmarks, Fields, Kind};

const LINKS: [(&str, &str); 3] = [
    (
        "acme/web pull requests",
        "https://github.com/acme/web/pulls",
    ),
    (
        "Platform CI runs",
        "https://github.com/acme/platform/actions",
    ),
    (
        "Sentry: acme-web",
        "https://acme.sentry.io/projects/acme-web/",
    ),
];

/// Adds the demo's bookmarks at the end of the account's order. The recipe
/// runs on `engine` in `folder` (absolute); without a folder it starts
/// where a session without one does.
pub fn seed_demo(
    bookmarks: &Bookmarks,
    account_id: &str,
    engine: Option<&str>,
    folder: Option<&Path>,
) -> Result<Vec<Bookmark>, BookmarkError> {
    let mut made = Vec::new();
    for (title, url) in LINKS {
        let fields = Fields {
            title: Some(title.to_owned()),
            kind: Some(Kind::Url),
            url: Some(url.to_owned()),
            ..Fields::default()
        };
        made.push(bookmarks.create(account_id, fields)?);
    }
    let recipe = Fields {
        title: Some("Check for risky dependency upgrades".to_owned()),
        kind: Some(Kind::Session),
        engine: engine.map(str::to_owned),
        cwd: folder.map(|f| f.to_string_lossy().into_owned()),
        prompt: Some(
            "List the Go modules with a newer minor version, and say which upgrades look risky and why."
                .to_owned(),
        ),
        ..Fields::default()
    };
    made.push(bookmarks.create(account_id, recipe)?);
    Ok(made)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn the_demo_has_links_and_a_recipe_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let db = Arc::new(store::Db::open(&dir.path().join("db.sqlite")).unwrap());
        db.migrate(crate::MIGRATIONS).unwrap();
        let bookmarks = Bookmarks::new(db, Arc::new(clock::SystemClock));
        let folder = Path::new("/home/me/acme/platform");
        let made = seed_demo(&bookmarks, "a", Some("demo"), Some(folder)).unwrap();
        assert_eq!(bookmarks.list("a").unwrap(), made);
        let kinds: Vec<Kind> = made.iter().map(|b| b.kind).collect();
        assert_eq!(kinds, [Kind::Url, Kind::Url, Kind::Url, Kind::Session]);
        let recipe = &made[3];
        assert_eq!(recipe.engine.as_deref(), Some("demo"));
        assert_eq!(recipe.cwd.as_deref(), Some("/home/me/acme/platform"));
    }
}

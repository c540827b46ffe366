//! Bookmarks on a real database: kinds checked whole, order kept through
//! adds, deletes and reorders, accounts apart.

use std::sync::Arc;

use super::*;

fn bookmarks() -> (tempfile::TempDir, Bookmarks) {
    let dir = tempfile::tempdir().unwrap();
    let db = Arc::new(Db::open(&dir.path().join("db.sqlite")).unwrap());
    db.migrate(MIGRATIONS).unwrap();
    (
        dir,
        Bookmarks::new(db, Arc::new(clock::ManualClock::starting_now())),
    )
}

fn url(title: &str, url: &str) -> Fields {
    Fields {
        title: Some(title.into()),
        kind: Some(Kind::Url),
        url: Some(url.into()),
        ..Fields::default()
    }
}

#[test]
fn each_kind_needs_its_own_fields() {
    let (_dir, b) = bookmarks();
    assert!(b.create("a", url("Docs", "https://docs.rs")).is_ok());
    for bad in [
        url("", "https://x"),
        url("No scheme", "docs.rs"),
        Fields {
            prompt: Some("p".into()),
            ..url("Both", "https://x")
        },
        Fields {
            title: Some("Recipe".into()),
            kind: Some(Kind::Session),
            ..Fields::default()
        },
        Fields {
            title: Some("Relative".into()),
            kind: Some(Kind::Session),
            prompt: Some("p".into()),
            cwd: Some("src".into()),
            ..Fields::default()
        },
        Fields {
            title: Some("No kind".into()),
            ..Fields::default()
        },
    ] {
        assert!(matches!(b.create("a", bad), Err(BookmarkError::Invalid(_))));
    }
    let recipe = b
        .create(
            "a",
            Fields {
                title: Some("Fix the build".into()),
                kind: Some(Kind::Session),
                prompt: Some("Make the build green".into()),
                cwd: Some("/src/app".into()),
                ..Fields::default()
            },
        )
        .unwrap();
    assert_eq!(recipe.position, 1);
    // A change that leaves it incomplete changes nothing.
    let emptied = b.update(
        "a",
        &recipe.id,
        Fields {
            prompt: Some(" ".into()),
            ..Fields::default()
        },
    );
    assert!(matches!(emptied, Err(BookmarkError::Invalid(_))));
    assert_eq!(
        b.get("a", &recipe.id).unwrap().prompt.as_deref(),
        Some("Make the build green")
    );
}

#[test]
fn the_order_holds_through_deletes_and_reorders_and_accounts_stay_apart() {
    let (_dir, b) = bookmarks();
    let ids: Vec<String> = ["one", "two", "three"]
        .iter()
        .map(|t| b.create("a", url(t, "https://example.com")).unwrap().id)
        .collect();
    let reordered = b
        .reorder("a", &[ids[2].clone(), ids[0].clone(), ids[1].clone()])
        .unwrap();
    let titles: Vec<&str> = reordered.iter().map(|b| b.title.as_str()).collect();
    assert_eq!(titles, ["three", "one", "two"]);
    assert!(matches!(
        b.reorder("a", &ids[..2]),
        Err(BookmarkError::Invalid(_))
    ));
    assert!(matches!(
        b.reorder("a", &[ids[0].clone(), ids[0].clone(), ids[1].clone()]),
        Err(BookmarkError::Invalid(_))
    ));
    b.delete("a", &ids[2]).unwrap();
    let left: Vec<(String, i64)> = b
        .list("a")
        .unwrap()
        .into_iter()
        .map(|b| (b.title, b.position))
        .collect();
    assert_eq!(left, [("one".to_owned(), 0), ("two".to_owned(), 1)]);
    assert!(matches!(
        b.get("other", &ids[0]),
        Err(BookmarkError::NotFound)
    ));
    assert!(matches!(
        b.delete("other", &ids[0]),
        Err(BookmarkError::NotFound)
    ));
    assert!(b.list("other").unwrap().is_empty());
}

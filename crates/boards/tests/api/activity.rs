//! Each board's work in a period, for the weekly summary.

use ::boards::*;
use serde_json::json;

use crate::common::{ACCOUNT, OTHER, db, fixture, item, values};

const FAR_PAST: &str = "2000-01-01T00:00:00.000Z";
const FAR_FUTURE: &str = "2999-01-01T00:00:00.000Z";

#[test]
fn a_period_counts_items_added_changed_and_moved_on_per_board() {
    let (_dir, db) = db();
    let f = fixture(&db, ACCOUNT);
    fixture(&db, OTHER);
    let early = create_item(&db, ACCOUNT, "ada", &f.board.id, &item("early", json!({}))).unwrap();
    create_item(
        &db,
        ACCOUNT,
        "ada",
        &f.board.id,
        &item("also early", json!({})),
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let since = store::now_rfc3339();
    std::thread::sleep(std::time::Duration::from_millis(5));
    create_item(&db, ACCOUNT, "ada", &f.board.id, &item("late", json!({}))).unwrap();
    let patch = ItemPatch {
        name: None,
        group_id: None,
        values: Some(values(json!({"status": "Done"}))),
    };
    update_item(&db, ACCOUNT, "ada", &early.id, &patch).unwrap();

    let all = activity_between(&db, ACCOUNT, FAR_PAST, FAR_FUTURE).unwrap();
    assert_eq!(
        all.len(),
        1,
        "another account's board is not listed: {all:?}"
    );
    assert_eq!(all[0].board_name, f.board.name);
    assert_eq!((all[0].items_added, all[0].items_changed), (3, 0));
    assert_eq!(all[0].status_changes, 1);

    let recent = activity_between(&db, ACCOUNT, &since, FAR_FUTURE).unwrap();
    assert_eq!(recent[0].items_added, 1);
    assert_eq!(
        recent[0].items_changed, 1,
        "the early item changed in the period"
    );
    assert_eq!(recent[0].status_changes, 1);

    assert!(
        activity_between(&db, ACCOUNT, FAR_PAST, "2001-01-01T00:00:00.000Z")
            .unwrap()
            .is_empty(),
        "a board with nothing in the period is left out"
    );
}

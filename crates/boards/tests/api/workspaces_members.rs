//! Workspaces and the member directory: names checked, emails optional and removable, a workspace's
//! boards deleted with it.

use ::boards::*;
use serde_json::json;

use crate::common::{ACCOUNT, db, is_invalid};

#[test]
fn workspaces_and_members_are_managed() {
    let (_dir, db) = db();
    let w = create_workspace(&db, ACCOUNT, "  Team  ").unwrap();
    assert_eq!(w.name, "Team");
    is_invalid(create_workspace(&db, ACCOUNT, " "));
    assert_eq!(
        rename_workspace(&db, ACCOUNT, &w.id, "Crew").unwrap().name,
        "Crew"
    );
    let m = create_member(
        &db,
        ACCOUNT,
        &NewMember {
            name: "Bo".into(),
            email: None,
        },
    )
    .unwrap();
    is_invalid(create_member(
        &db,
        ACCOUNT,
        &NewMember {
            name: "Cy".into(),
            email: Some("nope".into()),
        },
    ));
    let patched: MemberPatch = serde_json::from_value(json!({"email": "bo@example.com"})).unwrap();
    assert_eq!(
        update_member(&db, ACCOUNT, &m.id, &patched)
            .unwrap()
            .email
            .as_deref(),
        Some("bo@example.com")
    );
    let cleared: MemberPatch = serde_json::from_value(json!({"email": null})).unwrap();
    assert_eq!(
        update_member(&db, ACCOUNT, &m.id, &cleared).unwrap().email,
        None
    );
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({"id": m.id, "name": "Bo", "self": false})
    );
    // The account's own member: made once, listed as self, never deleted.
    let me = ::boards::ensure_self_member(&db, ACCOUNT, "Me").unwrap();
    assert_eq!(
        ::boards::ensure_self_member(&db, ACCOUNT, "Again").unwrap(),
        me
    );
    assert_eq!(
        ::boards::self_member_id(&db, ACCOUNT).unwrap().as_deref(),
        Some(me.id.as_str())
    );
    assert!(::boards::delete_member(&db, ACCOUNT, &me.id).is_err());
    assert!(::boards::self_member_id(&db, "another").unwrap().is_none());
    let b = create_board(
        &db,
        ACCOUNT,
        &NewBoard {
            workspace_id: w.id.clone(),
            name: "B".into(),
            ..Default::default()
        },
    )
    .unwrap();
    delete_workspace(&db, ACCOUNT, &w.id).unwrap();
    assert!(list_workspaces(&db, ACCOUNT).unwrap().is_empty());
    assert!(matches!(
        get_board(&db, ACCOUNT, &b.id),
        Err(BoardsError::NotFound { what: "board" })
    ));
}

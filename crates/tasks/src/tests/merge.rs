//! The pure three-way merge, each rule on a small list written as tasks.md:
//! the base, the database's version and the file's version in, the merged
//! list out (rendered, new ids `n1`, `n2`, …).

use crate::markdown::{parse, render};
use crate::merge::{Merged, items_of, merge};

const BASE: &str = "- [ ] A <!-- id:a -->
  - [ ] A1 <!-- id:a1 -->
  - [ ] A2 <!-- id:a2 -->
- [ ] B <!-- id:b -->
- [ ] C <!-- id:c -->";

fn md(body: &str) -> String {
    if body.is_empty() {
        "# Tasks\n".to_owned()
    } else {
        format!("# Tasks\n\n{body}\n")
    }
}

/// Merges three versions given as file bodies; the result as a body too.
fn run(base: &str, db: &str, file: &str) -> (String, Merged) {
    let base = items_of(&parse(&md(base)).tasks);
    let db = items_of(&parse(&md(db)).tasks);
    let file = parse(&md(file)).tasks;
    let mut n = 0;
    let merged = merge(&base, &db, &file, &mut || {
        n += 1;
        format!("n{n}")
    });
    let text = render(&merged.entries());
    let body = text
        .strip_prefix("# Tasks\n\n")
        .unwrap_or_default()
        .trim_end()
        .to_owned();
    (body, merged)
}

fn edit(text: &str, pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .fold(text.to_owned(), |t, (from, to)| t.replacen(from, to, 1))
}

#[test]
fn nothing_changed_is_nothing_to_do() {
    let (out, merged) = run(BASE, BASE, BASE);
    assert_eq!(out, BASE);
    assert!(merged.conflicts.is_empty());
    assert!(merged.items.iter().all(|i| !i.new));
}

#[test]
fn changes_on_each_side_both_apply() {
    let file = edit(
        BASE,
        &[("- [ ] A <", "- [ ] A edited <"), ("- [ ] B", "- [x] B")],
    );
    let db = edit(
        BASE,
        &[
            ("C <", "C due:2026-04-01 <"),
            ("A2 <!-- id:a2 -->", "A2 <!-- id:a2 -->\n    > a note"),
        ],
    );
    let (out, merged) = run(BASE, &db, &file);
    assert_eq!(
        out,
        "- [ ] A edited <!-- id:a -->
  - [ ] A1 <!-- id:a1 -->
  - [ ] A2 <!-- id:a2 -->
    > a note
- [x] B <!-- id:b -->
- [ ] C due:2026-04-01 <!-- id:c -->"
    );
    assert!(merged.conflicts.is_empty());
}

#[test]
fn one_task_changed_in_different_fields_merges_field_by_field() {
    let file = edit(BASE, &[("- [ ] A <", "- [ ] A in the file <")]);
    let db = edit(BASE, &[("- [ ] A <", "- [x] A due:2026-04-01 <")]);
    let (out, merged) = run(BASE, &db, &file);
    assert!(out.starts_with("- [x] A in the file due:2026-04-01 <!-- id:a -->\n"));
    assert!(merged.conflicts.is_empty());
}

#[test]
fn the_same_field_changed_differently_keeps_both_and_reports_it() {
    let file = edit(
        BASE,
        &[("- [ ] A <", "- [ ] A from the file due:2026-05-05 <")],
    );
    let db = edit(BASE, &[("- [ ] A <", "- [ ] A from the database <")]);
    let (out, merged) = run(BASE, &db, &file);
    assert_eq!(
        out,
        "- [ ] A from the database <!-- id:a -->
  - [ ] A1 <!-- id:a1 -->
  - [ ] A2 <!-- id:a2 -->
- [ ] A from the file due:2026-05-05 <!-- id:n1 conflict -->
- [ ] B <!-- id:b -->
- [ ] C <!-- id:c -->"
    );
    assert_eq!(merged.conflicts.len(), 1);
    let c = &merged.conflicts[0];
    assert_eq!((c.id.as_str(), c.copy_id.as_str()), ("a", "n1"));
    assert_eq!(c.fields, ["text"]);
    assert_eq!(
        (c.text.as_str(), c.file_text.as_str()),
        ("A from the database", "A from the file")
    );
    let copy = merged.items.iter().find(|i| i.id == "n1").unwrap();
    assert!(copy.new && copy.fields.conflict);
    assert_eq!(copy.copy_of.as_deref(), Some("a"));

    // The same change on both sides is no conflict.
    let (out, merged) = run(BASE, &file, &file);
    assert_eq!(out, file);
    assert!(merged.conflicts.is_empty());
}

#[test]
fn a_delete_wins_over_no_change_and_loses_to_an_edit() {
    // The file deletes B (untouched in the database) and C (edited there).
    let file = edit(
        BASE,
        &[
            ("\n- [ ] B <!-- id:b -->", ""),
            ("\n- [ ] C <!-- id:c -->", ""),
        ],
    );
    // The database deletes A1 (untouched in the file) and A2 (edited there).
    let db = edit(
        BASE,
        &[
            ("\n  - [ ] A1 <!-- id:a1 -->\n  - [ ] A2 <!-- id:a2 -->", ""),
            ("C <", "C edited <"),
        ],
    );
    let file = edit(&file, &[("A2 <", "A2 edited <")]);
    let (out, merged) = run(BASE, &db, &file);
    assert_eq!(
        out,
        "- [ ] A <!-- id:a -->
  - [ ] A2 edited <!-- id:n1 -->
- [ ] C edited <!-- id:c -->"
    );
    assert!(merged.items[1].new);
}

#[test]
fn an_edited_subtask_of_a_deleted_task_moves_up() {
    let db = "- [ ] B <!-- id:b -->\n- [ ] C <!-- id:c -->";
    let file = edit(BASE, &[("A1 <", "A1 edited <")]);
    let (out, _) = run(BASE, db, &file);
    assert_eq!(
        out,
        "- [ ] A1 edited <!-- id:n1 -->\n- [ ] B <!-- id:b -->\n- [ ] C <!-- id:c -->"
    );
}

#[test]
fn new_lines_in_the_file_get_fresh_ids_where_they_stand() {
    let file = format!(
        "- [ ] New first\n{}",
        edit(
            BASE,
            &[(
                "- [ ] B <!-- id:b -->",
                "- [ ] B <!-- id:b -->\n  - [ ] New under B\n    - [ ] Deeper"
            )]
        )
    );
    let (out, merged) = run(BASE, BASE, &file);
    assert_eq!(
        out,
        "- [ ] New first <!-- id:n1 -->
- [ ] A <!-- id:a -->
  - [ ] A1 <!-- id:a1 -->
  - [ ] A2 <!-- id:a2 -->
- [ ] B <!-- id:b -->
  - [ ] New under B <!-- id:n2 -->
    - [ ] Deeper <!-- id:n3 -->
- [ ] C <!-- id:c -->"
    );
    assert_eq!(merged.items.iter().filter(|i| i.new).count(), 3);
}

#[test]
fn the_file_s_order_applies_when_only_the_file_reordered() {
    let file = "- [ ] C <!-- id:c -->
- [ ] A <!-- id:a -->
  - [ ] A2 <!-- id:a2 -->
  - [ ] A1 <!-- id:a1 -->
- [ ] B <!-- id:b -->";
    // The database added D after B and E first under A meanwhile.
    let db = edit(
        BASE,
        &[
            (
                "- [ ] B <!-- id:b -->",
                "- [ ] B <!-- id:b -->\n- [ ] D <!-- id:d -->",
            ),
            (
                "- [ ] A <!-- id:a -->",
                "- [ ] A <!-- id:a -->\n  - [ ] E <!-- id:e -->",
            ),
        ],
    );
    let (out, _) = run(BASE, &db, file);
    assert_eq!(
        out,
        "- [ ] C <!-- id:c -->
- [ ] A <!-- id:a -->
  - [ ] E <!-- id:e -->
  - [ ] A2 <!-- id:a2 -->
  - [ ] A1 <!-- id:a1 -->
- [ ] B <!-- id:b -->
- [ ] D <!-- id:d -->"
    );

    // Both reordered: the database's order.
    let db = "- [ ] B <!-- id:b -->
- [ ] A <!-- id:a -->
  - [ ] A1 <!-- id:a1 -->
  - [ ] A2 <!-- id:a2 -->
- [ ] C <!-- id:c -->";
    assert_eq!(run(BASE, db, file).0, db);
}

#[test]
fn moves_merge_like_fields() {
    // Indenting B under A in the file makes it A's last child.
    let file = edit(BASE, &[("- [ ] B <", "  - [ ] B <")]);
    let (out, _) = run(BASE, BASE, &file);
    assert_eq!(out, file);

    // Moved differently on both sides: the database's move.
    let db = edit(
        BASE,
        &[
            ("- [ ] C <!-- id:c -->", ""),
            (
                "  - [ ] A2 <!-- id:a2 -->",
                "  - [ ] A2 <!-- id:a2 -->\n  - [ ] C <!-- id:c -->",
            ),
        ],
    );
    let file = edit(BASE, &[("- [ ] C <", "  - [ ] C <")]);
    let (out, _) = run(BASE, db.trim_end(), &file);
    assert_eq!(out, db.trim_end());
}

#[test]
fn two_moves_that_would_loop_end_up_as_a_tree() {
    // The database puts A under B; the file puts B under A.
    let db = "- [ ] B <!-- id:b -->
  - [ ] A <!-- id:a -->
    - [ ] A1 <!-- id:a1 -->
    - [ ] A2 <!-- id:a2 -->
- [ ] C <!-- id:c -->";
    let file = edit(BASE, &[("- [ ] B <", "  - [ ] B <")]);
    let (out, merged) = run(BASE, db, &file);
    assert_eq!(merged.items.len(), 5);
    assert_eq!(
        out,
        "- [ ] A <!-- id:a -->
  - [ ] A1 <!-- id:a1 -->
  - [ ] A2 <!-- id:a2 -->
  - [ ] B <!-- id:b -->
- [ ] C <!-- id:c -->"
    );
}

#[test]
fn a_subtask_added_under_a_task_the_file_deleted_stays() {
    let db = edit(
        BASE,
        &[(
            "- [ ] B <!-- id:b -->",
            "- [ ] B <!-- id:b -->\n  - [ ] B1 <!-- id:b1 -->",
        )],
    );
    let file = edit(BASE, &[("\n- [ ] B <!-- id:b -->", "")]);
    let (out, _) = run(BASE, &db, &file);
    assert!(out.contains("- [ ] B1 <!-- id:b1 -->"));
    assert!(!out.contains("id:b -->"));
}

#[test]
fn without_a_base_nothing_is_lost() {
    let db = "- [ ] A <!-- id:a -->\n- [ ] B <!-- id:b -->";
    let file = "- [ ] A <!-- id:a -->
- [ ] B changed <!-- id:b -->
- [ ] From elsewhere <!-- id:zz -->
- [ ] Brand new";
    let (out, merged) = run("", db, file);
    assert_eq!(
        out,
        "- [ ] A <!-- id:a -->
- [ ] B <!-- id:b -->
- [ ] B changed <!-- id:n1 conflict -->
- [ ] From elsewhere <!-- id:n2 -->
- [ ] Brand new <!-- id:n3 -->"
    );
    assert_eq!(merged.conflicts.len(), 1);
}

#[test]
fn a_line_emptied_of_text_keeps_its_text() {
    let file = edit(BASE, &[("- [ ] B <", "- [x]  <")]);
    let (out, _) = run(BASE, BASE, &file);
    assert!(out.contains("- [x] B <!-- id:b -->"));
}

#[test]
fn emptying_the_file_deletes_what_the_database_did_not_change() {
    let db = edit(BASE, &[("C <", "C kept <")]);
    let (out, _) = run(BASE, &db, "");
    assert_eq!(out, "- [ ] C kept <!-- id:c -->");
}

mod properties {
    //! Generated lists and edits: an edit on one side alone comes through
    //! exactly, and any edits on both sides give a well-formed tree that
    //! keeps every task neither side touched.

    use std::collections::HashSet;

    use proptest::prelude::*;

    use crate::markdown::Entry;
    use crate::merge::{Merged, items_of, merge};
    use crate::model::TaskState;
    use crate::tests::markdown::lists;

    /// What to do to one entry.
    #[derive(Debug, Clone, Copy)]
    enum Op {
        Keep,
        Edit,
        Toggle,
        Delete,
        AddAfter,
        /// Moves the subtree to the end of the list, at the top level.
        MoveToEnd,
    }

    fn ops() -> impl Strategy<Value = Vec<Op>> {
        let op = prop_oneof![
            6 => Just(Op::Keep),
            1 => Just(Op::Edit),
            1 => Just(Op::Toggle),
            1 => Just(Op::Delete),
            1 => Just(Op::AddAfter),
            1 => Just(Op::MoveToEnd),
        ];
        proptest::collection::vec(op, 12)
    }

    /// `list` with `ops` applied; a delete takes the subtree. New entries
    /// get ids from `new_ids` (none for the file's side, as a person adds).
    fn edited(list: &[Entry], ops: &[Op], side: &str, new_ids: bool) -> Vec<Entry> {
        let mut out: Vec<Entry> = Vec::new();
        let mut tail: Vec<Entry> = Vec::new();
        let mut skip_below: Option<usize> = None;
        let mut moving: Option<usize> = None;
        for (n, (e, op)) in list.iter().zip(ops.iter().cycle()).enumerate() {
            if let Some(d) = skip_below {
                if e.depth > d {
                    continue;
                }
                skip_below = None;
            }
            if let Some(d) = moving {
                if e.depth > d {
                    let mut e = e.clone();
                    e.depth -= d;
                    tail.push(e);
                    continue;
                }
                moving = None;
            }
            let mut e = e.clone();
            match op {
                Op::Keep => {}
                Op::Edit => e.fields.text = format!("{} ({side})", e.fields.text),
                Op::Toggle => {
                    e.fields.state = match e.fields.state {
                        TaskState::Open => TaskState::Done,
                        _ => TaskState::Open,
                    }
                }
                Op::Delete => {
                    skip_below = Some(e.depth);
                    continue;
                }
                Op::AddAfter => {}
                Op::MoveToEnd => {
                    moving = Some(e.depth);
                    e.depth = 0;
                    tail.push(e);
                    continue;
                }
            }
            let depth = e.depth;
            out.push(e);
            if matches!(op, Op::AddAfter) {
                let mut added = out[out.len() - 1].clone();
                added.id = new_ids.then(|| format!("{side}{n}"));
                added.depth = depth + 1;
                added.fields = crate::model::Fields::text(&format!("added by {side} {n}"));
                out.push(added);
            }
        }
        out.extend(tail);
        out
    }

    fn counter() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("fresh{n}")
        }
    }

    fn shape(entries: &[Entry]) -> Vec<(usize, crate::model::Fields)> {
        entries
            .iter()
            .map(|e| (e.depth, e.fields.clone()))
            .collect()
    }

    fn well_formed(merged: &Merged) -> Result<(), TestCaseError> {
        let mut seen = HashSet::new();
        for item in &merged.items {
            if let Some(parent) = &item.parent_id {
                prop_assert!(seen.contains(parent), "{} before its parent", item.id);
            }
            prop_assert!(seen.insert(item.id.clone()), "{} twice", item.id);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn an_edit_on_one_side_alone_comes_through(base in lists(), ops in ops()) {
            let base_items = items_of(&base);

            let file = edited(&base, &ops, "file", false);
            let merged = merge(&base_items, &base_items, &file, &mut counter());
            well_formed(&merged)?;
            prop_assert!(merged.conflicts.is_empty());
            prop_assert_eq!(shape(&merged.entries()), shape(&file));

            let db = edited(&base, &ops, "db", true);
            let merged = merge(&base_items, &items_of(&db), &base, &mut counter());
            prop_assert!(merged.conflicts.is_empty());
            prop_assert_eq!(merged.entries(), db);
        }

        #[test]
        fn edits_on_both_sides_give_a_tree_that_loses_nothing_untouched(
            base in lists(),
            db_ops in ops(),
            file_ops in ops(),
        ) {
            let base_items = items_of(&base);
            let db = items_of(&edited(&base, &db_ops, "db", true));
            let file = edited(&base, &file_ops, "file", false);
            let merged = merge(&base_items, &db, &file, &mut counter());
            well_formed(&merged)?;
            let out: HashSet<&str> = merged.items.iter().map(|i| i.id.as_str()).collect();
            let file_ids: HashSet<&str> = file.iter().filter_map(|e| e.id.as_deref()).collect();
            for item in &db {
                let was = base_items.iter().find(|b| b.id == item.id);
                let in_file = file_ids.contains(item.id.as_str());
                match was {
                    // New in the database, or edited there: kept whatever the file did.
                    None => prop_assert!(out.contains(item.id.as_str()), "{} was lost", item.id),
                    Some(was) if was.fields != item.fields => {
                        prop_assert!(out.contains(item.id.as_str()), "edited {} was lost", item.id)
                    }
                    // Untouched in the database: it follows the file.
                    Some(_) => prop_assert_eq!(out.contains(item.id.as_str()), in_file, "{}", &item.id),
                }
            }
            let added = file.iter().filter(|e| e.id.is_none()).count();
            let fresh = merged.items.iter().filter(|i| i.new && i.copy_of.is_none()).count();
            prop_assert!(fresh >= added);
            // Merging the result again with itself as the base changes nothing.
            let settled: Vec<_> = merged
                .items
                .iter()
                .map(|i| crate::merge::Item {
                    id: i.id.clone(),
                    parent_id: i.parent_id.clone(),
                    fields: i.fields.clone(),
                })
                .collect();
            let again = merge(&settled, &settled, &merged.entries(), &mut counter());
            prop_assert_eq!(again.entries(), merged.entries());
        }
    }
}

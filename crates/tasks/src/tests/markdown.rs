//! tasks.md: the documented sample reads and writes back byte for byte,
//! texts that look like fields survive through the escape, any text parses
//! without failing, and rendering is a fixed point of parsing (generated
//! lists and generated files both).

use proptest::prelude::*;

use crate::markdown::{Entry, parse, render};
use crate::model::{Fields, TaskState, clean_notes, clean_text};

const SAMPLE: &str = "# Tasks

- [ ] Ship the release due:2026-12-01 <!-- id:a1 -->
  > Notes, one line each.
  >
  >   kept indented
  - [x] Write the changelog <!-- id:a2 -->
    - [ ] Ask Sam due:2026-11-20 snooze:2026-11-18T09:00Z <!-- id:a3 -->
- [-] Dropped idea <!-- id:a4 conflict -->
";

fn entry(id: &str, depth: usize, text: &str) -> Entry {
    Entry {
        id: Some(id.into()),
        depth,
        fields: Fields::text(text),
    }
}

#[test]
fn the_sample_reads_as_documented_and_writes_back_unchanged() {
    let parsed = parse(SAMPLE);
    assert_eq!(parsed.warnings, []);
    let t = &parsed.tasks;
    assert_eq!(t.len(), 4);
    assert_eq!(t[0].fields.text, "Ship the release");
    assert_eq!(t[0].fields.due.as_deref(), Some("2026-12-01"));
    assert_eq!(
        t[0].fields.notes,
        "Notes, one line each.\n\n  kept indented"
    );
    assert_eq!((t[1].depth, t[1].fields.state), (1, TaskState::Done));
    assert_eq!(t[2].depth, 2);
    assert_eq!(
        t[2].fields.snoozed_until.as_deref(),
        Some("2026-11-18T09:00:00.000Z")
    );
    assert_eq!(t[3].fields.state, TaskState::Dropped);
    assert!(t[3].fields.conflict && !t[0].fields.conflict);
    assert_eq!(t[3].id.as_deref(), Some("a4"));
    assert_eq!(render(&parsed.tasks), SAMPLE);
}

#[test]
fn an_empty_list_is_the_header_alone() {
    assert_eq!(render(&[]), "# Tasks\n");
    assert_eq!(parse("# Tasks\n"), Default::default());
}

#[test]
fn texts_that_look_like_fields_or_ids_come_back_as_they_were() {
    let texts = [
        "due:2026-01-01",
        "pay due:2026-01-01",
        "pay due\\:2026-01-01",
        "pay due\\\\:x",
        "pay snooze:2026-01-01T09:00Z",
        "pay due:garbage",
        "dues:2026-01-01 are late",
        "ends with <!-- id:zz -->",
        "ends with <!-- id:zz conflict -->",
        "half <!-- id:",
        "has -->",
        "a  b   c",
        "[x] looks like a box",
        "- [ ] a marker inside",
        "> a quote",
        "# a heading",
        "back\\slash",
    ];
    for text in texts {
        for (due, snooze) in [
            (None, None),
            (Some("2026-02-03"), Some("2026-02-03T08:15:30.250Z")),
        ] {
            let mut e = entry("x1", 0, text);
            e.fields.due = due.map(str::to_owned);
            e.fields.snoozed_until = snooze.map(str::to_owned);
            let written = render(std::slice::from_ref(&e));
            let back = parse(&written);
            assert_eq!(back.tasks, [e], "{written}");
            assert_eq!(back.warnings, [], "{written}");
        }
    }
}

#[test]
fn a_person_s_forms_are_read_too() {
    let text = "# Tasks\r\n\r\n* [X] starred, done <!--id:b1-->\r\n\t+ [~] tab, dropped due:2026-01-05   \r\n      - [ ] too deep, one level down\r\n  > a note\r\n";
    let parsed = parse(text);
    assert_eq!(parsed.warnings, []);
    let t = &parsed.tasks;
    assert_eq!(t[0].id.as_deref(), Some("b1"));
    assert_eq!(t[0].fields.state, TaskState::Done);
    assert_eq!((t[1].depth, t[1].fields.state), (1, TaskState::Dropped));
    assert_eq!(t[1].fields.due.as_deref(), Some("2026-01-05"));
    assert_eq!(t[1].id, None);
    assert_eq!(t[2].depth, 2);
    assert_eq!(t[2].fields.notes, "a note");
}

#[test]
fn garbage_never_fails_and_is_reported() {
    let text = "Some prose first.
## My heading
1. a numbered item
- a plain bullet
- [ ]
- [?] odd box <!-- id:q1 -->
  > its note
A line of prose.
> an orphan note after prose
- [ ] bad id <!-- id:not valid! -->
- [ ] copy of q1 <!-- id:q1 -->
- [ ] due:2026-99-99 stays text due:2026-13-01
- [ ]
- [x]no space
";
    let parsed = parse(text);
    let texts: Vec<&str> = parsed
        .tasks
        .iter()
        .map(|e| e.fields.text.as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "odd box",
            "bad id",
            "copy of q1",
            "due:2026-99-99 stays text due:2026-13-01"
        ]
    );
    assert_eq!(parsed.tasks[0].fields.notes, "its note");
    assert_eq!(parsed.tasks[1].id, None);
    assert_eq!(parsed.tasks[2].id, None);
    let lines: Vec<usize> = parsed.warnings.iter().map(|w| w.line).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14]);
    assert!(parsed.warnings[5].message.contains("[?]"));
    for garbage in [
        "",
        "\n\n\n",
        "\u{0}\u{1}- [ ",
        "- [",
        "-",
        "<!--",
        "- [ ] <!-- id:",
        "\u{feff}- [ ] bom",
    ] {
        let parsed = parse(garbage);
        assert_eq!(
            render(&parse(&render(&parsed.tasks)).tasks),
            render(&parsed.tasks)
        );
    }
}

#[test]
fn too_long_values_are_cut_with_a_warning() {
    let long = format!(
        "- [ ] {} <!-- id:l1 -->\n  > {}\n",
        "t".repeat(2_100),
        "n".repeat(20_100)
    );
    let parsed = parse(&long);
    assert_eq!(parsed.tasks[0].fields.text.len(), 2_000);
    assert_eq!(parsed.tasks[0].fields.notes.len(), 20_000);
    assert_eq!(parsed.warnings.len(), 2);
}

/// A valid list: depths that step down any amount but up by one, unique
/// ids, clean values, the fields sometimes set.
pub(super) fn lists() -> impl Strategy<Value = Vec<Entry>> {
    let text = prop_oneof![
        "[ -~]{1,24}",
        "[a-z ]{0,8}(due|snooze)\\\\{0,2}:[0-9a-z:-]{0,12}",
        "[a-z]{1,5} <!-- id:[a-z0-9]{1,3}( conflict)? -->",
        "[^\n]{1,12}",
    ];
    let notes = prop_oneof!["", "[ -~\n\t]{0,40}", "(> ?[a-z ]{0,6}\n){0,3}"];
    let state = prop_oneof![
        Just(TaskState::Open),
        Just(TaskState::Done),
        Just(TaskState::Dropped)
    ];
    let due = proptest::option::of("20[0-9]{2}-0[1-9]-1[0-9]");
    let snooze = proptest::option::of((0u32..24, 0u32..60, 0u32..60, 0u32..1000));
    let one = (
        0usize..3,
        text,
        notes,
        state,
        due,
        snooze,
        any::<bool>(),
        any::<bool>(),
    );
    proptest::collection::vec(one, 0..12).prop_map(|rows| {
        let mut depth = 0usize;
        let mut out = Vec::new();
        for (n, (step, text, notes, state, due, snooze, conflict, up)) in
            rows.into_iter().enumerate()
        {
            let text = clean_text(&text);
            if text.is_empty() {
                continue;
            }
            depth = if out.is_empty() {
                0
            } else if up {
                depth.saturating_sub(step)
            } else {
                depth + usize::from(step > 0)
            };
            out.push(Entry {
                id: Some(format!("id{n}")),
                depth,
                fields: Fields {
                    text,
                    notes: clean_notes(&notes),
                    state,
                    due,
                    snoozed_until: snooze
                        .map(|(h, m, s, ms)| format!("2026-05-06T{h:02}:{m:02}:{s:02}.{ms:03}Z")),
                    conflict,
                },
            });
        }
        out
    })
}

/// Text that is mostly task-list-shaped, with noise.
fn files() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "( {0,6}|\t)[-*+] \\[[ xX~?-]\\] [ -~]{0,20}",
        "( {0,4})[-*+] \\[[ x-]\\] [a-z]{1,6}( due:2026-0[1-9]-[0-3][0-9])?( snooze:2026-01-01T0[0-9]:00Z)?( <!-- id:[a-c]{1,2}( conflict)? -->)?",
        " {0,6}>[ -~]{0,12}",
        "[^\n]{0,20}",
        "",
    ];
    proptest::collection::vec(line, 0..16).prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_rendered_list_parses_back_whole(list in lists()) {
        let written = render(&list);
        let back = parse(&written);
        prop_assert_eq!(&back.warnings, &[]);
        prop_assert_eq!(&back.tasks, &list);
        prop_assert_eq!(render(&back.tasks), written);
    }

    #[test]
    fn any_file_parses_and_its_rendering_is_a_fixed_point(text in files()) {
        let once = render(&parse(&text).tasks);
        let twice = render(&parse(&once).tasks);
        prop_assert_eq!(twice, once);
    }

    #[test]
    fn any_text_at_all_parses(text in any::<String>()) {
        let once = render(&parse(&text).tasks);
        prop_assert_eq!(render(&parse(&once).tasks), once);
    }
}

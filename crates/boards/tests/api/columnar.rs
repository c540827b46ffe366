//! The columns form of the full read says exactly what the JSON read says: a
//! property test over generated boards (every column type, random groups,
//! items with random subsets of values, strings that need escaping, integers
//! and fractions, values rewritten by SQLite when a column or member goes),
//! stored through the public API on a real on-disk database and read back in
//! both forms.

use std::collections::{BTreeMap, HashSet};

use ::boards::*;
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use store::Db;

use crate::common::{ACCOUNT, ACTOR, column, db};

/// Members made for every case; people values name them by index.
const MEMBERS: usize = 3;

/// Text that escaping has to get right: quotes, backslashes, control
/// characters, line separators, characters outside the BMP, and any other.
fn tricky() -> impl Strategy<Value = String> {
    let char = prop_oneof![
        4 => any::<char>(),
        2 => Just('a'),
        1 => Just('"'),
        1 => Just('\\'),
        1 => Just('\u{0}'),
        1 => Just('\n'),
        1 => Just('\u{1f}'),
        1 => Just('\u{7f}'),
        1 => Just('\u{2028}'),
        1 => Just('😀'),
        1 => Just('/'),
    ];
    prop::collection::vec(char, 0..10).prop_map(String::from_iter)
}

#[derive(Debug, Clone)]
struct ColumnSpec {
    id: String,
    kind: ColumnType,
    title: String,
    labels: Vec<String>,
}

fn column_spec(index: usize) -> impl Strategy<Value = ColumnSpec> {
    (
        prop::sample::select(ColumnType::ALL.to_vec()),
        "[a-zA-Z0-9_.:-]{0,4}",
        tricky(),
        prop::collection::vec(tricky(), 1..4),
    )
        .prop_map(move |(kind, suffix, title, labels)| ColumnSpec {
            id: format!("{}{index}{suffix}", kind.as_str()),
            kind,
            title: format!("T{title}."),
            // The index keeps label names distinct and never blank.
            labels: (labels.iter().enumerate())
                .map(|(i, l)| format!("{i}{l}"))
                .collect(),
        })
}

fn date() -> impl Strategy<Value = String> {
    (1970..2100u32, 1..=12u32, 1..=28u32).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}"))
}

/// A value the column takes; a people value holds member indexes, resolved
/// to ids once the members exist.
fn value(column: &ColumnSpec) -> BoxedStrategy<Value> {
    match column.kind {
        ColumnType::Text => tricky().prop_map(Value::from).boxed(),
        ColumnType::Number => prop_oneof![
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            (-1000..1000i32).prop_map(|n| json!(f64::from(n) / 8.0)),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| json!(f)),
            Just(json!(0.1)),
        ]
        .boxed(),
        ColumnType::Status => prop::sample::select(column.labels.clone())
            .prop_map(Value::from)
            .boxed(),
        ColumnType::People => prop::collection::vec(0..MEMBERS, 0..3)
            .prop_map(|m| json!(m))
            .boxed(),
        ColumnType::Date => date().prop_map(Value::from).boxed(),
        ColumnType::Timeline => (date(), date())
            .prop_map(|(a, b)| json!({"from": a.clone().min(b.clone()), "to": a.max(b)}))
            .boxed(),
        ColumnType::Checkbox => any::<bool>().prop_map(Value::from).boxed(),
        ColumnType::Dropdown => prop::collection::vec(tricky(), 0..3)
            .prop_map(|o| json!(o))
            .boxed(),
    }
}

/// For each column: absent, or a value (`null` too where `clears`, which
/// clears it on an update).
fn values(
    columns: &[ColumnSpec],
    clears: bool,
) -> impl Strategy<Value = Vec<Option<Value>>> + use<> {
    columns
        .iter()
        .map(|c| {
            let set = value(c).prop_map(Some);
            if clears {
                prop_oneof![3 => Just(None), 1 => Just(Some(Value::Null)), 4 => set].boxed()
            } else {
                prop_oneof![3 => Just(None), 4 => set].boxed()
            }
        })
        .collect::<Vec<_>>()
}

#[derive(Debug, Clone)]
struct ItemSpec {
    group: Option<Index>,
    name: String,
    values: Vec<Option<Value>>,
}

fn item_spec(columns: &[ColumnSpec]) -> BoxedStrategy<ItemSpec> {
    (
        prop::option::of(any::<Index>()),
        tricky(),
        values(columns, false),
    )
        .prop_map(|(group, name, values)| ItemSpec {
            group,
            name: format!("i{name}."),
            values,
        })
        .boxed()
}

#[derive(Debug, Clone)]
struct Case {
    columns: Vec<ColumnSpec>,
    /// Each group's title and whether it gets a client-chosen id.
    groups: Vec<(String, bool)>,
    /// Items created together share their timestamps.
    batches: Vec<Vec<ItemSpec>>,
    singles: Vec<ItemSpec>,
    updates: Vec<(Index, Vec<Option<Value>>)>,
    moves: Vec<(Index, Index)>,
    removed_column: Option<Index>,
    removed_member: Option<usize>,
}

fn case() -> impl Strategy<Value = Case> {
    let columns = (1..9usize)
        .prop_flat_map(|n| (0..n).map(column_spec).collect::<Vec<_>>())
        .prop_map(|mut columns: Vec<ColumnSpec>| {
            // A suffix may repeat an id that another index and kind make.
            let mut seen = HashSet::new();
            columns.retain(|c| seen.insert(c.id.clone()));
            columns
        });
    let groups = prop::collection::vec((tricky(), any::<bool>()), 1..4);
    (columns, groups).prop_flat_map(|(columns, groups)| {
        let item = item_spec(&columns);
        (
            prop::collection::vec(prop::collection::vec(item.clone(), 0..14), 1..4),
            prop::collection::vec(item, 0..3),
            prop::collection::vec((any::<Index>(), values(&columns, true)), 0..4),
            prop::collection::vec((any::<Index>(), any::<Index>()), 0..3),
            prop::option::weighted(0.3, any::<Index>()),
            prop::option::weighted(0.3, 0..MEMBERS),
        )
            .prop_map(
                move |(batches, singles, updates, moves, removed_column, removed_member)| Case {
                    columns: columns.clone(),
                    groups: groups.clone(),
                    batches,
                    singles,
                    updates,
                    moves,
                    removed_column,
                    removed_member,
                },
            )
    })
}

/// `values` as the API takes them: people indexes become member ids.
fn value_map(
    columns: &[ColumnSpec],
    values: &[Option<Value>],
    members: &[String],
) -> Map<String, Value> {
    let mut map = Map::new();
    for (column, value) in columns.iter().zip(values) {
        let Some(mut value) = value.clone() else {
            continue;
        };
        if column.kind == ColumnType::People
            && let Value::Array(indexes) = &mut value
        {
            for index in indexes {
                *index = json!(members[index.as_u64().unwrap() as usize]);
            }
        }
        map.insert(column.id.clone(), value);
    }
    map
}

/// Stores the case through the public API and returns the board's id.
fn store_case(db: &Db, case: &Case) -> String {
    let workspace = create_workspace(db, ACCOUNT, "W").unwrap();
    let members: Vec<String> = (0..MEMBERS)
        .map(|i| {
            let member = NewMember {
                name: format!("M{i}"),
                email: None,
            };
            create_member(db, ACCOUNT, &member).unwrap().id
        })
        .collect();
    let board = create_board(
        db,
        ACCOUNT,
        &NewBoard {
            workspace_id: workspace.id,
            name: "B\"\\😀".into(),
            columns: (case.columns.iter())
                .map(|c| {
                    let settings = (c.kind == ColumnType::Status).then(|| {
                        json!({"labels": c.labels.iter().map(|l| json!({"name": l})).collect::<Vec<_>>()})
                    });
                    NewColumn {
                        title: c.title.clone(),
                        ..column(&c.id, c.kind.as_str(), settings)
                    }
                })
                .collect(),
            groups: (case.groups.iter().enumerate())
                .map(|(i, (title, own_id))| NewGroup {
                    id: own_id.then(|| format!("g{i}")),
                    title: format!("G{title}."),
                })
                .collect(),
            preset: None,
        },
    )
    .unwrap();
    let group_ids: Vec<String> = board.groups.iter().map(|g| g.id.clone()).collect();
    let new_item = |spec: &ItemSpec| NewItem {
        group_id: spec.group.map(|g| g.get(&group_ids).clone()),
        name: spec.name.clone(),
        values: value_map(&case.columns, &spec.values, &members),
    };
    let mut ids = Vec::new();
    for batch in &case.batches {
        let batch: Vec<NewItem> = batch.iter().map(new_item).collect();
        ids.extend(create_items(db, ACCOUNT, ACTOR, &board.id, &batch).unwrap());
    }
    for spec in &case.singles {
        ids.push(
            create_item(db, ACCOUNT, ACTOR, &board.id, &new_item(spec))
                .unwrap()
                .id,
        );
    }
    if !ids.is_empty() {
        for (item, values) in &case.updates {
            let patch = ItemPatch {
                values: Some(value_map(&case.columns, values, &members)),
                ..Default::default()
            };
            update_item(db, ACCOUNT, ACTOR, item.get(&ids).as_str(), &patch).unwrap();
        }
        for (item, group) in &case.moves {
            move_item(
                db,
                ACCOUNT,
                ACTOR,
                item.get(&ids).as_str(),
                group.get(&group_ids).as_str(),
                Some(0),
            )
            .unwrap();
        }
    }
    // Both rewrite stored values through SQLite's JSON functions.
    if let Some(column) = case.removed_column {
        remove_column(db, ACCOUNT, &board.id, &column.get(&case.columns).id).unwrap();
    }
    if let Some(member) = case.removed_member {
        delete_member(db, ACCOUNT, &members[member]).unwrap();
    }
    board.id
}

/// The raw text of a body's `board` object.
fn raw_board(body: &[u8]) -> String {
    let top: BTreeMap<String, &RawValue> = serde_json::from_slice(body).unwrap();
    top["board"].get().to_owned()
}

/// Decodes the columns form and checks it against the JSON read.
fn check_same(db: &Db, board: &str) {
    let json = full_board(db, ACCOUNT, board).unwrap();
    let columns = columnar_board(db, ACCOUNT, board, ItemFields::ALL).unwrap();
    assert_ne!(columns.etag, json.etag);
    assert_eq!(
        columns.etag,
        columnar_etag(db, ACCOUNT, board, ItemFields::ALL).unwrap()
    );
    assert_eq!(raw_board(&columns.body), raw_board(&json.body));
    // Built from what is stored alone: the same bytes on every read.
    assert_eq!(
        columnar_board(db, ACCOUNT, board, ItemFields::ALL)
            .unwrap()
            .body,
        columns.body
    );

    let full: FullBoardBody = serde_json::from_slice(&json.body).unwrap();
    let body: ColumnsBoardBody = serde_json::from_slice(&columns.body).unwrap();
    assert_eq!(body.board, full.board);
    let items = &body.items;
    let n = full.items.len();
    assert_eq!(items.count, n as u64);
    let whole = |column: &Option<_>| column.clone().expect("every field is read");
    let [ids, groups, names, created, updated] = [
        &items.id,
        &items.group_id,
        &items.name,
        &items.created_at,
        &items.updated_at,
    ]
    .map(whole);
    let values = items.values.clone().expect("values are read");
    for (i, item) in full.items.iter().enumerate() {
        assert_eq!(ids.get(i), Some(item.id.as_str()));
        assert_eq!(groups.get(i), Some(item.group_id.as_str()));
        assert_eq!(names.get(i), Some(item.name.as_str()));
        assert_eq!(created.get(i), Some(item.created_at.as_str()));
        assert_eq!(updated.get(i), Some(item.updated_at.as_str()));
        for (key, column) in &values {
            let codes = column.codes.decode(column.dict.len()).expect("numbers");
            assert_eq!(codes.len(), n, "{key}");
            // Absent exactly when the code is -1.
            assert_eq!(column.get(i), item.values.get(key), "item {i}, {key}");
            assert_eq!(codes[i] == -1, !item.values.contains_key(key));
        }
        for key in item.values.keys() {
            assert!(values.contains_key(key), "{key}");
        }
    }
    check_layout(&columns.body, &full);
    check_packed(db, board, &body);
}

/// The same read with packed codes: the same dictionaries and, decoded, the
/// same codes, under the ETag with `.base64` before its closing quote.
fn check_packed(db: &Db, board: &str, numbers: &ColumnsBoardBody) {
    let form = ColumnsForm {
        fields: ItemFields::ALL,
        codes: Codes::Base64,
    };
    let packed = columnar_board(db, ACCOUNT, board, form).unwrap();
    assert_eq!(
        packed.etag,
        columnar_etag(db, ACCOUNT, board, form).unwrap()
    );
    let numbers_etag = columnar_etag(db, ACCOUNT, board, ItemFields::ALL).unwrap();
    assert_eq!(
        packed.etag,
        numbers_etag.replace(".columns", ".columns.base64")
    );
    let body: ColumnsBoardBody = serde_json::from_slice(&packed.body).unwrap();
    assert_eq!(body.board, numbers.board);
    let decoded = |column: &StringColumn| match column {
        StringColumn::Plain(strings) => (strings.clone(), None),
        StringColumn::Dict { dict, codes } => (dict.clone(), codes.decode(dict.len())),
    };
    let fields = |items: &ItemColumns| {
        [
            &items.id,
            &items.group_id,
            &items.name,
            &items.created_at,
            &items.updated_at,
        ]
        .map(|column| column.as_ref().map(decoded))
    };
    assert_eq!(fields(&body.items), fields(&numbers.items));
    let values = |items: &ItemColumns| -> Vec<(String, Vec<Value>, Option<Vec<i64>>)> {
        let columns = items.values.clone().expect("values are read");
        columns
            .into_iter()
            .map(|(key, column)| {
                let codes = column.codes.decode(column.dict.len());
                (key, column.dict, codes)
            })
            .collect()
    };
    let packed_values = values(&body.items);
    assert!(packed_values.iter().all(|(_, _, codes)| codes.is_some()));
    assert_eq!(packed_values, values(&numbers.items));
}

/// The forms each field is written in, and the order of the values keys.
fn check_layout(body: &[u8], full: &FullBoardBody) {
    let body: Value = serde_json::from_slice(body).unwrap();
    let items = &body["items"];
    assert!(items["id"].is_array() && items["name"].is_array());
    assert!(items["groupId"]["dict"].is_array());
    let created: fn(&FullItem) -> &str = |i| &i.created_at;
    let updated: fn(&FullItem) -> &str = |i| &i.updated_at;
    for (field, of) in [("createdAt", created), ("updatedAt", updated)] {
        let distinct: HashSet<&str> = full.items.iter().map(of).collect();
        let dict = distinct.len() * 2 <= full.items.len();
        assert_eq!(items[field].is_object(), dict, "{field}: {}", items[field]);
    }
    let mut order: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for item in &full.items {
        let mut keys: Vec<&String> = item.values.keys().collect();
        keys.sort();
        for key in keys {
            if seen.insert(key) {
                order.push(key.clone());
            }
        }
    }
    let written: Vec<String> = items["values"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(written, order);
}

proptest! {
    // Each case is a fresh database and a dozen transactions: 48 run in a
    // few seconds in a debug build.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn the_columns_form_decodes_to_the_json_read(case in case()) {
        let (_dir, db) = db();
        let board = store_case(&db, &case);
        check_same(&db, &board);
    }
}

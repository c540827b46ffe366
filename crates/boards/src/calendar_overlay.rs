//! The boards on the calendar (docs/calendar.md, "The boards on the
//! calendar"): each board's items on their due dates and its sprints'
//! spans, in a range of days, as plain data for the application to turn
//! into calendar entries. Knows nothing of the calendar crate or settings.
//!
//! - A board's due-date column: the date column `due`; else the first date
//!   column whose title says "due" or "deadline"; else its first date
//!   column other than `done_on` ([`due_column`]).
//! - A board's sprints: the distinct values of its text column `sprint`,
//!   each spanning its items' earliest to latest date in any date column.
//! - A board's color: [`PALETTE`] at the board's position among the
//!   account's boards by creation, so the first ten never share one.
//!
//! Dates are `YYYY-MM-DD` text, checked when written, so they compare as
//! text in SQL. The read never loads a board: one query for the account's
//! boards and their date and text columns, one pass over the chosen boards'
//! items reading each one's due value by a JSON path, and one range scan of
//! each board with a sprint column, grouped by sprint.

use std::collections::HashMap;

use store::Db;
use store::rusqlite::{Transaction, params, params_from_iter};

use crate::columns::ColumnType;
use crate::error::Result;
use crate::tables::json_path;

/// Board colors, each readable under white text (contrast at least 4.5:1)
/// and far enough from the others to tell boards apart.
pub const PALETTE: [&str; 10] = [
    "#1e6fd9", "#c62828", "#2e7d32", "#7b1fa2", "#b45309", "#00796b", "#ad1457", "#6d4c41",
    "#3949ab", "#5b6b00",
];

/// The color of the board at `position` among the account's boards.
pub fn board_color(position: usize) -> &'static str {
    PALETTE[position % PALETTE.len()]
}

/// The id of the text column whose values name sprints (the presets'
/// convention, `presets.rs`).
pub const SPRINT_COLUMN: &str = "sprint";

/// The date column read as the items' due date, among a board's date
/// columns `(id, title)` in board order.
pub fn due_column<'a>(date_columns: &[(&'a str, &'a str)]) -> Option<&'a str> {
    let says_due = |title: &str| {
        let title = title.to_lowercase();
        title.contains("due") || title.contains("deadline")
    };
    date_columns
        .iter()
        .find(|(id, _)| *id == "due")
        .or_else(|| date_columns.iter().find(|(_, title)| says_due(title)))
        .or_else(|| date_columns.iter().find(|(id, _)| *id != "done_on"))
        .map(|(id, _)| *id)
}

/// A board as the calendar shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverlayBoard {
    pub id: String,
    pub name: String,
    /// `#rrggbb`, from [`PALETTE`].
    pub color: String,
}

/// An item on its due date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueEntry {
    pub board: OverlayBoard,
    pub item_id: String,
    pub item_name: String,
    /// The date column read (what a drag to another day writes).
    pub column_id: String,
    /// `YYYY-MM-DD`.
    pub day: String,
}

/// A sprint from its items' earliest date to their latest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SprintSpan {
    pub board: OverlayBoard,
    /// The sprint's name, trimmed.
    pub name: String,
    /// `YYYY-MM-DD`, both included.
    pub first_day: String,
    pub last_day: String,
}

/// What the boards put on the calendar for a range of days.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlay {
    pub items: Vec<DueEntry>,
    pub sprints: Vec<SprintSpan>,
}

/// A board of the account with what the overlay reads of its columns.
struct Shape {
    board: OverlayBoard,
    due: Option<String>,
    /// The ids of its date columns.
    dates: Vec<String>,
    sprints: bool,
}

/// The account's items due from `from` to `to` (`YYYY-MM-DD`, both
/// included) and its sprints whose span overlaps those days, on the boards
/// `only` (ids; empty means every board). Ids that are not the account's
/// boards are ignored, and a list naming none of them means every board: the
/// setting is the installation's, and one account's choice must not hide
/// another's boards. Items of a done status are included.
pub fn calendar_overlay(
    db: &Db,
    account_id: &str,
    only: &[String],
    from: &str,
    to: &str,
) -> Result<Overlay> {
    db.read(|tx| {
        let shapes: HashMap<String, Shape> = chosen(shapes(tx, account_id)?, only)
            .map(|s| (s.board.id.clone(), s))
            .collect();
        Ok(Overlay {
            items: due_entries(tx, &shapes, from, to)?,
            sprints: sprint_spans(tx, &shapes, from, to)?,
        })
    })
}

/// The due-date column of each board of the account the calendar shows
/// (`only` as [`calendar_overlay`] reads it), for the boards that have one.
pub fn due_columns(db: &Db, account_id: &str, only: &[String]) -> Result<HashMap<String, String>> {
    db.read(|tx| {
        Ok(chosen(shapes(tx, account_id)?, only)
            .filter_map(|s| Some((s.board.id, s.due?)))
            .collect())
    })
}

/// The boards of `shapes` that `only` chooses: those it names, or all when
/// it names none of them.
fn chosen(shapes: Vec<Shape>, only: &[String]) -> impl Iterator<Item = Shape> {
    let named = shapes.iter().any(|s| only.contains(&s.board.id));
    shapes
        .into_iter()
        .filter(move |s| !named || only.contains(&s.board.id))
}

/// Every board of the account, in creation order, with its color, due
/// column and whether it has a sprint column.
fn shapes(tx: &Transaction<'_>, account_id: &str) -> Result<Vec<Shape>> {
    let mut stmt = tx.prepare_cached(
        "SELECT b.id, b.name, c.id, c.title, c.type
         FROM boards b
         LEFT JOIN board_columns c ON c.board_id = b.id AND c.type IN ('date', 'text')
         WHERE b.account_id = ?1
         ORDER BY b.created_at, b.id, c.position",
    )?;
    let rows = stmt.query_map([account_id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Option<String>>(2)?,
            r.get::<_, Option<String>>(3)?,
            r.get::<_, Option<String>>(4)?,
        ))
    })?;
    let mut shapes: Vec<Shape> = Vec::new();
    // The titles of each board's date columns, beside `Shape::dates`.
    let mut titles: Vec<Vec<String>> = Vec::new();
    for row in rows {
        let (id, name, column, title, kind) = row?;
        if shapes.last().is_none_or(|s| s.board.id != id) {
            let color = board_color(shapes.len()).to_owned();
            shapes.push(Shape {
                board: OverlayBoard { id, name, color },
                due: None,
                dates: Vec::new(),
                sprints: false,
            });
            titles.push(Vec::new());
        }
        let (Some(shape), Some(board_titles), Some(column), Some(title), Some(kind)) =
            (shapes.last_mut(), titles.last_mut(), column, title, kind)
        else {
            continue;
        };
        match ColumnType::parse(&kind) {
            Some(ColumnType::Date) => {
                shape.dates.push(column);
                board_titles.push(title);
            }
            Some(ColumnType::Text) if column == SPRINT_COLUMN => shape.sprints = true,
            _ => {}
        }
    }
    for (shape, titles) in shapes.iter_mut().zip(&titles) {
        let heads: Vec<(&str, &str)> = shape
            .dates
            .iter()
            .zip(titles)
            .map(|(id, title)| (id.as_str(), title.as_str()))
            .collect();
        shape.due = due_column(&heads).map(str::to_owned);
    }
    Ok(shapes)
}

/// One pass over the chosen boards' items: the value in each board's due
/// column when it is a day of the range. A JSON path reads one key of an
/// item's values five times faster than `json_each` walks them all.
fn due_entries(
    tx: &Transaction<'_>,
    shapes: &HashMap<String, Shape>,
    from: &str,
    to: &str,
) -> Result<Vec<DueEntry>> {
    // Each board's due column and its JSON path, made by the one quoting
    // the crate's other reads of a column use.
    let due: HashMap<&str, [String; 2]> = shapes
        .values()
        .filter_map(|s| {
            let column = s.due.as_deref()?;
            Some((s.board.id.as_str(), [column.to_owned(), json_path(column)]))
        })
        .collect();
    if due.is_empty() {
        return Ok(Vec::new());
    }
    let due_json = serde_json::to_string(&due).unwrap_or_default();
    let mut stmt = tx.prepare_cached(
        "WITH due (board_id, column_id, path) AS
           (SELECT key, value ->> '$[0]', value ->> '$[1]' FROM json_each(?1))
         SELECT board_id, id, name, column_id, day FROM (
           SELECT i.board_id, i.id, i.name, due.column_id, i.vals ->> due.path AS day
           FROM due JOIN items i ON i.board_id = due.board_id)
         WHERE day >= ?2 AND day <= ?3",
    )?;
    let rows = stmt.query_map(params![due_json, from, to], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, String>(3)?,
            r.get::<_, String>(4)?,
        ))
    })?;
    let mut entries = Vec::new();
    for row in rows {
        let (board_id, item_id, item_name, column_id, day) = row?;
        if let Some(shape) = shapes.get(&board_id) {
            entries.push(DueEntry {
                board: shape.board.clone(),
                item_id,
                item_name,
                column_id,
                day,
            });
        }
    }
    Ok(entries)
}

/// Each sprint's earliest and latest date across its board's date columns,
/// kept when that span overlaps the range: one range scan of each chosen
/// board with a sprint column. The statement depends only on how many date
/// columns the board has (their paths are bound), so it is prepared once
/// for boards alike.
fn sprint_spans(
    tx: &Transaction<'_>,
    shapes: &HashMap<String, Shape>,
    from: &str,
    to: &str,
) -> Result<Vec<SprintSpan>> {
    let mut spans = Vec::new();
    for shape in shapes.values().filter(|s| s.sprints && !s.dates.is_empty()) {
        // ?1 board, ?2 from, ?3 to, then one path per date column. Each
        // value is read once (the CTE is materialized: flattened, SQLite
        // would read every path twice, for the min and for the max). A
        // missing date reads as a sentinel that sorts after (or before)
        // every day, so an item's own first and last date need no NULLs.
        let reads: Vec<String> = (0..shape.dates.len())
            .map(|k| format!("i.vals ->> ?{} AS d{k}", k + 4))
            .collect();
        let columns: Vec<String> = (0..shape.dates.len()).map(|k| format!("d{k}")).collect();
        let (first, last) = match columns.as_slice() {
            [only] => (only.clone(), only.clone()),
            _ => (
                format!("min({})", sentinel(&columns, "'~'")),
                format!("max({})", sentinel(&columns, "''")),
            ),
        };
        let reads = reads.join(", ");
        let sql = format!(
            "WITH dated AS MATERIALIZED (
               SELECT trim(i.vals ->> '$.\"{SPRINT_COLUMN}\"') AS sprint, {reads}
               FROM items i WHERE i.board_id = ?1)
             SELECT sprint, min(first), max(last) FROM (
               SELECT sprint, {first} AS first, {last} AS last FROM dated WHERE sprint <> '')
             WHERE first IS NOT NULL AND first <> '~'
             GROUP BY sprint
             HAVING min(first) <= ?3 AND max(last) >= ?2"
        );
        let mut stmt = tx.prepare_cached(&sql)?;
        let mut args: Vec<String> = vec![shape.board.id.clone(), from.into(), to.into()];
        args.extend(shape.dates.iter().map(|id| json_path(id)));
        let rows = stmt.query_map(params_from_iter(&args), |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        for row in rows {
            let (name, first_day, last_day) = row?;
            spans.push(SprintSpan {
                board: shape.board.clone(),
                name,
                first_day,
                last_day,
            });
        }
    }
    Ok(spans)
}

/// `coalesce(column, missing), …` for a scalar `min`/`max` of several columns.
fn sentinel(columns: &[String], missing: &str) -> String {
    columns
        .iter()
        .map(|p| format!("coalesce({p}, {missing})"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_due_column_is_due_then_a_title_that_says_so_then_the_first_but_done_on() {
        let presets = [
            ("done_on", "Completed"),
            ("start", "Start"),
            ("due", "Date"),
        ];
        assert_eq!(due_column(&presets), Some("due"));
        let titled = [
            ("start", "Start"),
            ("d1", "Ship DEADLINE"),
            ("d2", "Due on"),
        ];
        assert_eq!(due_column(&titled), Some("d1"));
        let due_title = [("start", "Start"), ("d2", "Overdue by")];
        assert_eq!(due_column(&due_title), Some("d2"));
        let plain = [("done_on", "Completed"), ("start", "Kick-off")];
        assert_eq!(due_column(&plain), Some("start"));
        assert_eq!(due_column(&[("done_on", "Completed")]), None);
        assert_eq!(due_column(&[]), None);
    }

    use serde_json::{Map, Value, json};

    use crate::model::{NewBoard, NewItem};

    fn db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        crate::migrate(&db).unwrap();
        (dir, db)
    }

    /// A board of the engineering-jira preset (`sprint`, `due`, `done_on`).
    fn sprint_board(db: &Db, account: &str, name: &str) -> String {
        let workspace = crate::create_workspace(db, account, "Main").unwrap();
        let new = NewBoard {
            workspace_id: workspace.id,
            name: name.into(),
            preset: Some("engineering-jira".into()),
            ..Default::default()
        };
        crate::create_board(db, account, &new).unwrap().id
    }

    fn item(name: &str, values: Value) -> NewItem {
        let values: Map<String, Value> = values.as_object().cloned().unwrap_or_default();
        NewItem {
            group_id: None,
            name: name.into(),
            values,
        }
    }

    #[test]
    fn items_on_their_due_days_and_sprints_over_all_their_dates() {
        let (_dir, db) = db();
        let board = sprint_board(&db, "a", "Platform");
        let items = [
            item("Early", json!({"due": "2026-03-02", "sprint": "S1"})),
            item("Late", json!({"sprint": " S1 ", "done_on": "2026-03-20"})),
            item("Later", json!({"due": "2026-04-10", "sprint": "S2"})),
            item("Undated", json!({"sprint": "S3"})),
        ];
        crate::create_items(&db, "a", "t", &board, &items).unwrap();
        let other = sprint_board(&db, "b", "Theirs");
        let theirs = [item("Secret", json!({"due": "2026-03-05", "sprint": "S1"}))];
        crate::create_items(&db, "b", "t", &other, &theirs).unwrap();

        let overlay = calendar_overlay(&db, "a", &[], "2026-03-01", "2026-03-31").unwrap();
        let days: Vec<(&str, &str, &str)> = overlay
            .items
            .iter()
            .map(|e| (e.item_name.as_str(), e.column_id.as_str(), e.day.as_str()))
            .collect();
        assert_eq!(days, [("Early", "due", "2026-03-02")]);
        assert_eq!(overlay.items[0].board.color, PALETTE[0]);
        let spans: Vec<(&str, &str, &str)> = overlay
            .sprints
            .iter()
            .map(|s| (s.name.as_str(), s.first_day.as_str(), s.last_day.as_str()))
            .collect();
        assert_eq!(spans, [("S1", "2026-03-02", "2026-03-20")]);

        // A list naming none of the account's boards chooses all of them, and
        // still nothing of the other account's.
        let only_other = calendar_overlay(&db, "a", &[other], "2026-03-01", "2026-03-31");
        assert_eq!(only_other.unwrap(), overlay);
        let april = calendar_overlay(&db, "a", &[board], "2026-04-10", "2026-04-10").unwrap();
        assert_eq!(april.items.len(), 1);
        assert_eq!(april.sprints[0].name, "S2");
    }

    fn rgb(color: &str) -> [f64; 3] {
        let channel = |at: usize| {
            color
                .get(at..at + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .map_or(f64::NAN, f64::from)
        };
        [channel(1), channel(3), channel(5)]
    }

    /// WCAG relative luminance.
    fn luminance(color: &str) -> f64 {
        let [r, g, b] = rgb(color).map(|c| {
            let c = c / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        });
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }

    #[test]
    fn the_palette_has_ten_distinct_colors_readable_under_white_text() {
        for color in PALETTE {
            assert_eq!(color.len(), 7, "{color}");
            assert!(color.starts_with('#'), "{color}");
            assert!(color[1..].chars().all(|c| c.is_ascii_hexdigit()), "{color}");
            let contrast = 1.05 / (luminance(color) + 0.05);
            assert!(contrast >= 4.5, "{color}: contrast {contrast:.2}");
        }
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[i + 1..] {
                let (x, y) = (rgb(a), rgb(b));
                let distance = (0..3).map(|k| (x[k] - y[k]).powi(2)).sum::<f64>().sqrt();
                assert!(distance >= 50.0, "{a} and {b} are too alike");
            }
        }
        let first_ten: std::collections::HashSet<&str> = (0..10).map(board_color).collect();
        assert_eq!(first_ten.len(), 10);
        assert_eq!(board_color(PALETTE.len()), board_color(0));
    }
}

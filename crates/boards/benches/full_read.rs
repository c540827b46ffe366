//! Prints the full-board read's figures: 10,000- and 100,000-item read medians
//! and their ratio, the ETag lookup median, the 10,000-item batch insert time,
//! body sizes and the peak memory a 100,000-item read adds; and the columns
//! form's read median and body size beside the JSON one's, and the same read
//! built and compressed, and kept (`boards::BuiltBoards`).
//!
//! Run with `cargo bench -p boards`.

use std::time::{Duration, Instant};

use boards::{NewBoard, NewItem, NewMember};
use serde_json::{Map, json};
use store::Db;

const ACCOUNT: &str = "bench";

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// The median of `runs` timed calls of `call`.
fn median_of<T>(runs: usize, mut call: impl FnMut() -> T) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(call());
                t.elapsed()
            })
            .collect(),
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// A realistic item of the engineering-jira preset.
fn items(count: usize, offset: usize, members: &[String]) -> Vec<NewItem> {
    let statuses = ["To Do", "In Progress", "In Review", "Done"];
    (offset..offset + count)
        .map(|i| {
            let mut values = Map::new();
            let status = statuses[i % 4];
            values.insert("status".into(), json!(status));
            values.insert("owner".into(), json!([members[i % members.len()]]));
            values.insert("effort".into(), json!([1, 2, 3, 5, 8, 13][i % 6]));
            values.insert("sprint".into(), json!(format!("Sprint {}", i % 12 + 1)));
            values.insert(
                "due".into(),
                json!(format!("2025-{:02}-{:02}", i % 12 + 1, i % 28 + 1)),
            );
            if status == "Done" {
                values.insert(
                    "done_on".into(),
                    json!(format!("2025-{:02}-{:02}", i % 12 + 1, i % 27 + 1)),
                );
            }
            values.insert("priority".into(), json!("Medium"));
            values.insert("components".into(), json!(["API", "Web"]));
            values.insert(
                "epic".into(),
                json!(format!("EPIC-{} Checkout revamp", i % 40)),
            );
            NewItem {
                group_id: Some(
                    if i % 3 == 0 {
                        "backlog"
                    } else {
                        "current_sprint"
                    }
                    .into(),
                ),
                name: format!("Fix the billing webhook retry path #{i}"),
                values,
            }
        })
        .collect()
}

fn new_board(db: &Db, workspace: &str, name: &str) -> String {
    let board = boards::create_board(
        db,
        ACCOUNT,
        &NewBoard {
            workspace_id: workspace.into(),
            name: name.into(),
            preset: Some("engineering-jira".into()),
            ..Default::default()
        },
    )
    .expect("board");
    board.id
}

fn fill(db: &Db, board: &str, total: usize, members: &[String]) -> Vec<Duration> {
    let mut times = Vec::new();
    for start in (0..total).step_by(boards::MAX_BATCH_ITEMS) {
        let batch = items(boards::MAX_BATCH_ITEMS.min(total - start), start, members);
        let t = Instant::now();
        boards::create_items(db, ACCOUNT, "bench", board, &batch).expect("batch");
        times.push(t.elapsed());
    }
    times
}

/// A form of the full read: [`boards::full_board`] or [`boards::columnar_board`] of some fields.
type Read = fn(&Db, &str, &str) -> boards::Result<boards::FullBoard>;

fn timed(read: Read, db: &Db, board: &str) -> (Duration, usize) {
    let t = Instant::now();
    let full = read(db, ACCOUNT, board).expect("read");
    let elapsed = t.elapsed();
    (elapsed, std::hint::black_box(full.body).len())
}

/// Medians and body sizes of `reads`, each of a board `times` times a round,
/// the rounds interleaved so that load from other processes on this shared
/// machine weighs on all of them alike.
fn medians<const N: usize>(
    db: &Db,
    reads: [(Read, &str, usize); N],
    rounds: usize,
) -> [(Duration, usize); N] {
    for (read, board, _) in reads {
        timed(read, db, board);
    }
    let mut runs: [Vec<(Duration, usize)>; N] = std::array::from_fn(|_| Vec::new());
    for _ in 0..rounds {
        for ((read, board, times), runs) in reads.iter().zip(&mut runs) {
            runs.extend((0..*times).map(|_| timed(*read, db, board)));
        }
    }
    runs.map(|runs| {
        let size = runs.last().map_or(0, |r| r.1);
        (median(runs.into_iter().map(|r| r.0).collect()), size)
    })
}

/// Peak resident set (VmHWM) and current one (VmRSS), in bytes.
fn memory() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map(|kb| kb * 1024)
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = Db::open(&dir.path().join("bench.db")).expect("db");
    boards::migrate(&db).expect("migrate");
    let workspace = boards::create_workspace(&db, ACCOUNT, "Bench").expect("workspace");
    let members: Vec<String> = (0..20)
        .map(|i| {
            boards::create_member(
                &db,
                ACCOUNT,
                &NewMember {
                    name: format!("Member {i}"),
                    email: None,
                },
            )
            .expect("member")
            .id
        })
        .collect();

    let inserts: Vec<Duration> = (0..5)
        .flat_map(|run| {
            let board = new_board(&db, &workspace.id, &format!("Insert {run}"));
            fill(&db, &board, 10_000, &members)
        })
        .collect();
    println!(
        "batch insert, 10,000 items in one transaction: median {:.1} ms (min {:.1}, max {:.1}, 5 runs)",
        ms(median(inserts.clone())),
        ms(*inserts.iter().min().expect("runs")),
        ms(*inserts.iter().max().expect("runs")),
    );

    let small = new_board(&db, &workspace.id, "10k");
    fill(&db, &small, 10_000, &members);
    let big = new_board(&db, &workspace.id, "100k");
    fill(&db, &big, 100_000, &members);

    let json: Read = boards::full_board;
    let columns: Read =
        |db, account, board| boards::columnar_board(db, account, board, boards::ItemFields::ALL);
    // What a dashboard without a table widget asks for.
    let figures: Read = |db, account, board| {
        let fields = boards::ItemFields::parse("groupId,createdAt,values").expect("known fields");
        boards::columnar_board(db, account, board, fields)
    };
    let [(small_median, small_size), (big_median, big_size)] =
        medians(&db, [(json, &small, 5), (json, &big, 1)], 15);
    println!(
        "full read, 10,000 items: median {:.2} ms, body {:.2} MB",
        ms(small_median),
        small_size as f64 / 1e6
    );
    println!(
        "full read, 100,000 items: median {:.2} ms, body {:.2} MB, ratio to 10,000: {:.2}x",
        ms(big_median),
        big_size as f64 / 1e6,
        big_median.as_secs_f64() / small_median.as_secs_f64()
    );

    let [
        (json_median, json_size),
        (columns_median, columns_size),
        (figures_median, figures_size),
    ] = medians(
        &db,
        [
            (json, &small, 1),
            (columns, &small, 1),
            (figures, &small, 1),
        ],
        30,
    );
    println!(
        "10,000 items, JSON read: median {:.2} ms, body {:.2} MB; columns read \
         (application/vnd.switchboard.columns+json): median {:.2} ms, body {:.2} MB ({:.0}% of the JSON); \
         columns read of groupId,createdAt,values: median {:.2} ms, body {:.2} MB ({:.0}% of the whole columns form)",
        ms(json_median),
        json_size as f64 / 1e6,
        ms(columns_median),
        columns_size as f64 / 1e6,
        100.0 * columns_size as f64 / json_size as f64,
        ms(figures_median),
        figures_size as f64 / 1e6,
        100.0 * figures_size as f64 / columns_size as f64
    );

    let read_kept = |kept: &boards::BuiltBoards| {
        kept.columnar(&db, ACCOUNT, &small, boards::ItemFields::ALL)
            .expect("columns form")
    };
    // Each build into an empty keeper, so every one compresses anew.
    let build = median_of(15, || read_kept(&boards::BuiltBoards::new(64 << 20)));
    let built = boards::BuiltBoards::new(64 << 20);
    let compressed = read_kept(&built).body.zstd.len();
    let kept = median_of(2000, || read_kept(&built));
    println!(
        "10,000 items, columns form built and compressed (zstd): median {:.2} ms, {:.2} MB; \
         kept, the board unchanged: median {:.1} us",
        ms(build),
        compressed as f64 / 1e6,
        kept.as_secs_f64() * 1e6
    );

    // A dashboard's fifty boards read together with shared dictionaries, as the web app asks.
    let dashboard: Vec<String> = (0..50)
        .map(|b| {
            let board = new_board(&db, &workspace.id, &format!("Dashboard {b}"));
            fill(&db, &board, 2_000, &members);
            board
        })
        .collect();
    let form = boards::ColumnsForm {
        fields: boards::ItemFields::parse("groupId,createdAt,values").expect("known fields"),
        codes: boards::Codes::Base64,
    };
    let read_shared = |kept: &boards::BuiltBoards| {
        let bodies: Vec<_> = dashboard
            .iter()
            .map(|board| {
                kept.columnar(&db, ACCOUNT, board, form)
                    .expect("columns form")
            })
            .collect();
        kept.shared_dicts(&bodies, form.codes)
            .expect("shared dictionaries")
    };
    let built = boards::BuiltBoards::new(64 << 20);
    let own: usize = dashboard
        .iter()
        .map(|board| {
            built
                .columnar(&db, ACCOUNT, board, form)
                .expect("columns form")
                .body
                .len
        })
        .sum();
    // Each from the boards' kept bodies into a keeper of its own, as after one board changed.
    let share = median(
        (0..15)
            .map(|_| {
                let fresh = boards::BuiltBoards::new(64 << 20);
                for board in &dashboard {
                    let _ = fresh.columnar(&db, ACCOUNT, board, form);
                }
                let started = Instant::now();
                std::hint::black_box(read_shared(&fresh));
                started.elapsed()
            })
            .collect(),
    );
    let shared = read_shared(&built);
    let shared_len = shared.dicts_line.len + shared.bodies.iter().map(|b| b.len).sum::<usize>();
    let kept = median_of(200, || read_shared(&built));
    println!(
        "50 boards x 2,000 items (groupId,createdAt,values, packed codes) with shared dictionaries: \
         made from their kept bodies and compressed in median {:.2} ms, {:.2} MB against {:.2} MB \
         of their own bodies; kept, the boards unchanged: median {:.0} us",
        ms(share),
        shared_len as f64 / 1e6,
        own as f64 / 1e6,
        kept.as_secs_f64() * 1e6
    );

    let etag = median_of(2000, || {
        boards::board_etag(&db, ACCOUNT, &big).expect("etag")
    });
    println!(
        "board_etag (If-None-Match -> 304 path): median {:.1} us",
        etag.as_secs_f64() * 1e6
    );

    // Reset the peak to the current resident set, then read the big board once.
    if std::fs::write("/proc/self/clear_refs", "5").is_ok()
        && let Some((_, before)) = memory()
    {
        let full = boards::full_board(&db, ACCOUNT, &big).expect("read");
        let size = full.body.len();
        drop(full);
        if let Some((peak, _)) = memory() {
            let added = peak.saturating_sub(before);
            println!(
                "peak resident memory added by one 100,000-item read: {:.1} MB ({:.2}x the body)",
                added as f64 / 1e6,
                added as f64 / size as f64
            );
        }
    }
}

//! Prints what the first page of a 100,000-row sheet costs the server, the
//! part of the Sheets page's first paint that grows with the file: reading
//! the sheet list (names and sizes) and the first 200 rows of an `.xlsx`
//! and of a `.csv`, beside a same-run baseline of 1,000 rows. The workbook is
//! written by rust_xlsxwriter with six columns (text, numbers, a formula).
//!
//! Run with `cargo bench -p sheets --bench first_page`.

use std::time::{Duration, Instant};

use rust_xlsxwriter::{Formula, Workbook};
use sheets::{Format, read};

const SIZES: [u32; 2] = [1_000, 100_000];
const PAGE: u32 = 200;
const RUNS: usize = 5;

fn main() {
    println!("Sheets first page ({PAGE} rows; median of {RUNS}; release build)");
    for rows in SIZES {
        let xlsx = xlsx_book(rows);
        let csv = csv_book(rows);
        for (label, bytes, format) in [("xlsx", &xlsx, Format::Xlsx), ("csv", &csv, Format::Csv)] {
            let (list, page) = measure(bytes, format);
            println!(
                "{rows:>7} rows {label:<4} ({:>6.1} MiB): sheet list {:>8.1} ms, first page {:>8.1} ms, both {:>8.1} ms",
                bytes.len() as f64 / 1_048_576.0,
                ms(list),
                ms(page),
                ms(list + page),
            );
        }
    }
}

/// The median sheet-list and first-page times over [`RUNS`] runs.
fn measure(bytes: &[u8], format: Format) -> (Duration, Duration) {
    let mut lists = Vec::with_capacity(RUNS);
    let mut pages = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let start = Instant::now();
        let sheets = read::sheets(bytes, format).expect("the bench's own workbook reads");
        lists.push(start.elapsed());
        let start = Instant::now();
        let page = read::rows(bytes, format, &sheets[0].name, 0, PAGE)
            .expect("the bench's own workbook pages");
        pages.push(start.elapsed());
        assert_eq!(page.rows.len(), PAGE as usize);
    }
    lists.sort();
    pages.sort();
    (lists[RUNS / 2], pages[RUNS / 2])
}

fn xlsx_book(rows: u32) -> Vec<u8> {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for row in 0..rows {
        sheet
            .write_string(row, 0, format!("task {row}"))
            .expect("write");
        sheet
            .write_string(row, 1, ["ana", "bo", "cy"][row as usize % 3])
            .expect("write");
        sheet.write_string(row, 2, "todo").expect("write");
        sheet
            .write_number(row, 3, f64::from(row % 13))
            .expect("write");
        sheet
            .write_number(row, 4, f64::from(row) * 1.5)
            .expect("write");
        sheet
            .write_formula(
                row,
                5,
                Formula::new(format!("=D{0}*2", row + 1)).set_result(((row % 13) * 2).to_string()),
            )
            .expect("write");
    }
    book.save_to_buffer().expect("the workbook serialises")
}

fn csv_book(rows: u32) -> Vec<u8> {
    let mut out = String::new();
    for row in 0..rows {
        out.push_str(&format!(
            "task {row},{},todo,{},{}\n",
            ["ana", "bo", "cy"][row as usize % 3],
            row % 13,
            f64::from(row) * 1.5
        ));
    }
    out.into_bytes()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

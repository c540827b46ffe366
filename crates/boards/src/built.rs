//! The columns form of the boards read lately, kept built and compressed
//! while their version holds.
//!
//! Building a board's columns form costs the server 4–5 ms per 2,000 items
//! (the rows, splitting every item's values into columns, compressing), and a
//! dashboard reads all its boards every time it is opened anywhere: a new
//! tab, another browser, a reload after the browser's cache was cleared. The
//! board's version already decides the ETag, so a body built for one version
//! is the body of every read until the board changes; a read then costs one
//! indexed lookup. Bodies are kept compressed with zstd: a body is sent far
//! more often than it is built, and compressed it is about a fifth of the
//! memory. What exceeds the budget goes, least recently read first. A board
//! read with fewer item fields or packed codes ([`ColumnsForm`]) is kept apart
//! from its whole form; the one of an older version ages out like any other.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use store::Db;

use crate::columnar::{Codes, ColumnsForm, columnar_board, columnar_etag};
use crate::error::{BoardsError, Result};
use crate::shared_dicts::share_dicts;

/// zstd's default level: the body is compressed once per board version, so
/// the bytes saved on every read outweigh the few milliseconds over level 1.
const LEVEL: i32 = 3;

/// One board's columns form as of one version.
#[derive(Debug)]
pub struct BuiltBoard {
    /// The columns form's strong ETag (quotes included).
    pub etag: String,
    /// The body as built.
    pub body: Compressed,
}

/// Some boards' columns forms with shared dictionaries (see
/// [`crate::shared_dicts`]), each part compressed with zstd (a complete
/// frame) as [`BuiltBoard`] keeps a body.
#[derive(Debug)]
pub struct SharedBuilt {
    /// `{"dicts": {..}}` and its newline.
    pub dicts_line: Compressed,
    /// Each board's body, in the order the boards were given.
    pub bodies: Vec<Compressed>,
}

impl SharedBuilt {
    /// The compressed bytes it holds.
    pub fn bytes(&self) -> usize {
        self.dicts_line.zstd.len() + self.bodies.iter().map(|b| b.zstd.len()).sum::<usize>()
    }
}

/// Bytes compressed with zstd (a complete frame), and their length before.
#[derive(Debug)]
pub struct Compressed {
    pub zstd: Bytes,
    pub len: usize,
}

impl Compressed {
    fn new(bytes: &[u8]) -> Result<Self> {
        let zstd = zstd::bulk::compress(bytes, LEVEL).map_err(BoardsError::Compression)?;
        Ok(Self {
            zstd: Bytes::from(zstd),
            len: bytes.len(),
        })
    }

    /// The bytes as they were, for a client that does not take zstd.
    pub fn expanded(&self) -> Result<Vec<u8>> {
        zstd::bulk::decompress(&self.zstd, self.len).map_err(BoardsError::Compression)
    }
}

/// How many sets of boards' shared-dictionary forms are kept: a few
/// dashboards open in a few tabs. Together they hold at most a quarter of
/// the keeper's budget of compressed bytes, on top of it.
const SHARED_KEPT: usize = 4;

/// The boards' built columns forms, by board id and fields, within a budget
/// of compressed bytes; and the last few sets of them read with shared
/// dictionaries.
#[derive(Debug)]
pub struct BuiltBoards {
    budget: usize,
    held: Mutex<Held>,
    /// By the boards' ETags (which name each board, its version and form),
    /// the most recently read last.
    shared: Mutex<Vec<(Vec<String>, Arc<SharedBuilt>)>>,
}

#[derive(Debug, Default)]
struct Held {
    boards: HashMap<(String, ColumnsForm), Kept>,
    bytes: usize,
    reads: u64,
}

#[derive(Debug)]
struct Kept {
    built: Arc<BuiltBoard>,
    last_read: u64,
}

impl BuiltBoards {
    /// Keeps at most `budget` compressed bytes; a single body over it is
    /// built for its read and not kept.
    pub fn new(budget: usize) -> Self {
        Self {
            budget,
            held: Mutex::default(),
            shared: Mutex::default(),
        }
    }

    /// `boards` (built as they are now, by [`Self::columnar`]) with one
    /// dictionary per values key, their codes written as `codes` says: the
    /// kept ones while every board is as it was when they were built.
    pub fn shared_dicts(
        &self,
        boards: &[Arc<BuiltBoard>],
        codes: Codes,
    ) -> Result<Arc<SharedBuilt>> {
        let etags: Vec<String> = boards.iter().map(|b| b.etag.clone()).collect();
        let lock = || self.shared.lock().unwrap_or_else(PoisonError::into_inner);
        {
            let mut kept = lock();
            if let Some(at) = kept.iter().position(|(tags, _)| *tags == etags) {
                let hit = kept.remove(at);
                let built = Arc::clone(&hit.1);
                kept.push(hit);
                return Ok(built);
            }
        }
        let expanded = boards
            .iter()
            .map(|b| b.body.expanded())
            .collect::<Result<Vec<_>>>()?;
        let bodies: Vec<&[u8]> = expanded.iter().map(Vec::as_slice).collect();
        let shared = share_dicts(&bodies, codes)?;
        let mut dicts_line = shared.dicts;
        dicts_line.push(b'\n');
        let built = Arc::new(SharedBuilt {
            dicts_line: Compressed::new(&dicts_line)?,
            bodies: shared
                .bodies
                .iter()
                .map(|b| Compressed::new(b))
                .collect::<Result<_>>()?,
        });
        let size = built.bytes();
        let mut kept = lock();
        kept.retain(|(tags, _)| *tags != etags);
        if size > self.budget / 4 {
            return Ok(built);
        }
        let mut held: usize = kept.iter().map(|(_, set)| set.bytes()).sum();
        while !kept.is_empty() && (kept.len() >= SHARED_KEPT || held + size > self.budget / 4) {
            held -= kept.remove(0).1.bytes();
        }
        kept.push((etags, Arc::clone(&built)));
        Ok(built)
    }

    /// The board's columns form of `form` as it is now, for `account_id`:
    /// the kept one when the board has not changed since it was built, else
    /// built now and kept. A board of another account is not found, kept or
    /// not.
    pub fn columnar(
        &self,
        db: &Db,
        account_id: &str,
        board_id: &str,
        form: impl Into<ColumnsForm>,
    ) -> Result<Arc<BuiltBoard>> {
        let form = form.into();
        let etag = columnar_etag(db, account_id, board_id, form)?;
        let key = (board_id.to_owned(), form);
        if let Some(built) = self.kept(&key, &etag) {
            return Ok(built);
        }
        let full = columnar_board(db, account_id, board_id, form)?;
        let built = Arc::new(BuiltBoard {
            etag: full.etag,
            body: Compressed::new(&full.body)?,
        });
        self.keep(key, Arc::clone(&built));
        Ok(built)
    }

    /// How many compressed bytes are kept.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        // The map is consistent between statements: a panic elsewhere leaves
        // nothing half-done to fear.
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn kept(&self, key: &(String, ColumnsForm), etag: &str) -> Option<Arc<BuiltBoard>> {
        let mut held = self.lock();
        held.reads += 1;
        let read = held.reads;
        let kept = held.boards.get_mut(key)?;
        if kept.built.etag != etag {
            return None;
        }
        kept.last_read = read;
        Some(Arc::clone(&kept.built))
    }

    fn keep(&self, key: (String, ColumnsForm), built: Arc<BuiltBoard>) {
        let size = built.body.zstd.len();
        let mut held = self.lock();
        if let Some(old) = held.boards.remove(&key) {
            held.bytes -= old.built.body.zstd.len();
        }
        if size > self.budget {
            return;
        }
        while held.bytes + size > self.budget {
            let Some(oldest) = held
                .boards
                .iter()
                .min_by_key(|(_, kept)| kept.last_read)
                .map(|(key, _)| key.clone())
            else {
                break;
            };
            if let Some(gone) = held.boards.remove(&oldest) {
                held.bytes -= gone.built.body.zstd.len();
            }
        }
        held.reads += 1;
        let last_read = held.reads;
        held.bytes += size;
        held.boards.insert(key, Kept { built, last_read });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columnar::{Codes, ColumnsForm, ItemFields};
    use crate::model::{NewBoard, NewItem};

    fn board(db: &Db, account: &str, name: &str, items: usize) -> String {
        let ws = crate::workspaces::create_workspace(db, account, "W").unwrap();
        let board = crate::boards::create_board(
            db,
            account,
            &NewBoard {
                workspace_id: ws.id,
                name: name.into(),
                ..Default::default()
            },
        )
        .unwrap();
        let items: Vec<NewItem> = (0..items)
            .map(|i| NewItem {
                name: format!("{name} item {i}"),
                ..Default::default()
            })
            .collect();
        crate::items::create_items(db, account, "t", &board.id, &items).unwrap();
        board.id
    }

    fn db() -> (tempfile::TempDir, Db) {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("db.sqlite")).unwrap();
        crate::schema::migrate(&db).unwrap();
        (dir, db)
    }

    #[test]
    fn a_kept_body_is_the_board_as_it_is_until_the_board_changes() {
        let (_dir, db) = db();
        let id = board(&db, "a", "B", 40);
        let built = BuiltBoards::new(1 << 20);

        let first = built.columnar(&db, "a", &id, ItemFields::ALL).unwrap();
        let fresh = columnar_board(&db, "a", &id, ItemFields::ALL).unwrap();
        assert_eq!(first.etag, fresh.etag);
        assert_eq!(first.body.expanded().unwrap(), fresh.body);
        assert!(first.body.zstd.len() < first.body.len);
        assert!(Arc::ptr_eq(
            &first,
            &built.columnar(&db, "a", &id, ItemFields::ALL).unwrap()
        ));

        crate::items::create_items(
            &db,
            "a",
            "t",
            &id,
            &[NewItem {
                name: "late".into(),
                ..Default::default()
            }],
        )
        .unwrap();
        let after = built.columnar(&db, "a", &id, ItemFields::ALL).unwrap();
        let fresh = columnar_board(&db, "a", &id, ItemFields::ALL).unwrap();
        assert_ne!(after.etag, first.etag);
        assert_eq!(after.etag, fresh.etag);
        assert_eq!(after.body.expanded().unwrap(), fresh.body);
        assert_eq!(
            built.bytes(),
            after.body.zstd.len(),
            "the old version is gone"
        );
    }

    #[test]
    fn shared_dictionaries_are_kept_until_one_of_their_boards_changes() {
        let (_dir, db) = db();
        let (one, two) = (board(&db, "a", "One", 30), board(&db, "a", "Two", 20));
        let built = BuiltBoards::new(1 << 20);
        let form = ColumnsForm {
            fields: ItemFields::ALL,
            codes: Codes::Base64,
        };
        let read = |built: &BuiltBoards| {
            let boards = [&one, &two].map(|id| built.columnar(&db, "a", id, form).unwrap());
            built.shared_dicts(&boards, form.codes).unwrap()
        };
        let first = read(&built);
        assert!(Arc::ptr_eq(&first, &read(&built)));
        let fresh = |id: &str| columnar_board(&db, "a", id, form).unwrap().body;
        let expected = share_dicts(&[&fresh(&one), &fresh(&two)], form.codes).unwrap();
        assert_eq!(
            first.dicts_line.expanded().unwrap(),
            [&expected.dicts[..], b"\n"].concat()
        );
        assert_eq!(first.bodies.len(), 2);
        assert_eq!(first.bodies[1].expanded().unwrap(), expected.bodies[1]);

        crate::items::create_items(
            &db,
            "a",
            "t",
            &two,
            &[NewItem {
                name: "late".into(),
                ..Default::default()
            }],
        )
        .unwrap();
        let after = read(&built);
        assert!(!Arc::ptr_eq(&first, &after));
        let expected = share_dicts(&[&fresh(&one), &fresh(&two)], form.codes).unwrap();
        assert_eq!(after.bodies[1].expanded().unwrap(), expected.bodies[1]);
    }

    #[test]
    fn shared_dictionaries_are_kept_within_a_quarter_of_the_budget() {
        let (_dir, db) = db();
        let ids = [
            board(&db, "a", "One", 30),
            board(&db, "a", "Two", 20),
            board(&db, "a", "Three", 25),
        ];
        let form = ColumnsForm::from(ItemFields::ALL);
        let read = |built: &BuiltBoards, ids: &[&String]| {
            let boards: Vec<_> = ids
                .iter()
                .map(|id| built.columnar(&db, "a", id, form).unwrap())
                .collect();
            built.shared_dicts(&boards, form.codes).unwrap()
        };
        let size = read(&BuiltBoards::new(1 << 20), &[&ids[0], &ids[1]]).bytes();
        // Room for one set: a second set read pushes the first out.
        let built = BuiltBoards::new(4 * size + 4 * size / 2);
        let first = read(&built, &[&ids[0], &ids[1]]);
        assert!(Arc::ptr_eq(&first, &read(&built, &[&ids[0], &ids[1]])));
        read(&built, &[&ids[1], &ids[2]]);
        assert!(!Arc::ptr_eq(&first, &read(&built, &[&ids[0], &ids[1]])));
        // A set over a quarter of the budget is served and not kept.
        let small = BuiltBoards::new(4 * size - 4);
        let once = read(&small, &[&ids[0], &ids[1]]);
        assert!(!Arc::ptr_eq(&once, &read(&small, &[&ids[0], &ids[1]])));
    }

    #[test]
    fn a_read_of_fewer_fields_or_packed_codes_is_kept_apart_from_the_whole_form() {
        let (_dir, db) = db();
        let id = board(&db, "a", "B", 40);
        let built = BuiltBoards::new(1 << 20);
        let lean = ItemFields::parse("groupId,values").unwrap();
        let whole = built.columnar(&db, "a", &id, ItemFields::ALL).unwrap();
        let some = built.columnar(&db, "a", &id, lean).unwrap();
        let packed = ColumnsForm {
            fields: lean,
            codes: Codes::Base64,
        };
        let some_packed = built.columnar(&db, "a", &id, packed).unwrap();
        assert_eq!(
            some_packed.body.expanded().unwrap(),
            columnar_board(&db, "a", &id, packed).unwrap().body
        );
        assert_ne!(some_packed.etag, some.etag);
        assert!(some_packed.body.len < some.body.len);
        assert_ne!(whole.etag, some.etag);
        assert_eq!(
            some.body.expanded().unwrap(),
            columnar_board(&db, "a", &id, lean).unwrap().body
        );
        assert!(some.body.len < whole.body.len);
        assert!(Arc::ptr_eq(
            &some,
            &built.columnar(&db, "a", &id, lean).unwrap()
        ));
        assert!(Arc::ptr_eq(
            &whole,
            &built.columnar(&db, "a", &id, ItemFields::ALL).unwrap()
        ));
        assert!(Arc::ptr_eq(
            &some_packed,
            &built.columnar(&db, "a", &id, packed).unwrap()
        ));
        assert_eq!(
            built.bytes(),
            whole.body.zstd.len() + some.body.zstd.len() + some_packed.body.zstd.len()
        );
    }

    #[test]
    fn another_account_never_gets_a_kept_body() {
        let (_dir, db) = db();
        let id = board(&db, "a", "B", 3);
        let built = BuiltBoards::new(1 << 20);
        built.columnar(&db, "a", &id, ItemFields::ALL).unwrap();
        assert!(matches!(
            built.columnar(&db, "b", &id, ItemFields::ALL),
            Err(BoardsError::NotFound { .. })
        ));
    }

    #[test]
    fn over_the_budget_the_least_recently_read_goes_first() {
        let (_dir, db) = db();
        let ids: Vec<String> = ["P", "Q", "R"]
            .iter()
            .map(|name| board(&db, "a", name, 200))
            .collect();
        let sizes: Vec<usize> = ids
            .iter()
            .map(|id| {
                BuiltBoards::new(1 << 20)
                    .columnar(&db, "a", id, ItemFields::ALL)
                    .unwrap()
                    .body
                    .zstd
                    .len()
            })
            .collect();
        // Room for the two largest, not for all three.
        let mut sorted = sizes.clone();
        sorted.sort_unstable();
        let built = BuiltBoards::new(sorted[1] + sorted[2]);

        let p = built.columnar(&db, "a", &ids[0], ItemFields::ALL).unwrap();
        let q = built.columnar(&db, "a", &ids[1], ItemFields::ALL).unwrap();
        // P read again is now newer than Q.
        assert!(Arc::ptr_eq(
            &p,
            &built.columnar(&db, "a", &ids[0], ItemFields::ALL).unwrap()
        ));
        built.columnar(&db, "a", &ids[2], ItemFields::ALL).unwrap();
        assert!(built.bytes() <= sorted[1] + sorted[2]);
        assert!(Arc::ptr_eq(
            &p,
            &built.columnar(&db, "a", &ids[0], ItemFields::ALL).unwrap()
        ));
        assert!(!Arc::ptr_eq(
            &q,
            &built.columnar(&db, "a", &ids[1], ItemFields::ALL).unwrap()
        ));
    }

    #[test]
    fn a_body_over_the_budget_is_served_and_not_kept() {
        let (_dir, db) = db();
        let id = board(&db, "a", "B", 50);
        let built = BuiltBoards::new(16);
        let body = built.columnar(&db, "a", &id, ItemFields::ALL).unwrap();
        assert_eq!(
            body.body.expanded().unwrap(),
            columnar_board(&db, "a", &id, ItemFields::ALL).unwrap().body
        );
        assert_eq!(built.bytes(), 0);
    }
}

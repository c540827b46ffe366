//! Many boards' columns forms with one dictionary per values key, shared by
//! all of them.
//!
//! A dashboard's boards mostly share their columns and the values in them:
//! the same statuses, people, sprints and, spread over the boards, the same
//! numbers. Each board's own body carries its own dictionary of each, so a
//! client reading fifty boards parsed fifty copies of the same values and
//! then decided fifty times what each of them means (its number, its day,
//! its chart bucket). Here the dictionaries go first, once, in a line of
//! their own, and each board's values columns carry only their codes into
//! them:
//!
//! ```text
//! {"dicts": {"<key>": [raw JSON, ..], ..}}
//! {"board": {..}, "items": {"count": N, <fields as in the board's body>,
//!                           "values": {"<key>": {"codes": CODES}}}}
//! ```
//!
//! A board's fields other than `values` are copied from its body as they are;
//! only the values columns' codes are renumbered, and written as the read
//! asks ([`Codes`]), as wide as the shared dictionary needs. The shared
//! dictionary of a key holds each distinct stored value once (compared by
//! its stored text, as each board's dictionary does), in the order the
//! boards first use it. A key whose boards hold values mostly their own
//! keeps each board's own dictionary (`{"dict", "codes"}` as before) and is
//! not in the first line: a client lays out each board's tables by the
//! dictionary it reads, and a shared one many times a board's own would
//! cost every board more than sharing saves.

use std::collections::BTreeMap;

use foldhash::HashMap;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::columnar::{Codes, comma, write_codes};
use crate::error::{BoardsError, Result};
use crate::full::push_str;
use crate::model::CodeList;

/// A board's columns-form body, as far as sharing its dictionaries reads it.
#[derive(Deserialize)]
struct Body<'a> {
    #[serde(borrow)]
    board: &'a RawValue,
    /// Each item field as written: `values` is read apart, the others are
    /// copied as they are.
    #[serde(borrow)]
    items: BTreeMap<&'a str, &'a RawValue>,
}

#[derive(Deserialize)]
struct Column<'a> {
    #[serde(borrow)]
    dict: Vec<&'a RawValue>,
    codes: CodeList,
}

/// One values key's dictionary across the boards: each distinct value's
/// shared code, the values in code order, and the largest of the boards' own
/// dictionaries of the key.
#[derive(Default)]
struct Shared<'a> {
    code_of: HashMap<&'a str, u32>,
    values: Vec<&'a RawValue>,
    largest_own: usize,
}

impl<'a> Shared<'a> {
    fn code(&mut self, value: &'a RawValue) -> Result<u32> {
        if let Some(&code) = self.code_of.get(value.get()) {
            return Ok(code);
        }
        let code = u32::try_from(self.values.len())
            .map_err(|_| kept_body("a shared dictionary outgrew its codes"))?;
        self.code_of.insert(value.get(), code);
        self.values.push(value);
        Ok(code)
    }

    /// Whether the boards are better served by this dictionary than by
    /// their own. A client decides once per shared entry, but it lays out
    /// each board's tables by the dictionary it reads: boards that repeat
    /// each other's values (statuses, people, sprints, a range of numbers)
    /// share them; boards of values all their own (ids, measurements) would
    /// each read a dictionary many times theirs, so they keep their own.
    fn pays(&self) -> bool {
        self.values.len() <= (SHARED_GROWTH * self.largest_own).max(SHARED_ALWAYS)
    }
}

/// A shared dictionary is used while it is at most this many times the
/// largest board's own dictionary of its key...
const SHARED_GROWTH: usize = 4;
/// ...or this small, whatever the boards' own.
const SHARED_ALWAYS: usize = 256;

/// The boards' bodies with shared dictionaries: the dictionaries' line and
/// each board's body, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedDicts {
    /// `{"dicts": {..}}`, without a newline.
    pub dicts: Vec<u8>,
    /// Each board's body, the values columns of a shared key holding only
    /// their codes into `dicts`.
    pub bodies: Vec<Vec<u8>>,
}

fn kept_body(why: &str) -> BoardsError {
    BoardsError::KeptBody(why.to_owned())
}

/// One board's values column of a key: as written, for a key that keeps
/// its boards' own dictionaries, and what renumbering it into the shared
/// dictionary of its key reads.
struct OwnColumn<'a> {
    raw: &'a RawValue,
    codes: CodeList,
    dict_len: usize,
    /// Each entry of the board's own dictionary's code in the shared one.
    to_shared: Vec<u32>,
}

/// `bodies` (each a board's columns-form body as [`crate::columnar_board`]
/// built it) with one dictionary per values key where sharing pays
/// ([`Shared::pays`]), their codes written as `codes` asks. A key whose
/// dictionary is not shared keeps each board's column as its body had it.
pub fn share_dicts(bodies: &[&[u8]], codes: Codes) -> Result<SharedDicts> {
    let parsed = bodies
        .iter()
        .map(|body| serde_json::from_slice::<Body<'_>>(body))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| kept_body(&e.to_string()))?;
    let values = parsed
        .iter()
        .map(|body| {
            body.items
                .get("values")
                .copied()
                .map(|raw| serde_json::from_str::<BTreeMap<String, &RawValue>>(raw.get()))
                .transpose()
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| kept_body(&e.to_string()))?;

    let mut shared: BTreeMap<&str, Shared<'_>> = BTreeMap::new();
    let mut columns: Vec<Vec<(&str, OwnColumn<'_>)>> = Vec::with_capacity(parsed.len());
    for board_values in &values {
        let mut own = Vec::new();
        for (key, &raw) in board_values.iter().flatten() {
            let column: Column<'_> =
                serde_json::from_str(raw.get()).map_err(|e| kept_body(&e.to_string()))?;
            let dict = shared.entry(key.as_str()).or_default();
            dict.largest_own = dict.largest_own.max(column.dict.len());
            let to_shared = column
                .dict
                .iter()
                .map(|&value| dict.code(value))
                .collect::<Result<Vec<_>>>()?;
            own.push((
                key.as_str(),
                OwnColumn {
                    raw,
                    codes: column.codes,
                    dict_len: column.dict.len(),
                    to_shared,
                },
            ));
        }
        columns.push(own);
    }
    shared.retain(|_, dict| dict.pays());

    let mut dicts = Vec::from(&b"{\"dicts\":{"[..]);
    for (i, (key, dict)) in shared.iter().enumerate() {
        comma(&mut dicts, i);
        push_str(&mut dicts, key);
        write_list(&mut dicts, &dict.values);
    }
    dicts.extend_from_slice(b"}}");

    let bodies = parsed
        .iter()
        .zip(&columns)
        .map(|(body, own)| {
            let mut out = Vec::with_capacity(16 * 1024);
            out.extend_from_slice(b"{\"board\":");
            out.extend_from_slice(body.board.get().as_bytes());
            out.extend_from_slice(b",\"items\":{");
            for (i, (&field, raw)) in body.items.iter().enumerate() {
                comma(&mut out, i);
                push_str(&mut out, field);
                out.push(b':');
                if field == "values" {
                    write_values(&mut out, own, &shared, codes)?;
                } else {
                    out.extend_from_slice(raw.get().as_bytes());
                }
            }
            out.extend_from_slice(b"}}");
            Ok(out)
        })
        .collect::<Result<_>>()?;
    Ok(SharedDicts { dicts, bodies })
}

/// A board's `values`: the columns of a shared key as their codes into it,
/// the others as the board's body had them.
fn write_values(
    out: &mut Vec<u8>,
    columns: &[(&str, OwnColumn<'_>)],
    shared: &BTreeMap<&str, Shared<'_>>,
    codes: Codes,
) -> Result<()> {
    out.push(b'{');
    for (i, (key, column)) in columns.iter().enumerate() {
        comma(out, i);
        push_str(out, key);
        out.push(b':');
        let Some(dict) = shared.get(key) else {
            out.extend_from_slice(column.raw.get().as_bytes());
            continue;
        };
        let renumbered = column
            .codes
            .decode(column.dict_len)
            .ok_or_else(|| kept_body("codes that are not a packed list"))?
            .into_iter()
            .map(|code| match usize::try_from(code) {
                Err(_) => Ok(-1),
                Ok(at) => column
                    .to_shared
                    .get(at)
                    .map(|&code| i64::from(code))
                    .ok_or_else(|| kept_body("a code past its dictionary")),
            })
            .collect::<Result<Vec<_>>>()?;
        out.extend_from_slice(b"{\"codes\":");
        write_codes(out, renumbered.into_iter(), dict.values.len(), codes);
        out.push(b'}');
    }
    out.push(b'}');
    Ok(())
}

/// `:[v,v,..]`: raw values as a JSON array, after the colon of their key.
fn write_list(out: &mut Vec<u8>, values: &[&RawValue]) {
    out.extend_from_slice(b":[");
    for (j, value) in values.iter().enumerate() {
        comma(out, j);
        out.extend_from_slice(value.get().as_bytes());
    }
    out.push(b']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// A board body as the columns read writes it, of these values columns.
    fn body(values: &[(&str, &str, &[i32])]) -> Vec<u8> {
        let count = values.first().map_or(0, |(_, _, codes)| codes.len());
        let values: Vec<String> = values
            .iter()
            .map(|(key, dict, codes)| format!("\"{key}\":{{\"dict\":{dict},\"codes\":{codes:?}}}"))
            .collect();
        format!(
            "{{\"board\":{{\"id\":\"b\",\"workspaceId\":\"w\",\"name\":\"B\",\"columns\":[],\"groups\":[]}},\
             \"items\":{{\"count\":{count},\"groupId\":{{\"dict\":[\"g\"],\"codes\":[{}]}},\"values\":{{{}}}}}}}",
            vec!["0"; count].join(","),
            values.join(",")
        )
        .into_bytes()
    }

    /// Each item's value of `key` in a shared body, read back through the
    /// shared dictionary: what the board's own body said.
    fn cells(dicts: &Value, body: &[u8], key: &str) -> Vec<Option<Value>> {
        let body: Value = serde_json::from_slice(body).unwrap();
        let column = &body["items"]["values"][key];
        let dict = dicts["dicts"][key].as_array().unwrap().clone();
        let codes: CodeList = serde_json::from_value(column["codes"].clone()).unwrap();
        codes
            .decode(dict.len())
            .unwrap()
            .into_iter()
            .map(|code| usize::try_from(code).ok().map(|at| dict[at].clone()))
            .collect()
    }

    #[test]
    fn every_item_keeps_its_value_and_each_value_is_sent_once() {
        let a = body(&[
            ("status", r#"["Done","Stuck"]"#, &[0, 1, -1]),
            ("n", "[5,1.5]", &[1, 0, 0]),
        ]);
        let b = body(&[
            ("status", r#"["Stuck","To do"]"#, &[1, 0]),
            ("owner", r#"[["m1"]]"#, &[0, -1]),
        ]);
        let shared = share_dicts(&[&a, &b], Codes::Numbers).unwrap();
        let dicts: Value = serde_json::from_slice(&shared.dicts).unwrap();
        assert_eq!(
            dicts["dicts"]["status"],
            serde_json::json!(["Done", "Stuck", "To do"])
        );
        assert_eq!(dicts["dicts"]["owner"], serde_json::json!([["m1"]]));
        let s = |v: &str| Some(Value::from(v));
        assert_eq!(
            cells(&dicts, &shared.bodies[0], "status"),
            vec![s("Done"), s("Stuck"), None]
        );
        assert_eq!(
            cells(&dicts, &shared.bodies[1], "status"),
            vec![s("To do"), s("Stuck")]
        );
        assert_eq!(
            cells(&dicts, &shared.bodies[0], "n"),
            vec![
                Some(Value::from(1.5)),
                Some(Value::from(5)),
                Some(Value::from(5))
            ]
        );
        assert_eq!(
            cells(&dicts, &shared.bodies[1], "owner"),
            vec![Some(serde_json::json!(["m1"])), None]
        );
        // A board's other fields are its own body's, as they were.
        let board: Value = serde_json::from_slice(&shared.bodies[1]).unwrap();
        assert_eq!(
            board["items"]["groupId"],
            serde_json::json!({"dict": ["g"], "codes": [0, 0]})
        );
        assert_eq!(board["board"]["name"], "B");
        assert!(board["items"]["values"].get("n").is_none());
    }

    #[test]
    fn packed_codes_are_as_wide_as_the_shared_dictionary_needs() {
        let wide: Vec<String> = (0..200).map(|n| n.to_string()).collect();
        let other: Vec<String> = (200..300).map(|n| n.to_string()).collect();
        let a = body(&[("n", &format!("[{}]", wide.join(",")), &[199, 0])]);
        let b = body(&[("n", &format!("[{}]", other.join(",")), &[99, -1])]);
        let shared = share_dicts(&[&a, &b], Codes::Base64).unwrap();
        let dicts: Value = serde_json::from_slice(&shared.dicts).unwrap();
        assert_eq!(dicts["dicts"]["n"].as_array().unwrap().len(), 300);
        let column: Value = serde_json::from_slice(&shared.bodies[1]).unwrap();
        let text = column["items"]["values"]["n"]["codes"].as_str().unwrap();
        use base64::Engine as _;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text)
            .unwrap();
        assert_eq!(
            bytes,
            vec![44, 1, 0, 0],
            "code 299 + 1 and no value, two bytes each"
        );
        assert_eq!(
            cells(&dicts, &shared.bodies[0], "n")[0],
            Some(Value::from(199))
        );
    }

    #[test]
    fn a_key_whose_boards_hold_values_of_their_own_keeps_their_own_dictionaries() {
        // Five boards of 100 numbers each, none on two boards, and one status they all hold.
        let bodies: Vec<Vec<u8>> = (0..5)
            .map(|b| {
                let own: Vec<String> = (0..100).map(|n| (b * 1000 + n).to_string()).collect();
                let codes: Vec<i32> = (0..100).collect();
                body(&[
                    ("n", &format!("[{}]", own.join(",")), &codes),
                    ("s", r#"["Done"]"#, &[0; 100]),
                ])
            })
            .collect();
        let slices: Vec<&[u8]> = bodies.iter().map(Vec::as_slice).collect();
        let shared = share_dicts(&slices, Codes::Base64).unwrap();
        let dicts: Value = serde_json::from_slice(&shared.dicts).unwrap();
        assert_eq!(dicts, serde_json::json!({"dicts": {"s": ["Done"]}}));
        for (own, body) in bodies.iter().zip(&shared.bodies) {
            let own: Value = serde_json::from_slice(own).unwrap();
            let body: Value = serde_json::from_slice(body).unwrap();
            let column = &body["items"]["values"]["n"];
            assert_eq!(column["dict"], own["items"]["values"]["n"]["dict"]);
            let codes: CodeList = serde_json::from_value(column["codes"].clone()).unwrap();
            assert_eq!(codes.decode(100).unwrap(), (0..100).collect::<Vec<i64>>());
            assert!(body["items"]["values"]["s"].get("dict").is_none());
        }
    }

    #[test]
    fn a_body_that_is_not_a_columns_form_is_refused() {
        let good = body(&[("n", "[1]", &[0])]);
        for bad in [
            &b"{}"[..],
            b"not json",
            br#"{"board":{},"items":{"count":1,"values":{"n":{"dict":[1],"codes":[3]}}}}"#,
        ] {
            let error = share_dicts(&[&good, bad], Codes::Numbers).unwrap_err();
            assert!(matches!(error, BoardsError::KeptBody(_)), "{error:?}");
        }
    }
}

//! The project-board module over HTTP: every route refuses another account's
//! ids exactly as it refuses ids that do not exist, the full read revalidates
//! and compresses in both its representations (chosen by `Accept`), batches
//! are all or nothing, and the CLI exports and imports boards.

mod common;

use common::{Reply, TestServer, request};
use serde_json::{Value, json};

struct Fixture {
    workspace: String,
    board: String,
    item: String,
    member: String,
}

fn owner_fixture(server: &TestServer) -> Fixture {
    let workspace = server
        .call("POST", "/workspaces", Some(&json!({"name": "Acme"})))
        .json()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let member = server.call(
        "POST",
        "/members",
        Some(&json!({"name": "Ada", "email": "ada@example.com"})),
    );
    assert_eq!(member.status, 201, "{}", member.text());
    let member = member.json()["id"].as_str().unwrap().to_owned();
    let board = server.call(
        "POST",
        "/boards",
        Some(&json!({
            "workspaceId": workspace,
            "name": "Roadmap",
            "columns": [
                {"id": "status", "title": "Status", "type": "status",
                 "settings": {"labels": [{"name": "Working on it"}, {"name": "Done", "done": true}]}},
                {"id": "owner", "title": "Owner", "type": "people"},
                {"id": "budget", "title": "Budget", "type": "number", "settings": {"unit": "$", "unitPosition": "left"}},
                {"id": "due", "title": "Due", "type": "date"}
            ],
            "groups": [{"id": "g1", "title": "Now"}]
        })),
    );
    assert_eq!(board.status, 201, "{}", board.text());
    let board = board.json()["id"].as_str().unwrap().to_owned();
    let item = server.call(
        "POST",
        &format!("/boards/{board}/items"),
        Some(&json!({"groupId": "g1", "name": "Ship it", "values": {"status": "Done", "owner": [member], "budget": 1200}})),
    );
    assert_eq!(item.status, 201, "{}", item.text());
    Fixture {
        workspace,
        board,
        item: item.json()["id"].as_str().unwrap().to_owned(),
        member,
    }
}

/// Every route that takes an id, with the body it needs.
fn id_routes(f: &Fixture) -> Vec<(&'static str, String, Option<Value>)> {
    let (w, b, i, m) = (&f.workspace, &f.board, &f.item, &f.member);
    vec![
        (
            "PATCH",
            format!("/workspaces/{w}"),
            Some(json!({"name": "x"})),
        ),
        ("DELETE", format!("/workspaces/{w}"), None),
        ("PATCH", format!("/members/{m}"), Some(json!({"name": "x"}))),
        ("DELETE", format!("/members/{m}"), None),
        ("GET", format!("/boards?workspaceId={w}"), None),
        (
            "POST",
            "/boards".to_owned(),
            Some(
                json!({"workspaceId": w, "name": "x", "columns": [{"title": "t", "type": "text"}]}),
            ),
        ),
        ("GET", format!("/boards/{b}"), None),
        ("PATCH", format!("/boards/{b}"), Some(json!({"name": "x"}))),
        ("DELETE", format!("/boards/{b}"), None),
        ("GET", format!("/boards/{b}/full"), None),
        (
            "POST",
            format!("/boards/{b}/columns"),
            Some(json!({"title": "t", "type": "text"})),
        ),
        (
            "POST",
            format!("/boards/{b}/columns/reorder"),
            Some(json!({"ids": ["status"]})),
        ),
        (
            "PATCH",
            format!("/boards/{b}/columns/status"),
            Some(json!({"title": "x"})),
        ),
        ("DELETE", format!("/boards/{b}/columns/status"), None),
        (
            "POST",
            format!("/boards/{b}/groups"),
            Some(json!({"title": "t"})),
        ),
        (
            "POST",
            format!("/boards/{b}/groups/reorder"),
            Some(json!({"ids": ["g1"]})),
        ),
        (
            "PATCH",
            format!("/boards/{b}/groups/g1"),
            Some(json!({"title": "x"})),
        ),
        ("DELETE", format!("/boards/{b}/groups/g1"), None),
        (
            "POST",
            format!("/boards/{b}/items"),
            Some(json!({"groupId": "g1", "name": "x"})),
        ),
        (
            "POST",
            format!("/boards/{b}/items/batch"),
            Some(json!({"items": [{"groupId": "g1", "name": "x"}]})),
        ),
        ("GET", format!("/items/{i}"), None),
        ("PATCH", format!("/items/{i}"), Some(json!({"name": "x"}))),
        ("DELETE", format!("/items/{i}"), None),
        (
            "POST",
            format!("/items/{i}/move"),
            Some(json!({"groupId": "g1"})),
        ),
    ]
}

fn random_ids() -> Fixture {
    let fake = || "ffffffffffffffffffffffffffffffff".to_owned();
    Fixture {
        workspace: fake(),
        board: fake(),
        item: fake(),
        member: fake(),
    }
}

#[test]
fn another_accounts_ids_answer_exactly_like_missing_ones_and_change_nothing() {
    let server = TestServer::start();
    let fixture = owner_fixture(&server);
    let before = server
        .call("GET", &format!("/boards/{}/full", fixture.board), None)
        .body;
    let other = server
        .call("POST", "/accounts", Some(&json!({"name": "intruder"})))
        .json()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    // The intruder has a workspace of its own, so "missing" is not "no data".
    server.call_as(
        &other,
        "POST",
        "/workspaces",
        Some(&json!({"name": "Mine"})),
    );

    let missing = random_ids();
    for ((method, path, body), (_, missing_path, _)) in
        id_routes(&fixture).into_iter().zip(id_routes(&missing))
    {
        let theirs: Reply = server.call_as(&other, method, &path, body.as_ref());
        let absent: Reply = server.call_as(&other, method, &missing_path, body.as_ref());
        assert_eq!(theirs.status, 404, "{method} {path}: {}", theirs.text());
        assert_eq!(
            theirs.body, absent.body,
            "{method} {path} differs from a missing id"
        );
        assert_eq!(theirs.error_code(), "not_found");
    }
    let after = server
        .call("GET", &format!("/boards/{}/full", fixture.board), None)
        .body;
    assert_eq!(before, after, "the intruder changed the board");
    // The fixture's member and the owner's own; the intruder sees only theirs.
    let members = server.call("GET", "/members", None).json();
    assert_eq!(members.as_array().unwrap().len(), 2);
    let theirs = server.call_as(&other, "GET", "/members", None).json();
    assert_eq!(theirs.as_array().unwrap().len(), 1, "{theirs}");
    assert_eq!(theirs[0]["self"], true);
}

#[test]
fn a_kept_body_is_never_another_accounts_in_either_full_read() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let intruder = server
        .call("POST", "/accounts", Some(&json!({"name": "intruder"})))
        .json()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let missing = random_ids().board;
    // The columns form in zstd: the kept bytes as they are, were they handed out.
    let read = |token: &str, path: &str| {
        let auth = format!("Bearer {token}");
        request(
            server.control(),
            "GET",
            path,
            &[
                ("Authorization", auth.as_str()),
                ("Accept", COLUMNS),
                ("Accept-Encoding", "zstd"),
            ],
            None,
        )
    };
    let alone = |board: &str| format!("/boards/{board}/full");
    let together = |board: &str| format!("/boards/full?ids={board}");
    // The owner's reads leave the board's built body kept, for both reads.
    assert_eq!(read(&server.token, &alone(&f.board)).status, 200);
    assert_eq!(read(&server.token, &together(&f.board)).status, 200);

    let theirs = read(&intruder, &alone(&f.board));
    let absent = read(&intruder, &alone(&missing));
    assert_eq!(theirs.status, 404, "{}", theirs.text());
    assert_eq!(theirs.body, absent.body);
    let line = |board: &str| {
        let reply = read(&intruder, &together(board));
        assert_eq!(reply.status, 200, "{}", reply.text());
        let text = String::from_utf8(zstd::decode_all(reply.body.as_slice()).unwrap()).unwrap();
        serde_json::from_str::<Value>(text.trim_end()).unwrap()
    };
    let (theirs, absent) = (line(&f.board), line(&missing));
    assert_eq!(theirs["id"], json!(f.board));
    assert_eq!(theirs["error"], absent["error"]);
    assert_eq!(theirs["error"]["code"], json!("not_found"));
    assert!(theirs.get("body").is_none(), "{theirs}");
}

#[test]
fn full_read_has_the_contract_shape_an_etag_and_compression() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let path = format!("/boards/{}/full", f.board);
    let full = server.call("GET", &path, None);
    assert_eq!(full.status, 200);
    let body = full.json();
    assert_eq!(body["board"]["id"], f.board);
    assert_eq!(body["board"]["workspaceId"], f.workspace);
    assert_eq!(body["board"]["columns"].as_array().unwrap().len(), 4);
    let item = &body["items"][0];
    for field in ["id", "groupId", "name", "values", "createdAt", "updatedAt"] {
        assert!(item.get(field).is_some(), "item lacks {field}");
    }
    assert_eq!(item["values"]["budget"], 1200);
    let etag = full.header("etag").unwrap().to_owned();

    let auth = format!("Bearer {}", server.token);
    let cached = request(
        server.control(),
        "GET",
        &path,
        &[("Authorization", &auth), ("If-None-Match", &etag)],
        None,
    );
    assert_eq!(cached.status, 304);
    assert!(cached.body.is_empty());

    let gzip = request(
        server.control(),
        "GET",
        &path,
        &[("Authorization", &auth), ("Accept-Encoding", "gzip")],
        None,
    );
    assert_eq!(gzip.header("content-encoding"), Some("gzip"));

    server.call(
        "PATCH",
        &format!("/items/{}", f.item),
        Some(&json!({"values": {"budget": 5}})),
    );
    let changed = request(
        server.control(),
        "GET",
        &path,
        &[("Authorization", &auth), ("If-None-Match", &etag)],
        None,
    );
    assert_eq!(changed.status, 200);
    assert_ne!(changed.header("etag").unwrap(), etag);
}

const COLUMNS: &str = "application/vnd.switchboard.columns+json";

fn gunzip(packed: &[u8]) -> Vec<u8> {
    let mut unpacked = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(packed), &mut unpacked).unwrap();
    unpacked
}

/// Whether any of the reply's `Vary` headers names `header`.
fn varies_on(reply: &Reply, header: &str) -> bool {
    reply
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("vary"))
        .flat_map(|(_, v)| v.split(','))
        .any(|v| v.trim().eq_ignore_ascii_case(header))
}

#[test]
fn accept_chooses_the_json_or_the_columns_form_of_the_full_read() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let batch: Vec<Value> = (0..30)
        .map(|i| json!({"name": format!("Task \"{i}\" \\ 😀"), "values": {"status": "Done", "budget": i % 3}}))
        .collect();
    let created = server.call(
        "POST",
        &format!("/boards/{}/items/batch", f.board),
        Some(&json!({"items": batch})),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    // What the boards module itself reads, to compare the replies with.
    let account = server.call("GET", "/me", None).json()["accountId"]
        .as_str()
        .unwrap()
        .to_owned();
    let db = store::Db::open(&server.data_dir().join("switchboard.db")).unwrap();
    let json_read = boards::full_board(&db, &account, &f.board).unwrap();
    let columns_read =
        boards::columnar_board(&db, &account, &f.board, boards::ItemFields::ALL).unwrap();

    let auth = format!("Bearer {}", server.token);
    let path = format!("/boards/{}/full", f.board);
    let get = |headers: &[(&str, &str)]| {
        let mut all = vec![("Authorization", auth.as_str())];
        all.extend_from_slice(headers);
        request(server.control(), "GET", &path, &all, None)
    };
    let cache_headers = |reply: &Reply, etag: &str| {
        assert_eq!(reply.header("etag"), Some(etag));
        assert_eq!(reply.header("cache-control"), Some("private, no-cache"));
        assert!(varies_on(reply, "accept"), "{:?}", reply.headers);
    };

    for accept in [
        None,
        Some("*/*"),
        Some("application/json"),
        Some("application/*"),
        Some("application/vnd.switchboard.columns+json;q=0, application/json"),
    ] {
        let reply = get(accept.map(|a| ("Accept", a)).as_slice());
        assert_eq!(reply.status, 200, "{accept:?}");
        // Byte for byte what the module's JSON read gives.
        assert_eq!(reply.body, json_read.body, "{accept:?}");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        cache_headers(&reply, &json_read.etag);
    }
    for accept in [
        COLUMNS,
        "application/vnd.switchboard.columns+json, application/json;q=0.5",
        "application/json, application/vnd.switchboard.columns+json;q=0.1",
    ] {
        let reply = get(&[("Accept", accept)]);
        assert_eq!(reply.status, 200, "{accept}");
        assert_eq!(reply.body, columns_read.body, "{accept}");
        assert_eq!(reply.header("content-type"), Some(COLUMNS));
        cache_headers(&reply, &columns_read.etag);
    }
    let decoded: boards::ColumnsBoardBody = serde_json::from_slice(&columns_read.body).unwrap();
    assert_eq!(decoded.items.count, 31);
    assert!(columns_read.body.len() < json_read.body.len());
    assert_ne!(columns_read.etag, json_read.etag);

    // Each representation revalidates with its own ETag, and only with it.
    let columns_304 = get(&[("Accept", COLUMNS), ("If-None-Match", &columns_read.etag)]);
    assert_eq!(columns_304.status, 304);
    assert!(columns_304.body.is_empty());
    cache_headers(&columns_304, &columns_read.etag);
    let json_304 = get(&[("If-None-Match", &json_read.etag)]);
    assert_eq!(json_304.status, 304);
    cache_headers(&json_304, &json_read.etag);
    let crossed = get(&[("Accept", COLUMNS), ("If-None-Match", &json_read.etag)]);
    assert_eq!(crossed.status, 200);
    assert_eq!(crossed.body, columns_read.body);
    let crossed = get(&[("If-None-Match", &columns_read.etag)]);
    assert_eq!(crossed.status, 200);
    assert_eq!(crossed.body, json_read.body);

    // The kept zstd bytes for a client that takes zstd; the compression
    // layer's gzip or br for another.
    for encoding in ["gzip", "br", "zstd", "gzip, deflate, br, zstd"] {
        let reply = get(&[("Accept", COLUMNS), ("Accept-Encoding", encoding)]);
        assert_eq!(reply.status, 200);
        let chosen = encoding.rsplit(", ").next().unwrap();
        assert_eq!(reply.header("content-encoding"), Some(chosen));
        assert_eq!(reply.header("content-type"), Some(COLUMNS));
        assert!(varies_on(&reply, "accept") && varies_on(&reply, "accept-encoding"));
        assert!(reply.body.len() < columns_read.body.len(), "{encoding}");
        if encoding == "gzip" {
            assert_eq!(gunzip(&reply.body), columns_read.body);
        }
        if chosen == "zstd" {
            assert_eq!(
                zstd::decode_all(reply.body.as_slice()).unwrap(),
                columns_read.body
            );
        }
    }

    // A change moves both ETags on.
    server.call(
        "PATCH",
        &format!("/items/{}", f.item),
        Some(&json!({"values": {"budget": 5}})),
    );
    let changed = get(&[("Accept", COLUMNS), ("If-None-Match", &columns_read.etag)]);
    assert_eq!(changed.status, 200);
    assert_ne!(changed.header("etag"), Some(columns_read.etag.as_str()));
    // Not the body kept for the old version, in either coding.
    let now = boards::columnar_board(&db, &account, &f.board, boards::ItemFields::ALL).unwrap();
    assert_eq!(changed.header("etag"), Some(now.etag.as_str()));
    assert_eq!(changed.body, now.body);
    let packed = get(&[("Accept", COLUMNS), ("Accept-Encoding", "zstd")]);
    assert_eq!(packed.header("etag"), Some(now.etag.as_str()));
    assert_eq!(zstd::decode_all(packed.body.as_slice()).unwrap(), now.body);
    let changed = get(&[("If-None-Match", &json_read.etag)]);
    assert_eq!(changed.status, 200);
    assert_ne!(changed.header("etag"), Some(json_read.etag.as_str()));
}

#[test]
fn many_boards_come_in_one_reply_a_line_each_in_the_order_asked() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let other = server.call(
        "POST",
        "/boards",
        Some(&json!({"workspaceId": f.workspace, "name": "Other \"quoted\"", "preset": "engineering-jira"})),
    );
    assert_eq!(other.status, 201, "{}", other.text());
    let other = other.json()["id"].as_str().unwrap().to_owned();
    let account = server.call("GET", "/me", None).json()["accountId"]
        .as_str()
        .unwrap()
        .to_owned();
    let db = store::Db::open(&server.data_dir().join("switchboard.db")).unwrap();
    let alone =
        |id: &str| boards::columnar_board(&db, &account, id, boards::ItemFields::ALL).unwrap();

    let auth = format!("Bearer {}", server.token);
    let get = |query: &str, headers: &[(&str, &str)]| {
        let mut all = vec![("Authorization", auth.as_str())];
        all.extend_from_slice(headers);
        request(
            server.control(),
            "GET",
            &format!("/boards/full{query}"),
            &all,
            None,
        )
    };
    let ids = format!("?ids={},nope,{other}", f.board);
    let plain = get(&ids, &[]);
    assert_eq!(plain.status, 200, "{}", plain.text());
    assert_eq!(plain.header("content-type"), Some("application/x-ndjson"));
    let lines = ndjson_lines(&plain.text());
    assert_eq!(lines.len(), 3);
    for (line, id) in [(&lines[0], &f.board), (&lines[2], &other)] {
        let read = alone(id);
        assert_eq!(line["id"], json!(id));
        assert_eq!(line["etag"], json!(read.etag));
        // The body a read of the board alone gives, as it is.
        assert_eq!(
            line["body"],
            serde_json::from_slice::<Value>(&read.body).unwrap()
        );
    }
    assert_eq!(
        lines[1],
        json!({"id": "nope", "error": {"code": "not_found", "message": "The board does not exist."}})
    );

    // zstd: the kept bodies' frames between frames of their own, which any
    // zstd decoder reads as one text; gzip from the compression layer.
    let packed = get(&ids, &[("Accept-Encoding", "gzip, deflate, br, zstd")]);
    assert_eq!(packed.header("content-encoding"), Some("zstd"));
    assert_eq!(
        zstd::decode_all(packed.body.as_slice()).unwrap(),
        plain.body
    );
    let gzipped = get(&ids, &[("Accept-Encoding", "gzip")]);
    assert_eq!(gzipped.header("content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&gzipped.body), plain.body);

    let many: Vec<String> = (0..101).map(|i| format!("b{i}")).collect();
    for query in [
        String::new(),
        "?ids=".to_owned(),
        format!("?ids={},,{other}", f.board),
        format!("?ids={other},{}", f.board) + &format!(",{other}"),
        format!("?ids={}", many.join(",")),
    ] {
        let refused = get(&query, &[]);
        assert_eq!(refused.status, 400, "{query}: {}", refused.text());
        assert_eq!(refused.json()["error"]["field"], json!("ids"), "{query}");
    }
    // A query the extractor itself refuses still gets the error shape.
    let twice = get(&format!("?ids={other}&ids={other}"), &[]);
    assert_eq!(twice.status, 400, "{}", twice.text());
    assert_eq!(twice.json()["error"]["code"], json!("invalid_request"));
}

/// The account the owner's token acts for, and the server's database, for
/// building the expected bodies beside the server.
fn owner_account_and_db(server: &TestServer) -> (String, store::Db) {
    let account = server.call("GET", "/me", None).json()["accountId"]
        .as_str()
        .unwrap()
        .to_owned();
    let db = store::Db::open(&server.data_dir().join("switchboard.db")).unwrap();
    (account, db)
}

/// A `GET` with the owner's token asking for the columns form.
fn columns_get(server: &TestServer, path: &str, headers: &[(&str, &str)]) -> Reply {
    let auth = format!("Bearer {}", server.token);
    let mut all = vec![("Authorization", auth.as_str()), ("Accept", COLUMNS)];
    all.extend_from_slice(headers);
    request(server.control(), "GET", path, &all, None)
}

/// The one line of a one-board `GET /boards/full`: `built`'s ETag and body.
fn assert_single_line_is(reply: &Reply, built: &boards::FullBoard) {
    let line: Value = serde_json::from_slice(reply.body.strip_suffix(b"\n").unwrap()).unwrap();
    assert_eq!(line["etag"], json!(built.etag));
    assert_eq!(
        line["body"],
        serde_json::from_slice::<Value>(&built.body).unwrap()
    );
}

/// Each reply is a 400 `invalid_request` naming `field`.
fn assert_refused_on(replies: impl IntoIterator<Item = (String, Reply)>, field: &str) {
    for (path, refused) in replies {
        assert_eq!(refused.status, 400, "{path}: {}", refused.text());
        assert_eq!(refused.json()["error"]["code"], json!("invalid_request"));
        assert_eq!(refused.json()["error"]["field"], json!(field), "{path}");
    }
}

#[test]
fn a_columns_read_carries_the_item_fields_asked_for() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let (account, db) = owner_account_and_db(&server);
    let fields = boards::ItemFields::parse("groupId,createdAt,values").unwrap();
    let lean = boards::columnar_board(&db, &account, &f.board, fields).unwrap();
    let whole = boards::columnar_board(&db, &account, &f.board, boards::ItemFields::ALL).unwrap();
    assert!(lean.body.len() < whole.body.len());

    let get = |path: &str, headers: &[(&str, &str)]| columns_get(&server, path, headers);
    let alone = format!("/boards/{}/full?fields=groupId,createdAt,values", f.board);
    let reply = get(&alone, &[]);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.body, lean.body);
    assert_eq!(reply.header("etag"), Some(lean.etag.as_str()));
    let packed = get(&alone, &[("Accept-Encoding", "zstd")]);
    assert_eq!(zstd::decode_all(packed.body.as_slice()).unwrap(), lean.body);
    // Each choice of fields revalidates with its own tag only.
    assert_eq!(get(&alone, &[("If-None-Match", &lean.etag)]).status, 304);
    assert_eq!(get(&alone, &[("If-None-Match", &whole.etag)]).status, 200);
    let whole_path = format!("/boards/{}/full", f.board);
    assert_eq!(
        get(&whole_path, &[("If-None-Match", &lean.etag)]).status,
        200
    );

    let together = get(
        &format!(
            "/boards/full?ids={}&fields=values,createdAt,groupId",
            f.board
        ),
        &[],
    );
    assert_single_line_is(&together, &lean);

    let refusals = [
        format!("/boards/{}/full?fields=id,colour", f.board),
        format!("/boards/{}/full?fields=", f.board),
        format!("/boards/full?ids={}&fields=name,,id", f.board),
    ];
    assert_refused_on(
        refusals.map(|path| (path.clone(), get(&path, &[]))),
        "fields",
    );
}

#[test]
fn a_columns_read_packs_its_codes_when_asked() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let (account, db) = owner_account_and_db(&server);
    let form = boards::ColumnsForm {
        fields: boards::ItemFields::parse("groupId,createdAt,values").unwrap(),
        codes: boards::Codes::Base64,
    };
    let packed = boards::columnar_board(&db, &account, &f.board, form).unwrap();
    let numbers = boards::columnar_board(&db, &account, &f.board, form.fields).unwrap();
    assert_ne!(packed.etag, numbers.etag);

    let get = |path: &str, headers: &[(&str, &str)]| columns_get(&server, path, headers);
    let fields = "fields=groupId,createdAt,values";
    let alone = format!("/boards/{}/full?{fields}&codes=base64", f.board);
    let reply = get(&alone, &[]);
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.body, packed.body);
    assert_eq!(reply.header("etag"), Some(packed.etag.as_str()));
    // Every list of codes is one string, and decodes to the numbers form's.
    let body: boards::ColumnsBoardBody = serde_json::from_slice(&reply.body).unwrap();
    let plain: boards::ColumnsBoardBody = serde_json::from_slice(&numbers.body).unwrap();
    let values = body.items.values.clone().unwrap();
    assert!(!values.is_empty());
    for (key, column) in &values {
        assert!(matches!(column.codes, boards::CodeList::Base64(_)), "{key}");
        let expected = &plain.items.values.as_ref().unwrap()[key];
        assert_eq!(
            column.codes.decode(column.dict.len()),
            expected.codes.decode(expected.dict.len()),
            "{key}"
        );
    }
    // Each form revalidates with its own tag only.
    assert_eq!(get(&alone, &[("If-None-Match", &packed.etag)]).status, 304);
    assert_eq!(get(&alone, &[("If-None-Match", &numbers.etag)]).status, 200);
    let as_numbers = format!("/boards/{}/full?{fields}&codes=numbers", f.board);
    let reply = get(&as_numbers, &[("If-None-Match", &numbers.etag)]);
    assert_eq!(reply.status, 304);

    let together = get(
        &format!("/boards/full?ids={}&{fields}&codes=base64", f.board),
        &[],
    );
    assert_single_line_is(&together, &packed);

    let refusals = [
        format!("/boards/{}/full?codes=bytes", f.board),
        format!("/boards/{}/full?codes=", f.board),
        format!("/boards/full?ids={}&codes=BASE64", f.board),
    ];
    assert_refused_on(
        refusals.map(|path| (path.clone(), get(&path, &[]))),
        "codes",
    );
}

/// A reply of JSON lines, each ended by a newline, as values.
fn ndjson_lines(text: &str) -> Vec<Value> {
    text.strip_suffix('\n')
        .expect("the reply ends with a newline")
        .split('\n')
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Each item's values, by key, as a columns body and the dictionaries it reads give them:
/// its own (`shared` none) or those of a shared-dictionaries read.
fn item_values(
    body: &Value,
    shared: Option<&Value>,
) -> Vec<std::collections::BTreeMap<String, Value>> {
    let count = body["items"]["count"].as_u64().unwrap() as usize;
    let mut items = vec![std::collections::BTreeMap::new(); count];
    for (key, column) in body["items"]["values"].as_object().unwrap() {
        let dict = match shared {
            Some(dicts) => dicts["dicts"][key].as_array().unwrap().clone(),
            None => column["dict"].as_array().unwrap().clone(),
        };
        let codes: boards::CodeList = serde_json::from_value(column["codes"].clone()).unwrap();
        let codes = codes.decode(dict.len()).unwrap();
        assert_eq!(codes.len(), count, "{key}");
        for (item, code) in items.iter_mut().zip(codes) {
            if let Ok(at) = usize::try_from(code) {
                item.insert(key.clone(), dict[at].clone());
            }
        }
    }
    items
}

#[test]
fn many_boards_share_their_dictionaries_when_asked() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let (account, db) = owner_account_and_db(&server);
    // A board of the same columns, as a dashboard's boards mostly are.
    let columns = server
        .call("GET", &format!("/boards/{}/full", f.board), None)
        .json()["board"]["columns"]
        .clone();
    let other = server.call(
        "POST",
        "/boards",
        Some(&json!({"workspaceId": f.workspace, "name": "Other", "columns": columns})),
    );
    assert_eq!(other.status, 201, "{}", other.text());
    let other = other.json()["id"].as_str().unwrap().to_owned();
    // Both boards hold "Done" and a budget of 1200: the shared dictionaries hold each once.
    for values in [
        json!({"status": "Done", "budget": 1200}),
        json!({"status": "Working on it", "budget": 7}),
    ] {
        let item = server.call(
            "POST",
            &format!("/boards/{other}/items"),
            Some(&json!({"name": "x", "values": values})),
        );
        assert_eq!(item.status, 201, "{}", item.text());
    }
    let form = boards::ColumnsForm {
        fields: boards::ItemFields::parse("groupId,createdAt,values").unwrap(),
        codes: boards::Codes::Base64,
    };
    let query = format!(
        "/boards/full?ids={},nope,{other}&fields=groupId,createdAt,values&codes=base64&dicts=shared",
        f.board
    );
    let read = |headers: &[(&str, &str)]| columns_get(&server, &query, headers);
    let plain = read(&[]);
    assert_eq!(plain.status, 200, "{}", plain.text());
    let lines = ndjson_lines(&plain.text());
    assert_eq!(lines.len(), 4);
    let dicts = &lines[0];
    assert_eq!(
        dicts["dicts"]["status"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| **v == json!("Done"))
            .count(),
        1
    );
    assert_eq!(
        dicts["dicts"]["budget"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|v| **v == json!(1200))
            .count(),
        1
    );
    for (line, id) in [(&lines[1], &f.board), (&lines[3], &other)] {
        let alone = boards::columnar_board(&db, &account, id, form).unwrap();
        let alone: Value = serde_json::from_slice(&alone.body).unwrap();
        assert_eq!(line["id"], json!(id));
        assert_eq!(
            line["etag"],
            json!(boards::columnar_etag(&db, &account, id, form).unwrap())
        );
        let body = &line["body"];
        // The board and its other fields as its own read gives them; every item's values too.
        assert_eq!(body["board"], alone["board"]);
        assert_eq!(body["items"]["groupId"], alone["items"]["groupId"]);
        assert_eq!(body["items"]["createdAt"], alone["items"]["createdAt"]);
        assert!(body["items"]["values"]["status"].get("dict").is_none());
        assert_eq!(
            item_values(body, Some(dicts)),
            item_values(&alone, None),
            "{id}"
        );
    }
    assert_eq!(lines[2]["error"]["code"], json!("not_found"));
    let packed = read(&[("Accept-Encoding", "zstd")]);
    assert_eq!(packed.header("content-encoding"), Some("zstd"));
    assert_eq!(
        zstd::decode_all(packed.body.as_slice()).unwrap(),
        plain.body
    );

    // A board changed is read as it is now, not as the kept dictionaries had it.
    let changed = server.call(
        "PATCH",
        &format!("/items/{}", f.item),
        Some(&json!({"values": {"budget": 99}})),
    );
    assert!(changed.status < 300, "{}", changed.text());
    let again = read(&[]);
    let lines = ndjson_lines(&again.text());
    assert_eq!(
        item_values(&lines[1]["body"], Some(&lines[0]))[0]["budget"],
        json!(99)
    );

    let refused = read_refused(
        &server,
        &format!("/boards/full?ids={}&dicts=SHARED", f.board),
    );
    assert_refused_on([refused], "dicts");
}

fn read_refused(server: &TestServer, path: &str) -> (String, Reply) {
    (path.to_owned(), columns_get(server, path, &[]))
}

#[test]
fn bad_values_are_refused_and_batches_are_all_or_nothing() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let items = format!("/boards/{}/items", f.board);
    for values in [
        json!({"status": "Nope"}),
        json!({"owner": ["not-a-member"]}),
        json!({"budget": "12"}),
        json!({"due": "2026-02-30"}),
        json!({"nope": 1}),
    ] {
        let reply = server.call(
            "POST",
            &items,
            Some(&json!({"groupId": "g1", "name": "x", "values": values})),
        );
        assert_eq!(reply.status, 400, "{values}: {}", reply.text());
        assert_eq!(reply.error_code(), "invalid_request");
    }
    let batch = server.call(
        "POST",
        &format!("{items}/batch"),
        Some(&json!({"items": [
            {"groupId": "g1", "name": "fine"},
            {"groupId": "g1", "name": "bad", "values": {"status": "Nope"}}
        ]})),
    );
    assert_eq!(batch.status, 400);
    assert!(batch.text().contains("items[1]"), "{}", batch.text());
    let full = server
        .call("GET", &format!("/boards/{}/full", f.board), None)
        .json();
    assert_eq!(full["items"].as_array().unwrap().len(), 1);

    let many: Vec<Value> = (0..500)
        .map(|n| json!({"groupId": "g1", "name": format!("n{n}"), "values": {"budget": n}}))
        .collect();
    let ok = server.call(
        "POST",
        &format!("{items}/batch"),
        Some(&json!({"items": many})),
    );
    assert_eq!(ok.status, 201);
    assert_eq!(ok.json()["ids"].as_array().unwrap().len(), 500);
}

/// Runs `switchboard serve --demo` on `dir` until it is up, then stops it.
fn start_once_with_demo(dir: &std::path::Path) {
    let mut child = common::serve::serve_command(dir)
        .arg("--demo")
        .spawn()
        .unwrap();
    common::serve::wait_for_server_file(dir, &child);
    common::signal(&child, "TERM");
    child.wait().unwrap();
}

#[test]
fn demo_seeding_fills_an_empty_data_dir_once() {
    let dir = tempfile::tempdir().unwrap();
    start_once_with_demo(dir.path());

    let server = TestServer::start_in(dir);
    let boards = server.call("GET", "/boards", None).json();
    let boards = boards.as_array().unwrap();
    assert!(boards.len() >= 6, "demo has {} boards", boards.len());
    for board in boards {
        let full = server
            .call(
                "GET",
                &format!("/boards/{}/full", board["id"].as_str().unwrap()),
                None,
            )
            .json();
        let count = full["items"].as_array().unwrap().len();
        assert!(
            (40..=100).contains(&count),
            "{} has {count} items",
            board["name"]
        );
    }
    // A second --demo start leaves a data dir with boards alone.
    let server = {
        let mut server = server;
        server.stop();
        let dir = std::mem::replace(&mut server.dir, tempfile::tempdir().unwrap());
        start_once_with_demo(dir.path());
        TestServer::start_in(dir)
    };
    assert_eq!(
        server
            .call("GET", "/boards", None)
            .json()
            .as_array()
            .unwrap()
            .len(),
        boards.len()
    );
}

/// `switchboard boards import FILE --workspace W --json`, which must succeed.
fn import_json(server: &TestServer, file: &std::path::Path, workspace: &str) -> Value {
    let file = file.to_str().unwrap();
    let import = server.cli(&["boards", "import", file, "--workspace", workspace, "--json"]);
    assert!(
        import.status.success(),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );
    serde_json::from_slice(&import.stdout).unwrap()
}

#[test]
fn the_cli_exports_and_imports_boards() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let run = |args: &[&str]| server.cli(args);
    let out = server.data_dir().join("export.json");
    let export = run(&["boards", "export", &f.board, "--out", out.to_str().unwrap()]);
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    let unwritable = server.data_dir().join("no-such-dir").join("export.json");
    let failed = run(&[
        "boards",
        "export",
        &f.board,
        "--out",
        unwritable.to_str().unwrap(),
    ]);
    assert!(
        !failed.status.success(),
        "an export that was not written must fail"
    );
    assert!(String::from_utf8_lossy(&failed.stderr).contains("cannot write"));
    let report = import_json(&server, &out, &f.workspace);
    let copy = report["board"]["id"].as_str().unwrap();
    assert_ne!(copy, f.board);
    let full = server
        .call("GET", &format!("/boards/{copy}/full"), None)
        .json();
    assert_eq!(full["items"][0]["values"]["budget"], 1200);

    let csv = server.data_dir().join("tasks.csv");
    std::fs::write(&csv, "Name,Estimate,Due,State\nA,3,2026-01-05,Done\nB,5,2026-01-06,Open\nC,1,2026-01-07,Open\nD,2,2026-01-08,Done\n").unwrap();
    let report = import_json(&server, &csv, &f.workspace);
    assert_eq!(report["rows"], 4);
    let types: Vec<&str> = report["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["number", "date", "status"]);

    std::fs::write(&csv, "Name,Due\nA,2026-01-05\nB,2026-01-06,extra\n").unwrap();
    let refused = run(&[
        "boards",
        "import",
        csv.to_str().unwrap(),
        "--workspace",
        &f.workspace,
    ]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("line 3"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

/// An import the server refuses part-way (after a first full batch was
/// stored) reports the server's code, names the item in the whole file, and
/// leaves no board behind; so does one into a workspace that is not there.
/// One that succeeds records no item events.
#[test]
fn a_refused_import_reports_the_servers_code_and_leaves_nothing_behind() {
    let server = TestServer::start();
    let f = owner_fixture(&server);
    let boards_now = || {
        server
            .call("GET", &format!("/boards?workspaceId={}", f.workspace), None)
            .json()
            .as_array()
            .unwrap()
            .len()
    };
    let before = boards_now();
    let events_before = server.call("GET", "/events", None).json();
    let export = |bad_at: Option<usize>| {
        let items: Vec<Value> = (0..10_005)
            .map(|i| {
                let status = if Some(i) == bad_at { "Nope" } else { "Done" };
                json!({"groupId": "g1", "name": format!("item {i}"),
                       "values": {"status": status, "owner": [f.member]}})
            })
            .collect();
        json!({"board": {"name": "Big", "groups": [{"id": "g1", "title": "Now"}],
                         "columns": [{"id": "status", "title": "Status", "type": "status",
                                      "settings": {"labels": [{"name": "Done", "done": true}]}},
                                     {"id": "owner", "title": "Owner", "type": "people"}]},
               "items": items})
    };
    let file = server.data_dir().join("big.json");
    std::fs::write(&file, export(Some(10_003)).to_string()).unwrap();
    let path = file.to_str().unwrap();
    let refused = server.cli(&[
        "boards",
        "import",
        path,
        "--workspace",
        &f.workspace,
        "--json",
    ]);
    assert!(!refused.status.success());
    let reply: Value = serde_json::from_slice(&refused.stdout).unwrap();
    assert_eq!(reply["error"]["code"], "invalid_request", "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("items[10003]: "), "{message}");
    assert_eq!(boards_now(), before, "a refused import left a board");

    let missing = server.cli(&["boards", "import", path, "--workspace", "no-such-workspace"]);
    assert!(!missing.status.success());
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("(not_found, HTTP 404)"), "{stderr}");
    assert_eq!(boards_now(), before);

    std::fs::write(&file, export(None).to_string()).unwrap();
    let report = import_json(&server, &file, &f.workspace);
    assert_eq!(report["items"], 10_005);
    assert_eq!(report["droppedMembers"], json!([]));
    let copy = report["board"]["id"].as_str().unwrap();
    let full = server
        .call("GET", &format!("/boards/{copy}/full"), None)
        .json();
    assert_eq!(full["items"].as_array().unwrap().len(), 10_005);
    assert_eq!(full["items"][10_004]["name"], "item 10004");
    assert_eq!(boards_now(), before + 1);
    assert_eq!(
        server.call("GET", "/events", None).json(),
        events_before,
        "an import is not a change anyone is notified about"
    );

    // A CSV holding only names makes a board without columns.
    std::fs::write(&file, "Name\none\ntwo\n").unwrap();
    let csv = server.data_dir().join("names.csv");
    std::fs::rename(&file, &csv).unwrap();
    let report = import_json(&server, &csv, &f.workspace);
    assert_eq!(report["rows"], 2);
    assert_eq!(report["board"]["columns"], json!([]));
}

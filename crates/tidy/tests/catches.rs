//! Each structural check of the `tidy` library, run on a small tree written
//! for the purpose, fails on the one thing that tree gets wrong (and passes
//! once it is put right): a check that cannot fail would pass the real tree
//! whatever it held.

use tidy::cycles::file_cycles;
use tidy::layers::{background_work_in_server, who_knows_what};

/// Writes `files` (path, text) below a fresh folder.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = root.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    root
}

fn manifest(name: &str, dependencies: &str) -> String {
    format!("[package]\nname = \"{name}\"\n\n[dependencies]\n{dependencies}\n")
}

#[test]
fn a_background_loop_added_to_the_server_is_caught() {
    let lib = "//! The server.\npub async fn start() {\n    tokio::spawn(async {\n        loop {}\n    });\n}\n";
    let root = tree(&[
        ("crates/server/Cargo.toml", &manifest("server", "")),
        ("crates/server/src/lib.rs", lib),
    ]);
    assert_eq!(
        background_work_in_server(root.path()),
        ["crates/server/src/lib.rs:3: tokio::spawn(async {"]
    );

    let thread = "//! The server.\npub fn start() {\n    std::thread::spawn(|| loop {});\n}\n";
    let root = tree(&[("crates/server/src/lib.rs", thread)]);
    assert_eq!(background_work_in_server(root.path()).len(), 1);

    // A handler named `spawn`, a request's own blocking call, and a test's
    // task are not background work.
    let fine = "//! The server.\nasync fn spawn() {\n    tokio::task::spawn_blocking(|| ()).await;\n    state.sessions.spawn(request).await;\n}\n#[cfg(test)]\nmod tests {\n    fn t() { tokio::spawn(async {}); }\n}\n";
    let root = tree(&[("crates/server/src/lib.rs", fine)]);
    assert!(background_work_in_server(root.path()).is_empty());
}

#[test]
fn axum_in_the_application_layer_is_caught() {
    let app = "//! The application.\npub fn nothing() {}\n";
    let root = tree(&[
        ("crates/app/Cargo.toml", &manifest("app", "axum = \"0.8\"")),
        ("crates/app/src/lib.rs", app),
    ]);
    assert_eq!(who_knows_what(root.path()), ["crates/app depends on axum"]);

    // Named in the code through a re-export of another crate: caught too.
    let sneaky = "//! The application.\nuse server::axum::Router;\n";
    let root = tree(&[
        (
            "crates/app/Cargo.toml",
            &manifest("app", "server = { path = \"../server\" }"),
        ),
        ("crates/app/src/lib.rs", sneaky),
    ]);
    assert_eq!(
        who_knows_what(root.path()),
        ["crates/app names axum:: in its code"]
    );

    let root = tree(&[
        ("crates/app/Cargo.toml", &manifest("app", "tokio = \"1\"")),
        ("crates/app/src/lib.rs", app),
        (
            "crates/server/Cargo.toml",
            &manifest("server", "axum = \"0.8\"\napp = { path = \"../app\" }"),
        ),
        (
            "crates/server/src/lib.rs",
            "//! The server.\nuse axum::Router;\n",
        ),
    ]);
    assert!(who_knows_what(root.path()).is_empty());
}

#[test]
fn a_domain_crate_that_depends_on_a_layer_above_it_is_caught() {
    let root = tree(&[
        (
            "crates/boards/Cargo.toml",
            &manifest("boards", "app = { path = \"../app\" }"),
        ),
        ("crates/boards/src/lib.rs", "//! Boards.\n"),
    ]);
    assert_eq!(
        who_knows_what(root.path()),
        ["crates/boards, a domain crate, depends on app"]
    );
}

fn cycles_of(files: &[(&str, &str)]) -> Vec<String> {
    let mut files = files.to_vec();
    files.push(("crates/x/Cargo.toml", "[package]\nname = \"x\"\n"));
    file_cycles(tree(&files).path())
}

#[test]
fn a_file_cycle_is_caught() {
    let lib = "//! x\nmod a;\nmod b;\n";
    let a = "//! a\nuse crate::b::B;\npub struct A(B);\n";
    let b = "//! b\nuse crate::a::A;\npub struct B(Box<A>);\n";
    assert_eq!(
        cycles_of(&[
            ("crates/x/src/lib.rs", lib),
            ("crates/x/src/a.rs", a),
            ("crates/x/src/b.rs", b),
        ]),
        ["crates/x/src/a.rs → crates/x/src/b.rs → crates/x/src/a.rs"]
    );

    // One way only: no cycle.
    let b = "//! b\npub struct B;\n";
    assert!(
        cycles_of(&[
            ("crates/x/src/lib.rs", lib),
            ("crates/x/src/a.rs", a),
            ("crates/x/src/b.rs", b),
        ])
        .is_empty()
    );
}

/// A test-only item early in a file hides neither the modules declared
/// after it nor their imports.
#[test]
fn modules_after_a_test_only_item_are_still_read() {
    let lib = "//! x\n#[cfg(test)]\nmod tests;\n#[cfg(test)]\nfn helper() {\n    let _ = 1;\n}\nmod a;\nmod b;\n";
    let a = "//! a\nuse crate::b::B;\npub struct A(B);\n";
    let b = "//! b\nuse crate::a::A;\npub struct B(Box<A>);\n";
    assert_eq!(
        cycles_of(&[
            ("crates/x/src/lib.rs", lib),
            ("crates/x/src/a.rs", a),
            ("crates/x/src/b.rs", b),
        ]),
        ["crates/x/src/a.rs → crates/x/src/b.rs → crates/x/src/a.rs"]
    );
}

/// The shape the server's routes had: a folder module that wires its
/// children and also defines a helper they use.
#[test]
fn a_parent_and_a_child_that_use_each_other_are_a_cycle() {
    let lib = "//! x\nmod routes;\n";
    let routes =
        "//! routes\nmod boards;\npub fn api() { boards::routes(); }\npub fn blocking() {}\n";
    let boards = "//! boards\nuse super::blocking;\npub fn routes() { blocking(); }\n";
    assert_eq!(
        cycles_of(&[
            ("crates/x/src/lib.rs", lib),
            ("crates/x/src/routes/mod.rs", routes),
            ("crates/x/src/routes/boards.rs", boards),
        ]),
        [
            "crates/x/src/routes/boards.rs → crates/x/src/routes/mod.rs → crates/x/src/routes/boards.rs"
        ]
    );
}

/// A cycle that goes through a re-export is still a cycle: `crate::A` is
/// the file that defines `A`.
#[test]
fn a_cycle_through_a_re_export_is_caught() {
    let lib = "//! x\nmod a;\nmod b;\npub use a::A;\n";
    let a = "//! a\npub struct A;\nfn f() { crate::b::g(); }\n";
    let b = "//! b\npub fn g() -> crate::A { todo() }\n";
    assert_eq!(
        cycles_of(&[
            ("crates/x/src/lib.rs", lib),
            ("crates/x/src/a.rs", a),
            ("crates/x/src/b.rs", b),
        ]),
        ["crates/x/src/a.rs → crates/x/src/b.rs → crates/x/src/a.rs"]
    );
}

/// Test targets are module trees of their own, `#[path]` included.
#[test]
fn a_cycle_in_a_test_target_is_caught() {
    let test = "//! t\n#[path = \"support/one.rs\"]\nmod one;\nmod two;\n";
    let one = "//! one\npub fn f() { crate::two::g() }\n";
    let two = "//! two\npub fn g() { crate::one::f() }\n";
    let found = cycles_of(&[
        ("crates/x/tests/t.rs", test),
        ("crates/x/tests/support/one.rs", one),
        ("crates/x/tests/two.rs", two),
    ]);
    assert_eq!(
        found,
        ["crates/x/tests/support/one.rs → crates/x/tests/two.rs → crates/x/tests/support/one.rs"]
    );
}

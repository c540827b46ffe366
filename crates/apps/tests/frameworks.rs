//! The flags frameworks that ignore `PORT` get, directly and through a
//! package manager's script.

use std::path::Path;

use apps::frameworks::{TABLE, with_port_flags};

fn package(scripts: &str) -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(
        folder.path().join("package.json"),
        format!("{{\"name\": \"x\", \"scripts\": {{{scripts}}}}}"),
    )
    .unwrap();
    folder
}

#[test]
fn known_tools_get_their_port_and_host_after_their_name() {
    let none = Path::new("/nonexistent");
    let cases = [
        ("vite", "vite --port 4100 --host 127.0.0.1"),
        ("vite dev", "vite dev --port 4100 --host 127.0.0.1"),
        (
            "npx vite serve --open",
            "npx vite serve --port 4100 --host 127.0.0.1 --open",
        ),
        (
            "./node_modules/.bin/vite",
            "./node_modules/.bin/vite --port 4100 --host 127.0.0.1",
        ),
        ("astro dev", "astro dev --port 4100 --host 127.0.0.1"),
        (
            "next dev --turbo",
            "next dev --port 4100 --hostname 127.0.0.1 --turbo",
        ),
        ("ng serve", "ng serve --port 4100 --host 127.0.0.1"),
        ("nuxi dev", "nuxi dev --port 4100 --host 127.0.0.1"),
        (
            "webpack serve",
            "webpack serve --port 4100 --host 127.0.0.1",
        ),
        (
            "webpack-dev-server",
            "webpack-dev-server --port 4100 --host 127.0.0.1",
        ),
        (
            "remix vite:dev",
            "remix vite:dev --port 4100 --host 127.0.0.1",
        ),
        (
            "react-router dev",
            "react-router dev --port 4100 --host 127.0.0.1",
        ),
        (
            "npm install && vite && echo done",
            "npm install && vite --port 4100 --host 127.0.0.1 && echo done",
        ),
    ];
    for (command, expected) in cases {
        assert_eq!(with_port_flags(command, none, 4100), expected, "{command}");
    }
}

#[test]
fn a_command_that_names_its_port_or_is_unknown_is_left_alone() {
    let none = Path::new("/nonexistent");
    for command in [
        "vite --port 3000",
        "vite --port=3000",
        "next dev -p 3000",
        "vite build",
        "python3 -m http.server",
        "cargo run",
        "npm run dev",
    ] {
        assert_eq!(with_port_flags(command, none, 4100), command);
    }
    assert_eq!(
        with_port_flags("vite --host 0.0.0.0", none, 4100),
        "vite --port 4100 --host 0.0.0.0",
        "a host already named is kept"
    );
}

#[test]
fn package_scripts_that_start_a_known_tool_get_the_flags_passed_through() {
    let folder = package(
        "\"dev\": \"vite\", \"start\": \"next dev\", \"serve\": \"node server.js\", \"fixed\": \"vite --port 3000\"",
    );
    let at = folder.path();
    assert_eq!(
        with_port_flags("npm run dev", at, 4101),
        "npm run dev -- --port 4101 --host 127.0.0.1"
    );
    assert_eq!(
        with_port_flags("bun run dev", at, 4101),
        "bun run dev -- --port 4101 --host 127.0.0.1"
    );
    assert_eq!(
        with_port_flags("pnpm dev", at, 4101),
        "pnpm dev --port 4101 --host 127.0.0.1"
    );
    assert_eq!(
        with_port_flags("pnpm run dev", at, 4101),
        "pnpm run dev --port 4101 --host 127.0.0.1"
    );
    assert_eq!(
        with_port_flags("yarn dev", at, 4101),
        "yarn dev --port 4101 --host 127.0.0.1"
    );
    assert_eq!(
        with_port_flags("npm start", at, 4101),
        "npm start -- --port 4101 --hostname 127.0.0.1"
    );
    assert_eq!(
        with_port_flags("npm run dev -- --open", at, 4101),
        "npm run dev -- --open --port 4101 --host 127.0.0.1",
        "arguments already passed on keep their `--`"
    );
    for unchanged in [
        "npm run serve",
        "npm run fixed",
        "npm run missing",
        "yarn serve",
    ] {
        assert_eq!(with_port_flags(unchanged, at, 4101), unchanged);
    }
}

#[test]
fn the_table_names_every_tool_with_its_flags() {
    let tools: Vec<&str> = TABLE
        .iter()
        .flat_map(|(tool, _)| tool.split(", "))
        .collect();
    for tool in [
        "vite",
        "astro dev",
        "next dev",
        "ng serve",
        "nuxt dev",
        "nuxi dev",
        "webpack serve",
        "webpack-dev-server",
        "remix vite:dev",
        "react-router dev",
    ] {
        assert!(tools.contains(&tool), "{tool}");
    }
    for (tool, flags) in TABLE {
        let command = tool.split(", ").next().unwrap();
        let expected = format!("{command} {}", flags.replace('N', "4200"));
        assert_eq!(
            with_port_flags(command, Path::new("/nonexistent"), 4200),
            expected
        );
    }
}

#[test]
fn the_docs_show_the_table_the_code_uses() {
    let docs = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/apps.md"),
    )
    .unwrap();
    for (tools, flags) in apps::frameworks::TABLE {
        let row = format!("| {tools} | {flags} |");
        assert!(docs.contains(&row), "docs/apps.md lacks the row {row}");
    }
}

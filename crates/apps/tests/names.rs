//! The DNS-label rules of app names and the name a `Host` header asks for.

use apps::names::{app_name_valid, host, label, name_from_host};

#[test]
fn a_branch_becomes_one_label() {
    assert_eq!(
        label("feature/Fix_login").as_deref(),
        Some("feature-fix-login")
    );
    assert_eq!(label("--Hello,  World!--").as_deref(), Some("hello-world"));
    assert_eq!(label("Ünïcode café").as_deref(), Some("n-code-caf"));
    assert_eq!(label("///"), None);
    assert_eq!(label(""), None);
}

#[test]
fn a_label_is_cut_to_63_bytes_and_never_ends_with_a_dash() {
    let long = format!("{}-{}", "a".repeat(62), "b".repeat(10));
    let cut = label(&long).unwrap();
    assert_eq!(cut, "a".repeat(62));
    assert!(label(&"x".repeat(100)).unwrap().len() == 63);
}

#[test]
fn hosts_put_the_place_between_the_app_and_localhost() {
    assert_eq!(host("web", Some("fix-login")), "web.fix-login.localhost");
    assert_eq!(host("web", None), "web.localhost");
}

#[test]
fn declared_names_are_checked_not_rewritten() {
    for good in ["web", "api-2", "a", &"x".repeat(40)] {
        assert!(app_name_valid(good), "{good}");
    }
    for bad in [
        "",
        "-web",
        "web-",
        "Web",
        "web_1",
        "web.app",
        &"x".repeat(41),
    ] {
        assert!(!app_name_valid(bad), "{bad}");
    }
}

#[test]
fn the_host_header_names_an_app_only_under_localhost() {
    assert_eq!(
        name_from_host("Web.Fix-Login.localhost:8080").as_deref(),
        Some("web.fix-login")
    );
    assert_eq!(name_from_host("web.localhost.").as_deref(), Some("web"));
    assert_eq!(name_from_host("web.localhost").as_deref(), Some("web"));
    for refused in [
        "localhost",
        "localhost:8080",
        ".localhost",
        "127.0.0.1:8080",
        "[::1]:8080",
        "::1",
        "example.com",
        "web.localhost.example.com",
        "weblocalhost",
        "a..b.localhost",
        "we b.localhost",
        "web.localhost:port",
    ] {
        assert_eq!(name_from_host(refused), None, "{refused}");
    }
}

//! The inhibitor against a real `dbus-daemon` with logind's `Inhibit` on
//! it (`standins::logind`): held while the [`awake::Inhibitor`] lives,
//! released when it is dropped, and a clear error where no logind is.

use std::time::{Duration, Instant};

fn eventually(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !check() {
        assert!(Instant::now() < deadline, "{what} within 5 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

// The bus address comes from the environment as zbus reads it, so the
// cases run one after another in one test.
#[tokio::test]
async fn a_sleep_inhibitor_is_held_until_dropped_and_missing_logind_is_named() {
    let bus = standins::logind::Bus::start().expect("a private bus");
    // SAFETY: no other thread of this test binary reads the environment.
    unsafe { std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", bus.address()) };
    let logind = awake::Logind::connect()
        .await
        .expect("logind is on the bus");
    let held = logind
        .inhibit("Switchboard", "3 agent sessions are running")
        .await
        .expect("an inhibitor");
    let asked = bus.inhibitors();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].what, "sleep");
    assert_eq!(asked[0].mode, "block");
    assert_eq!(asked[0].who, "Switchboard");
    assert_eq!(asked[0].why, "3 agent sessions are running");
    assert!(asked[0].held);
    drop(held);
    eventually("the inhibitor is released", || bus.held().is_empty());
    assert!(awake::probe().is_ok());

    let empty = standins::logind::Bus::without_logind().expect("a private bus");
    unsafe { std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", empty.address()) };
    assert!(matches!(
        awake::Logind::connect().await,
        Err(awake::Error::NoLogind)
    ));
    assert!(matches!(awake::probe(), Err(awake::Error::NoLogind)));

    unsafe { std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/bus") };
    assert!(matches!(awake::probe(), Err(awake::Error::NoBus(_))));
}

//! Running apps on an SSH runner (docs/apps.md), through the real sshd: a
//! session's app started on the runner host as the runner's user, on a
//! port free there, reached through the proxy over a channel of the
//! runner's connection, stopped there, and named as away while the host is
//! gone.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Reply, TestServer, raw_request};
use crate::sshd::Sshd;
use crate::{RUNNER_USER, server_with_runner};

/// Python's dev server on the port the app is given, on the host's loopback.
const SERVE: &str = "python3 -m http.server \"$PORT\" --bind 127.0.0.1";

/// The proxy's port, as `server.json` names it.
fn proxy_port(server: &TestServer) -> u16 {
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(server.data_dir().join("server.json")).unwrap(),
    )
    .unwrap();
    let url = file["appsUrl"].as_str().expect("server.json names appsUrl");
    url.rsplit(':').next().unwrap().parse().unwrap()
}

/// A GET of `/` through the proxy for the app `name`.
fn through_proxy(server: &TestServer, name: &str) -> Reply {
    let port = proxy_port(server);
    raw_request(
        &format!("127.0.0.1:{port}"),
        "GET",
        "/",
        &format!("Host: {name}.localhost:{port}\r\n"),
        &[],
        None,
    )
}

fn until<T>(what: &str, mut found: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(value) = found() {
            return value;
        }
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The app `name` as `GET /apps` lists it.
fn listed(server: &TestServer, name: &str) -> Option<Value> {
    let reply = server.call("GET", "/apps", None);
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply
        .json()
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .cloned()
}

/// Starts [`SERVE`] as app `name` of session `id`; what `POST /apps` said.
fn start(server: &TestServer, id: &str, name: &str) -> Value {
    let reply = server.call(
        "POST",
        "/apps",
        Some(&json!({"sessionId": id, "name": name, "command": SERVE})),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let app = reply.json();
    assert_eq!(app["runner"], "devbox", "{app}");
    assert_eq!(app["state"], "running", "{app}");
    app
}

/// Waits until the proxy serves the app: python's listing of the site.
fn served(server: &TestServer, name: &str) -> Reply {
    until(&format!("{name} answers through the proxy"), || {
        let reply = through_proxy(server, name);
        (reply.status == 200).then_some(reply)
    })
}

fn port_is_free(port: u16) -> bool {
    // The runner host is this machine: its loopback is ours.
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

#[test]
fn an_ssh_runner_sessions_app_is_served_through_the_proxy_until_stopped_and_named_away_when_the_host_drops()
 {
    let Some(mut sshd) = Sshd::start(RUNNER_USER) else {
        return;
    };
    let server = server_with_runner(&sshd);
    // A folder only the runner's user can read, with a file that says so.
    let site = sshd
        .as_user(
            "d=$(mktemp -d \"$HOME/site-XXXXXX\") && echo here > \"$d/on-the-runner.txt\" && echo \"$d\"",
        )
        .trim()
        .to_owned();
    let cookie = server.browser_cookie();
    let reply = server.browser_spawn(
        &cookie,
        &json!({"engine": "remote", "prompt": "serve", "runner": "devbox", "cwd": site}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let id = reply.json()["id"].as_str().unwrap().to_owned();
    server.wait_for_status(&id, "waiting_for_input");

    // The first ports of the range are taken on the host by something of
    // its own (here or by whoever holds them already): the server cannot
    // see that, the runner turns them down, and the app gets the next one.
    let squatters: Vec<_> = (4100..=4102)
        .filter_map(|port| std::net::TcpListener::bind(("127.0.0.1", port)).ok())
        .collect();
    let web = start(&server, &id, "web");
    drop(squatters);
    let name = web["name"].as_str().unwrap().to_owned();
    let port = web["port"].as_u64().unwrap() as u16;
    assert!(port > 4102, "{web}");
    let page = served(&server, &name);
    let text = page.text();
    assert!(text.contains("Directory listing"), "{text}");
    assert!(text.contains("on-the-runner.txt"), "{text}");

    // Listed as the runner's, with the pid of what listens there: a
    // process of the runner's user in the session's folder.
    let app = until("the app is listed running with the listener's pid", || {
        listed(&server, &name).filter(|a| a["state"] == "running" && a["pid"].is_u64())
    });
    assert_eq!(app["runner"], "devbox", "{app}");
    assert_eq!(app["sessionId"], id.as_str(), "{app}");
    assert_eq!(app["port"], port, "{app}");
    let pid = app["pid"].as_u64().unwrap();
    let seen = sshd.as_user(&format!("stat -c %U /proc/{pid}; readlink /proc/{pid}/cwd"));
    assert_eq!(seen, format!("{RUNNER_USER}\n{site}\n"), "{app}");
    // The runner's keeper kept what python printed of the proxied request.
    until("the app's output shows the request", || {
        let output = server.call("GET", &format!("/apps/{name}/output"), None);
        assert_eq!(output.status, 200, "{}", output.text());
        let output = output.json();
        output["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| {
                l.as_str()
                    .unwrap_or_default()
                    .contains("\"GET / HTTP/1.1\" 200")
            })
            .then_some(())
    });

    // Started by Switchboard, so it can be started again there: a new
    // process on the same port, served again.
    assert_eq!(app["origin"], "started", "{app}");
    let restarted = server.call("POST", &format!("/apps/{name}/restart"), None);
    assert_eq!(restarted.status, 200, "{}", restarted.text());
    assert_eq!(restarted.json()["port"], port, "{}", restarted.text());
    until("the restarted app is listed with a new pid", || {
        listed(&server, &name)
            .filter(|a| a["state"] == "running" && a["pid"].as_u64().is_some_and(|p| p != pid))
    });
    assert!(served(&server, &name).text().contains("on-the-runner.txt"));

    // Stopped on the runner: the port is free there, at once the proxy
    // says it stopped, and the list says so.
    let stopped = server.call("POST", &format!("/apps/{name}/stop"), None);
    assert_eq!(stopped.status, 200, "{}", stopped.text());
    assert_eq!(stopped.json()["state"], "exited", "{}", stopped.text());
    until("the port is free on the runner", || {
        port_is_free(port).then_some(())
    });
    let gone = through_proxy(&server, &name);
    assert_eq!(gone.status, 502, "{}", gone.text());
    assert!(gone.text().contains("has stopped"), "{}", gone.text());
    assert_eq!(listed(&server, &name).unwrap()["state"], "exited");

    // Another app, then the host drops while it runs: the proxy's page
    // names the runner as away, and the app stays listed.
    let late = start(&server, &id, "late");
    let late_name = late["name"].as_str().unwrap().to_owned();
    served(&server, &late_name);
    sshd.kill();
    let away = until("the proxy says the runner is away", || {
        let reply = through_proxy(&server, &late_name);
        (reply.status == 502).then_some(reply)
    });
    assert!(
        away.text().contains("the runner devbox is away"),
        "{}",
        away.text()
    );
    assert_eq!(listed(&server, &late_name).unwrap()["state"], "running");

    // The app ran on while the host was away: served again once back.
    sshd.restart();
    let again = served(&server, &late_name);
    assert!(
        again.text().contains("on-the-runner.txt"),
        "{}",
        again.text()
    );

    // Stopping the session stops its apps on the runner, and the runner
    // lets go of their folders.
    let ended = server.call("POST", &format!("/sessions/{id}/stop"), None);
    assert!(ended.status < 300, "{}", ended.text());
    until("nothing of the session runs on the host", || {
        sshd.as_user(&format!(
            "for p in /proc/[0-9]*; do grep -qa APP_SESSION_ID={id} $p/environ 2>/dev/null && echo $p; done; true"
        ))
        .trim()
        .is_empty()
        .then_some(())
    });
    until("the session's apps folder is gone", || {
        sshd.as_user(&format!(
            "test -e \"$HOME/.local/share/switchboard-runner/apps/{id}\" || echo gone"
        ))
        .contains("gone")
        .then_some(())
    });
    sshd.as_user(&format!("rm -rf {site}"));
}

//! `arbiter harness qgame xserver PORT` and `xclients PORT` as the course's graders ran
//! them: two real processes talking over loopback TCP, configured on stdin.

use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

fn reference_case(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../compat/qgame-course/tests/conformance/reference/Integration-Tests")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn start(args: &[&str], stdin: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    // A program refusing its arguments may exit before reading its input.
    let _ = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    child
}

/// A port the course's programs accept (10000–60000) that is free right now.
fn free_course_port() -> u16 {
    for _ in 0..50 {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().expect("bound").port();
        if (10_000..=60_000).contains(&port) {
            return port;
        }
    }
    (20_000..60_000)
        .find(|port| TcpListener::bind(("127.0.0.1", *port)).is_ok())
        .expect("some free port in range")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn xserver_and_xclients_play_a_reference_case() {
    let port = free_course_port().to_string();
    let server = start(
        &["harness", "qgame", "xserver", &port],
        &reference_case("0-server-config.json"),
    );
    // The clients wait 2 s before the first connection, so the server is listening.
    let clients = start(
        &["harness", "qgame", "xclients", &port],
        &reference_case("0-client-config.json"),
    );
    let server: Output = server.wait_with_output().expect("server finishes");
    let clients: Output = clients.wait_with_output().expect("clients finish");
    assert!(server.status.success(), "{}", text(&server.stderr));
    assert!(clients.status.success(), "{}", text(&clients.stderr));
    let actual: serde_json::Value =
        serde_json::from_slice(&server.stdout).expect("the server prints JSON");
    let expected: serde_json::Value =
        serde_json::from_str(&reference_case("0-out.json")).expect("expected output");
    assert_eq!(actual, expected);
}

#[test]
fn remote_harness_errors_are_one_line_and_exit_2() {
    let config = reference_case("0-server-config.json");
    let mut missing: serde_json::Value = serde_json::from_str(&config).expect("JSON");
    missing
        .as_object_mut()
        .expect("object")
        .remove("server-wait");
    let missing = missing.to_string();
    for (args, input) in [
        (vec!["harness", "qgame", "xserver"], config.as_str()),
        (vec!["harness", "qgame", "xserver", "80"], config.as_str()),
        (vec!["harness", "qgame", "xserver", "port"], config.as_str()),
        (vec!["harness", "qgame", "xserver", "45678"], missing.as_str()),
        (vec!["harness", "qgame", "xserver", "45678"], "{\"port\": "),
        (vec!["harness", "qgame", "xclients", "45678"], "[]"),
        (
            vec!["harness", "qgame", "xclients", "45678"],
            "{\"port\":45678,\"host\":\"127.0.0.1\",\"wait\":0,\"quiet\":true,\"players\":[]} \"nobody\"",
        ),
        (vec!["harness", "qgame", "xmap", "45678"], "1"),
    ] {
        let out = start(&args, input)
            .wait_with_output()
            .expect("arbiter finishes");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?} {input:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

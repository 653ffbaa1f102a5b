//! Every starter kit plays a whole match of every ruleset against a real server's house
//! bots without being ejected, and resumes its seat after dropping its connection:
//! `kits/test-all.sh` (Python over TCP, JavaScript over TCP and WebSocket, and this
//! kit's `arbiter-kit-play`) against a server this test starts on loopback. The kits
//! need `python3` and `node`; without them the test fails and says what to install.

use std::path::Path;
use std::process::Command;

/// Fail with one clear line when a program the kits need is missing.
fn needs(program: &str, package: &str) {
    let found = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(
        found,
        "the starter kits' test needs `{program}`: install {package} (Debian: apt-get install {package})"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kit_plays_every_ruleset_to_the_end() {
    needs("bash", "bash");
    needs("python3", "python3");
    needs("node", "nodejs");
    let dir = tempfile::tempdir().expect("a scratch directory");
    let config = arbiter_server::Config::for_data_dir(dir.path().join("data"));
    let server = arbiter_server::Server::start(config)
        .await
        .expect("the server starts");
    // The script plays every ruleset the server lists (GET /api/rulesets).
    let rulesets = server.hub.ruleset_infos().len();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-all.sh");
    let run = tokio::process::Command::new("bash")
        .arg(&script)
        .arg(server.tcp_addr.to_string())
        .arg(server.http_addr.to_string())
        .env("RUST_KIT_BIN", env!("CARGO_BIN_EXE_arbiter-kit-play"))
        .output()
        .await
        .expect("kits/test-all.sh runs");
    let report = String::from_utf8_lossy(&run.stdout);
    println!("{report}{}", String::from_utf8_lossy(&run.stderr));
    server.shutdown().await;
    assert!(run.status.success(), "a kit failed:\n{report}");
    let passed = report.lines().filter(|l| l.starts_with("PASS ")).count();
    // Every ruleset and a reconnecting game, for each of the 4 kit variants.
    let expected = 4 * (rulesets + 1);
    assert_eq!(passed, expected, "every kit and ruleset played:\n{report}");
}

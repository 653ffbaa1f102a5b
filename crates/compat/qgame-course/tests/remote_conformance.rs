//! Every milestone-10 case of the course (`tests/conformance/reference`,
//! Integration-Tests and Integration-Bonus): a real server and real clients over
//! loopback TCP, the printed result compared with `N-out.json` as JSON values.
//!
//! The configurations are used as shipped, waits included (sign-up periods of 20 s,
//! clients 2 s apart, 6 s per call): results can depend on them. Only the port is
//! replaced, in memory, by a free one per case, so all 40 cases run at once.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use arbiter_qgame_course::remote::client::ClientEnd;
use arbiter_qgame_course::remote::harness::{read_client_config, read_server_config};
use arbiter_qgame_course::remote::{run_clients, serve, SessionEnd};
use serde_json::Value;

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/reference")
}

/// The cases of one folder, in numeric order.
fn cases(folder: &str) -> Vec<PathBuf> {
    let dir = reference_dir().join(folder);
    let mut numbers: Vec<u32> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix("-out.json")?.parse().ok()
        })
        .collect();
    numbers.sort();
    numbers
        .into_iter()
        .map(|n| dir.join(n.to_string()))
        .collect()
}

fn read(case: &Path, suffix: &str) -> String {
    let path = format!("{}-{suffix}", case.display());
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// What one case produced.
struct Outcome {
    case: String,
    expected: Value,
    actual: Value,
    seconds: f64,
    /// Clients that did not end by the time the server was done (plus a grace period).
    stuck_clients: bool,
    client_problems: Vec<String>,
}

fn run_case(case: PathBuf) -> Outcome {
    let started = Instant::now();
    let name = case
        .strip_prefix(reference_dir())
        .unwrap_or(&case)
        .display()
        .to_string();
    let config = read_server_config(read(&case, "server-config.json").as_bytes())
        .expect("server config parses");
    let (client_config, specials) =
        read_client_config(read(&case, "client-config.json").as_bytes())
            .expect("client config parses");
    let expected: Value =
        serde_json::from_str(&read(&case, "out.json")).expect("expected output is JSON");

    let listener = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    let port = listener.local_addr().expect("bound").port();
    let server = thread::spawn(move || serve(&config, listener).to_json());
    let (done, clients_done) = mpsc::channel();
    thread::spawn(move || {
        let _ = done.send(run_clients(&client_config, &specials, port));
    });
    let actual = server.join().expect("the server thread does not panic");
    let reports = clients_done.recv_timeout(Duration::from_secs(30));
    let client_problems = match &reports {
        Ok(reports) => reports
            .iter()
            .filter(|r| {
                matches!(
                    r.end,
                    ClientEnd::CannotConnect(_)
                        | ClientEnd::Session(
                            SessionEnd::BadInput(_) | SessionEnd::ConnectionError(_)
                        )
                )
            })
            .map(|r| format!("{}: {:?}", r.name, r.end))
            .collect(),
        Err(_) => Vec::new(),
    };
    Outcome {
        case: name,
        expected,
        actual,
        seconds: started.elapsed().as_secs_f64(),
        stuck_clients: reports.is_err(),
        client_problems,
    }
}

#[test]
fn every_reference_case_over_tcp() {
    let started = Instant::now();
    let all: Vec<PathBuf> = cases("Integration-Tests")
        .into_iter()
        .chain(cases("Integration-Bonus"))
        .collect();
    assert_eq!(
        all.len(),
        40,
        "30 Integration-Tests and 10 Integration-Bonus cases"
    );
    let running: Vec<_> = all
        .into_iter()
        .map(|case| thread::spawn(move || run_case(case)))
        .collect();
    let mut failures = Vec::new();
    let mut slowest = 0.0f64;
    for handle in running {
        let outcome = handle.join().expect("case thread");
        slowest = slowest.max(outcome.seconds);
        if outcome.expected != outcome.actual {
            failures.push(format!(
                "{}: expected {} got {}",
                outcome.case, outcome.expected, outcome.actual
            ));
        }
        if outcome.stuck_clients {
            failures.push(format!(
                "{}: clients still running after the game",
                outcome.case
            ));
        }
        if !outcome.client_problems.is_empty() {
            failures.push(format!(
                "{}: clients failed: {}",
                outcome.case,
                outcome.client_problems.join("; ")
            ));
        }
    }
    eprintln!(
        "40 cases in {:.1} s (slowest case {slowest:.1} s)",
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

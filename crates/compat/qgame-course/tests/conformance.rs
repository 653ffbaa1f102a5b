//! Every public case of the Q-Game course (`tests/conformance`, copied from the course; see its README) through the
//! harness modes, compared as JSON values. The data is used exactly as shipped.

use std::path::{Path, PathBuf};
use std::time::Duration;

use arbiter_qgame_course::harness::HarnessOptions;
use arbiter_qgame_course::{run_mode, Mode};
use serde_json::Value;

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Run every `N-in.json` in `folder` and compare with `N-out.json`.
fn run_folder(folder: &str, mode: Mode, options: HarnessOptions) {
    let dir = conformance_dir().join(folder);
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with("-in.json"))
        })
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no cases in {}", dir.display());
    let handles: Vec<_> = cases
        .into_iter()
        .map(|input| {
            std::thread::spawn(move || {
                let text = std::fs::read_to_string(&input).expect("readable input");
                let expected_path = input.to_string_lossy().replace("-in.json", "-out.json");
                let expected: Value =
                    serde_json::from_str(&std::fs::read_to_string(&expected_path).expect("output"))
                        .expect("expected output is JSON");
                let actual = run_mode(mode, &text, options)
                    .unwrap_or_else(|e| panic!("{}: harness error {e}", input.display()))
                    .to_value()
                    .expect("an answer that fits a serde_json value");
                (input, expected, actual)
            })
        })
        .collect();
    let mut failures = Vec::new();
    let mut count = 0;
    for handle in handles {
        let (input, expected, actual) = handle.join().expect("case thread");
        count += 1;
        if expected != actual {
            failures.push(format!(
                "{}:\n  expected {expected}\n  actual   {actual}",
                input.display()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn quick() -> HarnessOptions {
    HarnessOptions::default()
}

/// Loop players are caught by the time limit; one second keeps the suite quick while
/// leaving normal calls (microseconds) far inside it.
fn with_limit() -> HarnessOptions {
    HarnessOptions {
        time_limit: Duration::from_secs(1),
        ..HarnessOptions::default()
    }
}

#[test]
fn staff_m3_xmap() {
    run_folder("staff/m3", Mode::XMap, quick());
}

#[test]
fn staff_m4_xlegal() {
    run_folder("staff/m4", Mode::XLegal, quick());
}

#[test]
fn staff_m5_xscore() {
    run_folder("staff/m5", Mode::XScore, quick());
}

#[test]
fn staff_m6_xstrategy() {
    run_folder("staff/m6", Mode::XStrategy, quick());
}

#[test]
fn staff_m7_xgames() {
    run_folder("staff/m7", Mode::XGames, quick());
}

#[test]
fn staff_m8_xgames_with_observer() {
    run_folder("staff/m8", Mode::XGamesWithObserver, quick());
}

#[test]
fn staff_m9_xbaddies() {
    run_folder("staff/m9", Mode::XBaddies, with_limit());
}

#[test]
fn forstudents_m8_xgames_with_observer() {
    run_folder("forstudents/m8", Mode::XGamesWithObserver, quick());
}

#[test]
fn forstudents_m9_xbaddies() {
    run_folder("forstudents/m9", Mode::XBaddies, with_limit());
}

//! The referee's integration tests, as one test binary: each file beside this one is a
//! module of it, so the tests link the referee and its rulesets once rather than once
//! per file. Run one file's tests with `cargo test -p arbiter-referee --test referee
//! deadlines::`.

mod common;

mod answers;
mod bot_failures;
mod deadlines;
mod house_bots;
mod reconnect;
mod remote_seats;
mod resumed;
mod ruleset_panics;
mod spectators;
mod time_bank;
mod turn_deadlines;
mod write_first;

/// With `autotests = false` (Cargo.toml), a file beside this one that is not one of the
/// modules above would never be built or run: each one must be.
#[test]
fn every_test_file_is_a_module() {
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let merged = std::fs::read_to_string(tests.join("referee.rs")).expect("tests/referee.rs");
    for entry in std::fs::read_dir(&tests).expect("the tests folder") {
        let path = entry.expect("a folder entry").path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().and_then(|e| e.to_str()) != Some("rs") || name == "referee" {
            continue;
        }
        let declared = merged.lines().any(|line| line == format!("mod {name};"));
        assert!(
            declared,
            "tests/{name}.rs is not a module of tests/referee.rs"
        );
    }
}

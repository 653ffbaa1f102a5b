//! The store's integration tests, as one test binary: each file beside this one is a
//! module of it, so they link the store, SQLx and the rulesets once rather than once per
//! file. Run one file's tests with `cargo test -p arbiter-store --test store matches::`.
//! `crash.rs` is a binary of its own (Cargo.toml): it reruns itself by exact test name
//! as the process it kills.

#[macro_use]
mod common;

mod accounts;
mod faults;
mod group_commit;
mod log_tail;
mod matches;
mod ratings;

/// With `autotests = false` (Cargo.toml), a file beside this one that is neither one of
/// the modules above nor a `[[test]]` of its own would never be built or run.
#[test]
fn every_test_file_is_built() {
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let merged = std::fs::read_to_string(crate_dir.join("tests/store.rs")).expect("tests/store.rs");
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).expect("Cargo.toml");
    for entry in std::fs::read_dir(crate_dir.join("tests")).expect("the tests folder") {
        let path = entry.expect("a folder entry").path();
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().and_then(|e| e.to_str()) != Some("rs") || name == "store" {
            continue;
        }
        let as_module = merged.lines().any(|line| line == format!("mod {name};"));
        let as_binary = manifest.contains(&format!("path = \"tests/{name}.rs\""));
        assert!(as_module || as_binary, "tests/{name}.rs is not built");
    }
}

//! The store's integration tests, as one test binary: each file beside this one is a
//! module of it, so they link the store, SQLx and the rulesets once rather than once per
//! file. Run one file's tests with `cargo test -p arbiter-store --test store matches::`.
//! `crash.rs` is a binary of its own (Cargo.toml): it reruns itself by exact test name
//! as the process it kills.
//! A file here that is not one of these modules is never built: `crates/cli/tests/
//! workspace.rs` checks that each one is.

#[macro_use]
mod common;

mod accounts;
mod faults;
mod group_commit;
mod log_tail;
mod matches;
mod ratings;
mod schema;
mod stand_ins;
mod tournaments;

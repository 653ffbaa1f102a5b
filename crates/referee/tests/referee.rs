//! The referee's integration tests, as one test binary: each file beside this one is a
//! module of it, so the tests link the referee and its rulesets once rather than once
//! per file. Run one file's tests with `cargo test -p arbiter-referee --test referee
//! deadlines::`.
//! A file here that is not one of these modules is never built: `crates/cli/tests/
//! workspace.rs` checks that each one is.

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
mod stale_answers;
mod stand_in;
mod time_bank;
mod turn_deadlines;
mod write_first;

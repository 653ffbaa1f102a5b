//! The server's integration tests, as one test binary. Each file beside this one is a
//! module of it: every test binary links the whole server, and twenty of them took
//! minutes of every build of the tests. Three stay binaries of their own:
//! `misbehaviour_matrix` and `idle_memory` count their process's heap with their own
//! allocator (and a test running beside them would be counted too), and `browser`
//! (Chromium, minutes long) would crowd the timing of the tests beside it.
//!
//! Run one file's tests with `cargo test -p arbiter-server --test server deployment::`.
//! A file here that is none of these modules nor a `[[test]]` of its own is never built:
//! `crates/cli/tests/workspace.rs` checks that each one is.

mod common;

mod crowds;
mod deployment;
mod full_speed;
mod fuzz_protocol;
mod legal;
mod lobby;
mod login_throttle;
mod misbehaving;
mod misbehaviour_ports;
mod module_graph;
mod people;
mod play;
mod qgame_port;
mod rolling_restart;
mod secrets;
mod sessions;
mod slow_readers;
mod spacegoo_port;
mod stand_in;
mod store_faults;
mod tournaments;
mod tournaments_deployed;
mod watching;

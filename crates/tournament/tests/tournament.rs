//! The tournament crate's integration tests, as one test binary: each file beside this
//! one is a module of it. Run one file's tests with
//! `cargo test -p arbiter-tournament --test tournament swiss::`.
//! A file here that is not one of these modules is never built: `crates/cli/tests/
//! workspace.rs` checks that each one is.

mod arena;
mod check;
mod common;
mod pools;
mod round_robin;
mod standings;
mod swiss;

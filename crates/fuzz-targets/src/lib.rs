//! Every door through which outside data enters Arbiter, as a function of bytes: the
//! bodies of the cargo-fuzz targets in `crates/fuzz` (one `fuzz_target!` line each),
//! and of this crate's tests, which run them over seed inputs and random bytes on the
//! stable toolchain.
//!
//! A body must not panic, hang or allocate without bound on any input, and checks
//! what the door promises beyond that: refusals explain themselves, a refused action
//! changes nothing, a record that verifies replays to its outcome.

mod native;
mod qgame;
mod records;
mod rulesets;
pub mod seeds;
mod server_config;
mod spacegoo;

pub use native::native_lines;
pub use qgame::{qgame_harness, qgame_remote};
pub use records::match_record;
pub use rulesets::{ruleset_play, tae_board};
pub use server_config::server_toml;
pub use spacegoo::spacegoo_lines;

/// A target's body: any bytes in, a panic for a broken promise.
pub type Body = fn(&[u8]);

/// Every target by name (the names of `crates/fuzz`'s targets), for the tests and the
/// seed writer.
pub const TARGETS: &[(&str, Body)] = &[
    ("native_lines", native_lines),
    ("spacegoo_lines", spacegoo_lines),
    ("qgame_harness", qgame_harness),
    ("qgame_remote", qgame_remote),
    ("ruleset_play", ruleset_play),
    ("tae_board", tae_board),
    ("match_record", match_record),
    ("server_toml", server_toml),
];

/// Run a reader's future to the end on this thread. Readers over a byte slice never
/// wait, so a current-thread runtime without drivers is enough; one per thread.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    thread_local! {
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a current-thread runtime without drivers builds");
    }
    RUNTIME.with(|runtime| runtime.block_on(future))
}

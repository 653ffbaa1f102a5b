//! One pipeline from seated players to a recorded match, used by the server's lobby,
//! tables and queue and by both compatibility ports:
//!
//! ```text
//! Launch ──▶ seed (OS entropy) ─▶ store row (its id is the match id) ─▶ referee
//!                                                                        │ sink
//!              Recorded ◀── writer task: log entry by entry, then result ◀┘
//! ```
//!
//! - [`launch`] draws the seed, writes the match row and starts the referee;
//! - [`writer`] stores every event the referee reports the moment it happens, and
//!   signals it stored, since the referee tells nobody anything before that; a store
//!   fault is retried for the match's patience, then the match is aborted.
//!
//! Who plays, how the match is listed and what a port prints at the end stay with the
//! caller; what is stored, and in which order, is decided once, here.

mod instruments;
mod launch;
mod writer;

pub use instruments::MatchInstruments;
pub use launch::{
    launch, resume, resume_from, Entry, Gap, Launch, LaunchError, Launched, Play, StandIn,
};
pub use writer::{Recorded, DEFAULT_STORE_PATIENCE};

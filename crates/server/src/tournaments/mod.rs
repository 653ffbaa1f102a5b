//! Tournaments on the server: Swiss, arena and round-robin, for two seats and for
//! pools of three or four, over the same match pipeline, store and pages as every
//! other match (`docs/tournaments.md`).
//!
//! ```text
//! session / http ──requests──▶ store ◀──reads, writes── director (one task each) ──▶ hub: matches
//!                                                          │
//!                          watchers ◀── publish (state) ◀──┘
//! ```
//!
//! The pairing rules and standings are the pure `arbiter-tournament` crate; this module
//! decides when to pair and starts the games.

pub mod arena_book;
pub mod director;
pub mod house;
pub mod publish;
pub mod requests;
pub mod settings;
pub mod state;

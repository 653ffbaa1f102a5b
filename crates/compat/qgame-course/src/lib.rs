//! The Q-Game course's way of running a game (`shared/rules/qgame-background.md`
//! §6–§9, §12): a referee that *calls* players (`setup`, `take-turn`, `new-tiles`,
//! `win`), each call bounded by a time limit, ejecting any player that fails, is late,
//! or answers illegally; the course's misbehaving players; and the harness modes the
//! course graded with (`xmap` … `xbaddies`); and the remote protocol with its
//! server and clients (`xserver`, `xclients`).
//!
//! The rules themselves come from `arbiter-qgame`; this crate only adds the call
//! protocol on top, so the same rules serve the native server and the course clients.

pub mod actors;
pub mod edge;
pub mod exact;
pub mod harness;
pub mod player;
pub mod referee;
pub mod remote;
pub mod timed;

pub use exact::ExactJson;
pub use harness::{run_mode, HarnessError, Mode};
pub use player::{CoursePlayer, PlayerFailure};
pub use referee::{run_game, CourseResult};

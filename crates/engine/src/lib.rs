//! The Arbiter engine: what every ruleset implements and what every referee drives.
//!
//! Data flows one way: rules (in `crates/games/*`) implement [`Game`], and describe
//! the rest of what they ship (referee policy, rules page, bots, search guide, text
//! board) as a [`Ruleset`]; the engine type-erases them into a [`Registry`] over JSON
//! so a server can host any ruleset by name; [`MatchRecord`]s (config + seed + accepted actions + ejections) replay to
//! identical states. Nothing here knows about networks or clocks.

pub mod bot;
pub mod digest;
pub mod erased;
pub mod events;
pub mod game;
pub mod guide;
pub mod illegal;
pub mod local;
pub mod outcome;
pub mod playout;
pub mod policy;
pub mod record;
pub mod registry;
pub mod rng;
pub mod ruleset;
pub mod testkit;
pub mod turn;

pub use bot::Bot;
pub use erased::{DynGame, DynState, EventBatch};
pub use events::{Discard, EventSink};
pub use game::{ConfigError, Game, Seat, TimeoutPolicy};
pub use guide::{Guide, Uninformed};
pub use illegal::Illegal;
pub use outcome::Outcome;
pub use policy::{IllegalAnswer, Policy};
pub use record::{LogEntry, MatchRecord, ReplayError, Resumption, StandIn};
pub use registry::{replay_on, Registry};
pub use rng::{seeded_rng, GameRng};
pub use ruleset::Ruleset;
pub use turn::Turn;

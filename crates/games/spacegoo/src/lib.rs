//! Rocket Scissor Spacegoo (ruleset id `spacegoo`), reproducing the reference server
//! (`rules/spacegoo.md`, background §2–§4) exactly.
//!
//! Two players own planets that build three ship types; each round both send one sealed
//! command (`nop` or `send origin target a b c`), then the tick runs: production, fleets
//! landing, fleet-vs-fleet then fleet-vs-planet battles with the reference's
//! rock-paper-scissors damage. One player left wins; round 500 is a draw.
//!
//! For the referee and the text-protocol port:
//! - turn model `Turn::Sealed`: both seats owe one command per round; a command is kept
//!   sealed (absent from every other view and event) until the round resolves, then the
//!   sends apply in arrival order (fleet ids as the reference numbered them);
//! - actions: `"nop"` or `{"send": {"origin": o, "target": t, "ships": [a, b, c]}}`;
//!   [`parse_command`] reads the reference's text lines into them;
//! - a send with a negative number is *legal* and disqualifies its sender; a second
//!   command in a round is refused (`more_than_one_command`, or the engine's
//!   `not_your_turn`) and the port then ejects with [`reasons::MORE_THAN_ONE_COMMAND`];
//!   a missed deadline is an ejection whose reason names it ([`reasons::NO_COMMAND`]);
//!   both seats missing the same deadline is a draw;
//! - [`reference_state_json`] / [`reference_log_json`] render the reference's JSON
//!   lines byte for byte; [`battle_harness`] serves `arbiter harness spacegoo battle`.
//!
//! Layout: [`mod@battle`] (the seed's battle, bit for bit), [`map`] (seeded symmetric maps),
//! [`world`] (the reference engine: `send_fleet`, `do_round`), [`state`] (sealed
//! commands, disqualifications, the end), [`game`] (the engine `Game`), [`view`] (views
//! and the reference JSON line), [`protocol`] (text command parsing), [`harness`] (the
//! battle line harness), [`bots`].

pub mod actions;
pub mod battle;
pub mod bots;
pub mod config;
pub mod events;
pub mod game;
pub mod guide;
pub mod harness;
pub mod map;
pub mod protocol;
pub mod reasons;
pub mod rebuild;
pub mod ruleset;
pub mod state;
pub mod view;
pub mod world;

pub use actions::{Action, SendOrder};
pub use battle::{battle, battle_wide};
pub use config::Config;
pub use events::Event;
pub use game::Spacegoo;
pub use harness::battle_harness;
pub use map::Planet;
pub use protocol::{parse_command, tokenize, CommandError};
pub use state::{player_id, End, SpacegooError, State};
pub use view::{reference_log_json, reference_state_json, FleetView, View};
pub use world::{Fleet, Ignored, World};

//! Space Crack — Michael Bayne's 2005 Game Gardens prototype of Daniel Cook's design.
//!
//! Up to four players start in the corners of a hex map of planets. Each turn everyone
//! gets command points and spends them, concurrently and in arrival order, moving ships
//! (capturing empty planets, merging with their own ships, battling enemy ships) and
//! building ships with crack, which planets produce at the end of each turn (core
//! planets more). After the last turn the most planets wins, then the most crack.
//! Rules: `rules/spacecrack.md` and background §2 in the shared design documents.
//!
//! Turn model: concurrent, `Turn::AnyOf(seats that can still act)`. A turn ends when
//! every player has finished: spent their points, sent `end_turn`, or is stuck (no ships
//! and too little crack to build). The per-turn deadline (`turn_timeout_secs`, read by the
//! referee through `Game::configured_deadline`; one deadline per turn through
//! `Game::turn_number`) belongs to the referee: when it passes, the referee sends
//! `{"type":"turn_timeout"}` as each seat
//! still in `to_act`, which finishes that seat's turn (saving its points, like
//! `end_turn`, and accepted even when `allow_pass` is off). With `turn_mode:
//! "sequential"` it is `Turn::One(seat)` instead.
//!
//! Module map: [`config`] options and ranges, [`board`] hex geometry, [`map`] map
//! generation, [`battle`](mod@battle) combat arithmetic, [`harness`] the battle test harness,
//! [`production`] crack, [`actions`] actions and errors, [`rules`] applying them and
//! ending turns, [`legal`] listing actions, [`events`], [`view`], [`game`] the engine
//! trait, [`bots`].

pub mod actions;
pub mod battle;
pub mod board;
pub mod bots;
pub mod config;
pub mod events;
pub mod game;
pub mod guide;
pub mod harness;
pub mod legal;
pub mod map;
pub mod production;
pub mod rebuild;
pub mod rules;
pub mod ruleset;
pub mod scenario;
pub mod state;
pub mod view;

pub use actions::{Action, SpaceCrackError};
pub use battle::battle;
pub use config::Config;
pub use events::Event;
pub use game::SpaceCrack;
pub use harness::battle_harness;
pub use state::State;
pub use view::View;

//! Q-Game, the CS 4500 (Fall 2023) course's Qwirkle-like game, exactly as the course's
//! reference implementation and tests define it (`shared/rules/qgame-background.md`).
//!
//! Pure rules: tiles and their order, the map and the neighbour-only fit rule, legal
//! placements, scoring with configurable Q and finish bonuses, turns, rounds, ejection
//! and results, plus the course strategies `dag` and `ldasg`. The course's call
//! protocol (setup/take-turn/new-tiles/win with time limits) lives in
//! `arbiter-qgame-course`.

pub mod action;
pub mod bots;
mod cell_hash;
pub mod config;
pub mod coord;
pub mod error;
pub mod frontier;
pub mod game;
pub mod guide;
pub mod jstate;
pub mod kinds;
pub mod legal;
pub mod map;
pub mod placement;
pub mod rebuild;
pub mod ruleset;
pub mod scoring;
pub mod state;
pub mod strategy;
pub mod tile;
pub mod view;

pub use action::Action;
pub use config::Config;
pub use coord::Coord;
pub use error::QgameError;
pub use game::{Event, Qgame};
pub use jstate::{JPlayer, JPub, JState};
pub use map::Map;
pub use placement::Placement;
pub use state::{State, TurnResult};
pub use strategy::{Step, Strategy};
pub use tile::{Color, Shape, Tile};

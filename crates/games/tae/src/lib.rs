//! Tigris & Euphrates in space ("TaE", Thousand Parsec's ruleset), as rules/tae.md
//! decides it.
//!
//! Module map: [`kind`] (colonist kinds and per-kind counters), [`board`] and
//! [`regions`] (the grid and its regions, kept equal to a fresh labelling), `grid`,
//! `cellset` and `masks` (the board as bitboards), [`config`], [`state`] (the full
//! state and turn phases), [`actions`] (the active player's actions), `legal`, `lift`
//! and `swaps` (listing them for the whole board at once), `sample` (drawing one),
//! [`conflict`] (internal and external conflicts), [`flow`] (prompts, end of turn,
//! ejection), [`score`], [`view`] and [`determinize`] (what each seat may know),
//! [`render`] (a text picture of the board), [`scenario`] (building positions directly,
//! for tests and tools), [`bots`].

pub mod actions;
pub mod board;
pub mod bots;
mod cellset;
pub mod config;
pub mod conflict;
pub mod determinize;
pub mod error;
pub mod events;
pub mod flow;
pub mod game;
mod grid;
pub mod guide;
pub mod kind;
mod legal;
mod lift;
mod masks;
#[cfg(test)]
mod random_play;
pub mod rebuild;
pub mod regions;
pub mod render;
pub mod ruleset;
mod sample;
pub mod scenario;
pub mod score;
pub mod state;
mod swaps;
pub mod view;

pub use actions::Action;
pub use board::{board_from_text, Board, Cell, Leader, Pos, Terrain, DEFAULT_BOARD};
pub use config::Config;
pub use error::TaeError;
pub use events::Event;
pub use game::Tae;
pub use kind::{Kind, Resources, Tiles};
pub use render::render_text;
pub use state::{Phase, State};
pub use view::View;

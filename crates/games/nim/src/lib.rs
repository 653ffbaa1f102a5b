//! Secret Nim: the smallest complete Arbiter ruleset, kept to teach by example.
//!
//! Read it in this order: [`config`] (what a host may choose), [`state`] (everything the
//! referee knows, secrets included), [`action`] (what a seat may send, and why it may be
//! refused), [`view`] (what each audience may see, and how a player that sees only its
//! view rebuilds a state to think on), [`game`] (the rules as pure functions: the
//! [`arbiter_engine::Game`] trait), [`bots`] and [`ruleset`] (everything besides the
//! rules that a server ships: policy, rules page, bots, text board: the
//! [`arbiter_engine::Ruleset`] trait). `tests/battery.rs` runs the engine's one test
//! battery on it, as every ruleset does. `docs/adding-a-ruleset.md` walks through
//! writing one like it.
//!
//! The game: heaps of stones; in turn, each player takes any number of stones from one
//! heap; whoever takes the last stone wins. The twist is hidden information: each
//! player is dealt a secret card, `double` or `plain`, and a `double` may be spent once
//! to take from two heaps in one turn. Nobody knows who holds one until it is spent.

pub mod action;
pub mod bots;
pub mod config;
pub mod game;
pub mod ruleset;
pub mod state;
pub mod view;

pub use action::{Action, NimError, Take};
pub use config::Config;
pub use game::{Event, Nim};
pub use state::{Card, State};
pub use view::{CardView, View};

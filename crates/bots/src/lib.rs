//! Bots that work for any ruleset, and local round-robins between bots.
//!
//! - [`Mcts`]: information-set Monte Carlo tree search over the [`arbiter_engine::Game`]
//!   trait. It only ever looks at the determinized state its seat is given, re-drawing
//!   every secret again for each iteration with [`arbiter_engine::Game::determinize`].
//!   A ruleset may lend it knowledge through an [`arbiter_engine::Guide`] (candidate moves, a cheaper
//!   rollout policy, an evaluation of unfinished positions); the search stays generic.
//! - [`BotOptions`]: the thinking budget a searching bot gets, passed by name through
//!   the ruleset list.
//! - [`round_robin`]: round-robin schedules over seat permutations, parallel games,
//!   win rates with Wilson intervals and ratings.

pub mod mcts;
pub mod options;
pub mod reward;
pub mod round_robin;

pub use mcts::{ChoiceStats, Mcts, SearchReport};
pub use options::{BotOptions, Budget};

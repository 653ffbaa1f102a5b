//! What a ruleset may tell a generic search about itself.
//!
//! The search (`arbiter-bots`' MCTS) is the same for every ruleset; the knowledge that
//! makes it play well is the ruleset's own, so it lives in the ruleset's folder as a
//! [`Guide`]. The trait lives here, beside [`Game`], so a ruleset crate needs nothing
//! but the engine to write one.

pub mod fingerprint;
pub mod reward;

use crate::game::{Game, Seat};
use crate::rng::GameRng;

pub use fingerprint::fingerprint;
pub use reward::{margin_rewards, rank_reward};

/// UCB exploration constant for rewards in [0, 1], the default of
/// [`Guide::exploration`].
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// Ruleset knowledge lent to the generic search (MCTS). Every method has a generic default, so
/// [`Uninformed`] needs nothing; a ruleset overrides what makes search cheaper or
/// better informed (moves `legal`'s sample leaves out, a faster rollout policy, an
/// estimate of a position where a rollout stops early).
///
/// Every method sees only the determinized state the search is working on, never the
/// real one.
pub trait Guide<G: Game>: Send + Sync {
    /// The moves the tree considers for `seat` below the root, listed again on every
    /// visit (each visit has its own determinization). Default: [`Game::legal`].
    fn candidates(&self, state: &G::State, seat: Seat) -> Vec<G::Action> {
        G::legal(state, seat)
    }

    /// The bot's own moves at the root, listed once per search, so a guide may spend
    /// more on them (a finer ranking, moves `legal` leaves out). Default:
    /// [`Guide::candidates`].
    fn root_candidates(&self, state: &G::State, seat: Seat) -> Vec<G::Action> {
        self.candidates(state, seat)
    }

    /// The UCB exploration constant, to suit the spread of this guide's rewards
    /// (estimates that differ by little between moves need less exploration).
    fn exploration(&self) -> f64 {
        DEFAULT_EXPLORATION
    }

    /// One move of a rollout, `None` when the seat has none. Default: uniformly random
    /// among [`Game::legal`] ([`Game::random_action`], which a ruleset may draw without
    /// building the list).
    fn rollout_action(&self, state: &G::State, seat: Seat, rng: &mut GameRng) -> Option<G::Action> {
        G::random_action(state, seat, rng)
    }

    /// Decisions a rollout from `state` plays before it stops and asks
    /// [`Guide::evaluate`].
    fn rollout_depth(&self, _state: &G::State) -> usize {
        200
    }

    /// Rewards in [0, 1] per seat for an unfinished position (1 = surely wins).
    /// Default: `None`, which scores the cut-off rollout as a draw for everyone.
    fn evaluate(&self, _state: &G::State) -> Option<Vec<f64>> {
        None
    }
}

/// No knowledge at all: `legal`, random rollouts, draws when cut off.
#[derive(Debug, Clone, Copy, Default)]
pub struct Uninformed;

impl<G: Game> Guide<G> for Uninformed {}

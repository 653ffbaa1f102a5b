//! A player that runs inside the process: built-in bots and test players.

use crate::game::{Game, Seat};

/// A decision maker for one seat of game `G`.
///
/// The runner hands a bot a *determinized* state (see [`Game::determinize`]): the bot
/// sees its own secrets and freshly sampled stand-ins for everyone else's, never the
/// real ones.
pub trait Bot<G: Game>: Send {
    fn decide(&mut self, state: &G::State, seat: Seat) -> G::Action;
}

/// Uniformly random among [`Game::legal`], from its own seeded ChaCha generator.
pub struct RandomBot {
    rng: crate::rng::GameRng,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: crate::rng::seeded_rng(seed),
        }
    }
}

impl<G: Game> Bot<G> for RandomBot
where
    G::Action: Default,
{
    fn decide(&mut self, state: &G::State, seat: Seat) -> G::Action {
        G::random_action(state, seat, &mut self.rng).unwrap_or_default()
    }
}

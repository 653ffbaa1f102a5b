//! The simplest network player for any ruleset: rebuild a state from the seat's view
//! (`DynGame::state_from_view`) and pick uniformly among the legal actions. The load
//! benchmark and the tests use it so that what they measure is the server, not a bot.

use std::sync::Arc;

use arbiter_engine::{seeded_rng, DynGame, GameRng};
use rand::Rng;
use serde_json::Value;

use crate::client::Decider;

pub struct RandomFromView {
    game: Arc<dyn DynGame>,
    config: Value,
    rng: GameRng,
}

impl RandomFromView {
    pub fn new(game: Arc<dyn DynGame>, config: Value, seed: u64) -> RandomFromView {
        RandomFromView {
            game,
            config,
            rng: seeded_rng(seed),
        }
    }
}

impl Decider for RandomFromView {
    fn decide(&mut self, view: &Value, seat: usize) -> Result<Value, String> {
        let state = self
            .game
            .state_from_view(&self.config, view, seat, self.rng.random())?;
        let legal = state.legal(seat);
        if legal.is_empty() {
            return Err(format!("seat {seat} has no legal action in this view"));
        }
        let pick = self.rng.random_range(0..legal.len());
        Ok(legal[pick].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Playing every ruleset to the end from views alone.
    #[test]
    fn plays_every_ruleset_from_views() {
        for ruleset in arbiter_rulesets::all() {
            let config = ruleset.game.default_config();
            let mut state = ruleset.game.new_state(&config, 2, 5).unwrap();
            let mut players: Vec<RandomFromView> = (0..2)
                .map(|s| RandomFromView::new(ruleset.game.clone(), config.clone(), s))
                .collect();
            let mut steps = 0;
            while let Some(&seat) = state.to_act().seats().first() {
                let action = players[seat].decide(&state.view(Some(seat)), seat).unwrap();
                state.apply(seat, &action).unwrap();
                steps += 1;
                assert!(steps < 100_000, "{} does not end", ruleset.id());
            }
            assert!(state.outcome().is_some());
        }
    }
}

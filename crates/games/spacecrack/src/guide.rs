//! Space Crack: random rollouts of about three turns, then positions scored by
//! planets (the win condition), crack income and material.

use crate::production::income;
use crate::state::State;
use crate::{Action, SpaceCrack};
use arbiter_engine::guide::margin_rewards;
use arbiter_engine::Guide;
use arbiter_engine::{Game, GameRng};
use rand::seq::IndexedRandom;
use rand::Rng;

/// Decisions per rollout: with 5 command points a seat, about one and a half turns of
/// two seats (longer rollouts measured weaker against `greedy`).
const ROLLOUT_DEPTH: usize = 15;
/// A margin of three planets is worth about three quarters of a win.
const MARGIN_SCALE: f64 = 3000.0;
/// UCB exploration (see [`Guide::exploration`]).
const EXPLORATION: f64 = 0.3;

pub struct SpaceCrackGuide;

/// A seat's strength: planets first (the winner has the most), then what produces
/// and fights for more of them.
fn strength(state: &State, seat: usize) -> f64 {
    let planets = state
        .planets()
        .iter()
        .filter(|p| p.owner == Some(seat))
        .count() as f64;
    let ships: u32 = state
        .ships()
        .filter(|s| s.owner == seat)
        .map(|s| s.size)
        .sum();
    let crack = state.players().get(seat).map_or(0, |p| p.crack);
    1000.0 * planets + 20.0 * f64::from(income(state, seat)) + 10.0 * f64::from(crack + ships)
}

/// How promising a move is for a rollout: capturing a free planet, then winning a
/// fight, then building, then any other move; ending the turn last.
fn urge(state: &State, seat: usize, action: &Action) -> u32 {
    match action {
        Action::MoveShip { ship, planet } => {
            let Some(target) = state.planets().get(*planet) else {
                return 0;
            };
            let mine = state.ship(*ship).map_or(0, |s| s.size);
            match target.ship.and_then(|id| state.ship(id)) {
                None if target.owner != Some(seat) => 4,
                Some(other) if other.owner != seat && other.size < mine => 3,
                Some(other) if other.owner != seat => 0,
                _ => 1,
            }
        }
        Action::BuildShip { .. } => 2,
        _ => 0,
    }
}

impl Guide<SpaceCrack> for SpaceCrackGuide {
    /// Mostly the most urgent kind of move (random among those), sometimes any.
    fn rollout_action(&self, state: &State, seat: usize, rng: &mut GameRng) -> Option<Action> {
        let legal = SpaceCrack::legal(state, seat);
        if rng.random_bool(0.1) {
            return legal.choose(rng).cloned();
        }
        let best = legal.iter().map(|a| urge(state, seat, a)).max()?;
        let top: Vec<&Action> = legal
            .iter()
            .filter(|a| urge(state, seat, a) == best)
            .collect();
        top.choose(rng).map(|&a| a.clone())
    }

    fn exploration(&self) -> f64 {
        EXPLORATION
    }

    fn rollout_depth(&self, _state: &State) -> usize {
        ROLLOUT_DEPTH
    }

    fn evaluate(&self, state: &State) -> Option<Vec<f64>> {
        let scores: Vec<f64> = (0..state.players().len())
            .map(|seat| {
                if state.players()[seat].ejected.is_some() {
                    -1e9
                } else {
                    strength(state, seat)
                }
            })
            .collect();
        Some(margin_rewards(&scores, MARGIN_SCALE))
    }
}

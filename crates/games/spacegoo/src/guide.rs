//! Rocket Scissor Spacegoo: the tree considers `nop` and the sends with the best
//! immediate gain (the `greedy` bot's measure), rollouts play a cheap sampled greedy
//! for ten rounds, and positions are scored by each side's share of ships and
//! production.

use crate::bots::immediate_gain;
use crate::{player_id, Action, Spacegoo, State};
use arbiter_engine::guide::fingerprint;
use arbiter_engine::Guide;
use arbiter_engine::{Game, GameRng, Seat};
use rand::seq::IndexedRandom;
use rand::Rng;

/// Moves the tree considers per position (besides `nop`).
const BRANCHING: usize = 10;
/// Decisions per rollout (two per round).
const ROLLOUT_DEPTH: usize = 20;
/// Sends a rollout step samples before keeping the best.
const ROLLOUT_SAMPLES: usize = 4;
/// Rounds of production a planet is worth in the evaluation.
const PRODUCTION_ROUNDS: i64 = 20;

pub struct SpacegooGuide;

/// Ships a player holds on planets and in flight, plus what its planets will build.
fn strength(state: &State, seat: Seat) -> f64 {
    let world = state.world();
    let me = player_id(seat);
    let rounds_left =
        i64::from(world.max_rounds.saturating_sub(world.round)).min(PRODUCTION_ROUNDS);
    let mut total = 0i64;
    for planet in world.planets.iter().filter(|p| p.owner_id == me) {
        total += planet.ships.iter().sum::<i64>();
        total += planet.production.iter().sum::<i64>() * rounds_left;
    }
    for fleet in world.fleets.iter().filter(|f| f.owner_id == me) {
        total += fleet.ships.iter().sum::<i64>();
    }
    total.max(0) as f64
}

impl Guide<Spacegoo> for SpacegooGuide {
    fn candidates(&self, state: &State, seat: Seat) -> Vec<Action> {
        let legal = Spacegoo::legal(state, seat);
        if legal.is_empty() {
            return legal;
        }
        let mut scored: Vec<(i64, u64, Action)> = legal
            .into_iter()
            .filter(|a| *a != Action::Nop)
            .map(|a| (immediate_gain(state, seat, &a), fingerprint(seat, &a), a))
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(BRANCHING);
        let mut out = vec![Action::Nop];
        out.extend(scored.into_iter().map(|(_, _, a)| a));
        out
    }

    /// The best of a few random sends by immediate gain, or `nop` if none gains.
    fn rollout_action(&self, state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        let legal = Spacegoo::legal(state, seat);
        if legal.is_empty() {
            return None;
        }
        let mut best = (0i64, Action::Nop);
        for _ in 0..ROLLOUT_SAMPLES {
            let Some(action) = legal.choose(rng) else {
                break;
            };
            let gain = immediate_gain(state, seat, action);
            if gain > best.0 || (gain == best.0 && gain > 0 && rng.random_bool(0.5)) {
                best = (gain, action.clone());
            }
        }
        Some(best.1)
    }

    fn rollout_depth(&self, _state: &State) -> usize {
        ROLLOUT_DEPTH
    }

    fn evaluate(&self, state: &State) -> Option<Vec<f64>> {
        let mine = [strength(state, 0), strength(state, 1)];
        let total = mine[0] + mine[1];
        if total <= 0.0 {
            return Some(vec![0.5, 0.5]);
        }
        Some(vec![mine[0] / total, mine[1] / total])
    }
}

//! Tigris & Euphrates in space: the tree considers the best few answers by the
//! `greedy` bot's own measure (score key after the answer and the conflicts it opens),
//! rollouts are random for two turns, and positions are scored by the levelled score.
//!
//! Other seats' resources are secret; in a determinized state they start at zero, so
//! the evaluation compares what each seat gains from here on, plus the bot's own
//! known total.

use crate::bots::evaluate;
use crate::score::levelled;
use crate::{State, Tae};
use arbiter_engine::guide::fingerprint;
use arbiter_engine::guide::margin_rewards;
use arbiter_engine::Guide;
use arbiter_engine::{Game, GameRng, Seat};
use rand::seq::IndexedRandom;

/// Answers the tree considers at the root.
const BRANCHING: usize = 10;
/// Below the root: answers ranked (an evenly spaced sample of `legal`) and kept.
const REPLY_SAMPLE: usize = 24;
const REPLY_BRANCHING: usize = 6;
/// Random answers a rollout step ranks before playing the best.
const ROLLOUT_SAMPLES: usize = 4;
/// UCB exploration (see [`Guide::exploration`]).
const EXPLORATION: f64 = 0.3;
/// Decisions per rollout: about two turns of two actions (plus prompts).
const ROLLOUT_DEPTH: usize = 8;
/// A margin of this many points (weakest resource counts ten, the rest one) is worth
/// about three quarters of a win. Large, because the bot's own resources are known and
/// the others' start at zero in a determinization: a small scale would saturate.
const MARGIN_SCALE: f64 = 40.0;

pub struct TaeGuide;

/// The levelled score with the weakest resource (the real score) weighted ten times
/// over the total, so that every gain counts and the weakest most.
fn value(state: &State, seat: Seat) -> f64 {
    let Some(player) = state.players().get(seat) else {
        return 0.0;
    };
    if player.ejected.is_some() {
        return -1e6;
    }
    let totals = levelled(&player.resources, player.artifacts);
    let min = totals.iter().copied().min().unwrap_or(0);
    let sum: u32 = totals.iter().sum();
    10.0 * f64::from(min) + f64::from(sum)
}

/// The `limit` best of `actions` by the greedy bot's measure (score key after the
/// answer and the conflicts it opens). Many answers tie (most placements change no
/// score now); the fingerprint picks among them the same way in every visit without
/// favouring `legal`'s order.
fn best_by_greedy(
    state: &State,
    seat: Seat,
    actions: Vec<<Tae as Game>::Action>,
    limit: usize,
) -> Vec<<Tae as Game>::Action> {
    let mut scored: Vec<(Vec<u32>, u64, _)> = actions
        .into_iter()
        .filter_map(|a| evaluate(state, seat, &a).map(|key| (key, fingerprint(seat, &a), a)))
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(limit);
    scored.into_iter().map(|(_, _, a)| a).collect()
}

impl Guide<Tae> for TaeGuide {
    /// Below the root, listed on every visit: the best few of an evenly spaced sample
    /// of `legal` (ranking all of a few hundred answers costs about 2 ms).
    fn candidates(&self, state: &State, seat: Seat) -> Vec<<Tae as Game>::Action> {
        let legal = Tae::legal(state, seat);
        if legal.len() <= BRANCHING {
            return legal;
        }
        let step = legal.len().div_ceil(REPLY_SAMPLE);
        let sample: Vec<_> = legal.into_iter().step_by(step).collect();
        best_by_greedy(state, seat, sample, REPLY_BRANCHING)
    }

    /// At the root: the best [`BRANCHING`] of every legal answer.
    fn root_candidates(&self, state: &State, seat: Seat) -> Vec<<Tae as Game>::Action> {
        let legal = Tae::legal(state, seat);
        if legal.len() <= BRANCHING {
            return legal;
        }
        best_by_greedy(state, seat, legal, BRANCHING)
    }

    fn exploration(&self) -> f64 {
        EXPLORATION
    }

    /// The best of a few random answers by the greedy measure: cheap, and far less
    /// self-destructive than uniform play.
    fn rollout_action(
        &self,
        state: &State,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Option<<Tae as Game>::Action> {
        let legal = Tae::legal(state, seat);
        let mut best: Option<(Vec<u32>, <Tae as Game>::Action)> = None;
        for _ in 0..ROLLOUT_SAMPLES {
            let action = legal.choose(rng)?;
            let Some(key) = evaluate(state, seat, action) else {
                continue;
            };
            if best.as_ref().is_none_or(|(k, _)| key > *k) {
                best = Some((key, action.clone()));
            }
        }
        best.map(|(_, a)| a).or_else(|| legal.choose(rng).cloned())
    }

    fn rollout_depth(&self, _state: &State) -> usize {
        ROLLOUT_DEPTH
    }

    fn evaluate(&self, state: &State) -> Option<Vec<f64>> {
        let scores: Vec<f64> = (0..state.players().len())
            .map(|seat| value(state, seat))
            .collect();
        Some(margin_rewards(&scores, MARGIN_SCALE))
    }
}

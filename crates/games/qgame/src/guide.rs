//! Q-Game: the tree considers the best few turns by immediate points, rollouts play
//! the course's `dag` strategy for a round, and positions are scored by point margin.
//!
//! `legal` lists single-tile placements only (plus pass and replace), and a random
//! Q-Game runs to about a thousand decisions at a fifth of a millisecond each, so an
//! uninformed search would neither find multi-tile turns nor ever finish a rollout.

use crate::bots::points;
use crate::{Action, Qgame, State, Strategy};
use arbiter_engine::guide::fingerprint;
use arbiter_engine::guide::margin_rewards;
use arbiter_engine::Guide;
use arbiter_engine::{Game, GameRng, Seat};

/// Moves the tree considers at the root.
const BRANCHING: usize = 8;
/// Moves it considers below the root.
const REPLY_BRANCHING: usize = 2;
/// A point margin of this size is worth about three quarters of a win (totals so far
/// are in the margin, so a small scale would saturate in a lopsided game).
const MARGIN_SCALE: f64 = 60.0;
/// UCB exploration (see [`Guide::exploration`]).
const EXPLORATION: f64 = 0.2;

pub struct QgameGuide;

/// The `limit` best of `legal` plus the `dag` and `ldasg` whole turns, by immediate
/// points.
fn best_turns(state: &State, seat: Seat, limit: usize) -> Vec<Action> {
    let mut options = Qgame::legal(state, seat);
    if options.is_empty() {
        return options;
    }
    let hand = &state.players[seat].hand;
    for strategy in [Strategy::Dag, Strategy::Ldasg] {
        let turn = strategy.turn(&state.map, hand, state.pile.len());
        if matches!(&turn, Action::Place(p) if p.len() > 1) && !options.contains(&turn) {
            options.push(turn);
        }
    }
    let mut scratch = state.map.clone();
    // Ties (many single tiles score alike) are broken by fingerprint: the same in
    // every visit, without favouring `legal`'s order.
    let mut scored: Vec<(i64, u64, Action)> = options
        .into_iter()
        .map(|a| {
            (
                points(state, seat, &a, &mut scratch),
                fingerprint(seat, &a),
                a,
            )
        })
        .filter(|(p, _, _)| *p > i64::MIN)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(limit);
    scored.into_iter().map(|(_, _, a)| a).collect()
}

impl Guide<Qgame> for QgameGuide {
    /// Below the root: the other seats' (and later our own) best few turns by
    /// immediate points, so the search learns quickly what the best reply to each of
    /// the bot's moves is worth over the hands they might hold.
    fn candidates(&self, state: &State, seat: Seat) -> Vec<Action> {
        best_turns(state, seat, REPLY_BRANCHING)
    }

    /// At the root: `legal` plus the `dag` and `ldasg` whole turns, best immediate
    /// points first, cut to [`BRANCHING`].
    fn root_candidates(&self, state: &State, seat: Seat) -> Vec<Action> {
        best_turns(state, seat, BRANCHING)
    }

    fn exploration(&self) -> f64 {
        EXPLORATION
    }

    fn rollout_action(&self, state: &State, seat: Seat, _rng: &mut GameRng) -> Option<Action> {
        let player = state.players.get(seat)?;
        Some(Strategy::Dag.turn(&state.map, &player.hand, state.pile.len()))
    }

    /// One more turn for every seat.
    fn rollout_depth(&self, state: &State) -> usize {
        state.players.len()
    }

    fn evaluate(&self, state: &State) -> Option<Vec<f64>> {
        let scores: Vec<f64> = state
            .players
            .iter()
            .map(|p| {
                if p.ejected.is_some() {
                    -1e6
                } else {
                    f64::from(p.score)
                }
            })
            .collect();
        Some(margin_rewards(&scores, MARGIN_SCALE))
    }
}

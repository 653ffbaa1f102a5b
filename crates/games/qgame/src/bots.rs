//! Built-in Q-Game players: the course strategies, a random player and a greedy one.

use arbiter_engine::bot::RandomBot;
use arbiter_engine::{seeded_rng, Bot, Game, GameRng, Seat};
use rand::Rng;

use crate::action::Action;
use crate::game::Qgame;
use crate::map::Map;
use crate::placement::validate_placements;
use crate::scoring::score_tentatively;
use crate::state::State;
use crate::strategy::Strategy;

pub const BOT_NAMES: &[&str] = &["dag", "ldasg", "random", "greedy"];

/// A bot by name, seeded.
pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Qgame>>> {
    match name {
        "dag" => Some(Box::new(StrategyBot(Strategy::Dag))),
        "ldasg" => Some(Box::new(StrategyBot(Strategy::Ldasg))),
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" => Some(Box::new(GreedyBot {
            rng: seeded_rng(seed),
        })),
        _ => None,
    }
}

/// Plays a course strategy, iterated over the whole turn.
pub struct StrategyBot(pub Strategy);

impl Bot<Qgame> for StrategyBot {
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        let hand = &state.players[seat].hand;
        self.0.turn(&state.map, hand, state.pile.len())
    }
}

/// The highest-scoring action among the legal sample plus the `dag` and `ldasg`
/// whole-turn placements (finish bonus included); ties are
/// broken by its seeded generator. Passing ranks below an exchange, so it
/// exchanges rather than passes when nothing scores and the pile allows.
pub struct GreedyBot {
    rng: GameRng,
}

impl Bot<Qgame> for GreedyBot {
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        let mut best: Vec<Action> = Vec::new();
        let mut best_points = i64::MIN;
        let mut scratch = state.map.clone();
        let hand = &state.players[seat].hand;
        let mut options = Qgame::legal(state, seat);
        for strategy in [Strategy::Dag, Strategy::Ldasg] {
            let turn = strategy.turn(&state.map, hand, state.pile.len());
            if matches!(&turn, Action::Place(p) if p.len() > 1) {
                options.push(turn);
            }
        }
        for action in options {
            let points = points(state, seat, &action, &mut scratch);
            if points > best_points {
                best_points = points;
                best.clear();
            }
            if points == best_points {
                best.push(action);
            }
        }
        if best.is_empty() {
            return Action::Pass;
        }
        let pick = self.rng.random_range(0..best.len());
        best.swap_remove(pick)
    }
}

/// Points of `action` now (finish bonus included), tried on `scratch` (a copy of the
/// map). Pass scores below replace, so greedy players and the search prefer a fresh hand
/// to doing nothing when nothing scores. Shared by `greedy` and the search guide.
pub(crate) fn points(state: &State, seat: Seat, action: &Action, scratch: &mut Map) -> i64 {
    match action {
        Action::Pass => -1,
        Action::Replace => 0,
        Action::Place(placements) => {
            let hand = &state.players[seat].hand;
            if validate_placements(&state.map, hand, placements).is_err() {
                return i64::MIN;
            }
            let finish = if placements.len() == hand.len() {
                state.fbo
            } else {
                0
            };
            i64::from(score_tentatively(scratch, placements, state.qbo) + finish)
        }
    }
}

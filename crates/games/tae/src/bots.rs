//! Built-in players.
//!
//! - `random`: uniform over [`crate::game::legal`] (the engine's generic bot).
//! - `greedy`: the best *immediate* gain by the game's own score. Every legal answer is
//!   tried on a copy of the (determinized) state; the conflicts it opens are played out
//!   at once with simple policies (an attacker commits every matching colonist, a
//!   defender the fewest that hold, or none if it cannot hold), and so is the end of the
//!   turn if the answer ends it (harvest, refill). The answer that leaves the bot's own
//!   score key highest wins — the key is the game's tie-break order: levelled resources
//!   sorted lowest first, so any gain counts and gains in the weakest resource count
//!   most. Among equals the bot keeps its pieces (fewest colonists committed or
//!   swapped, bombers kept), then the seeded ChaCha generator picks.

use rand::seq::IndexedRandom;

use arbiter_engine::bot::RandomBot;
use arbiter_engine::{seeded_rng, Bot, GameRng, Seat};

use crate::actions::Action;
use crate::flow;
use crate::game::{legal, Tae};
use crate::score::score_key;
use crate::state::{Phase, State};

pub const BOT_NAMES: &[&str] = &["random", "greedy"];

pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Tae>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" => Some(Box::new(GreedyBot::new(seed))),
        _ => None,
    }
}

pub struct GreedyBot {
    rng: GameRng,
}

impl GreedyBot {
    pub fn new(seed: u64) -> Self {
        GreedyBot {
            rng: seeded_rng(seed),
        }
    }
}

/// Pieces an answer spends for nothing on the board (a tie-breaker: lower is better).
fn cost(action: &Action) -> u32 {
    match action {
        Action::Commit { count } => *count,
        Action::Swap { tiles } => tiles.total(),
        Action::Bomb { .. } => 3,
        _ => 0,
    }
}

/// Play out the prompts an answer opened, with fixed policies, until someone owes a
/// turn action again or the game ends.
fn settle(state: &mut State) {
    for _ in 0..64 {
        let Some(seat) = flow::to_act(state).seats().first().copied() else {
            return;
        };
        let action = match &state.phase {
            Phase::Act | Phase::Over(_) => return,
            Phase::Conflicts(c) => match &c.battle {
                Some(b) => {
                    let held = state.players[seat].hand.get(b.support_kind());
                    match b.attacker_total() {
                        None => Action::Commit { count: held },
                        Some(total) => {
                            let need = total.saturating_sub(b.defender_base);
                            Action::Commit {
                                count: if need <= held { need } else { 0 },
                            }
                        }
                    }
                }
                None => Action::Pass,
            },
            Phase::Harvest { .. } => Action::Pass,
        };
        if flow::apply(state, seat, &action).is_err() {
            return;
        }
    }
}

/// The bot's own score key after `action` and the prompts it opens.
pub fn evaluate(state: &State, seat: Seat, action: &Action) -> Option<Vec<u32>> {
    let mut next = state.clone();
    flow::apply(&mut next, seat, action).ok()?;
    settle(&mut next);
    let player = next.player(seat)?;
    Some(score_key(&player.resources, player.artifacts))
}

impl Bot<Tae> for GreedyBot {
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        let mut best: Vec<Action> = Vec::new();
        let mut best_key: Option<(Vec<u32>, i64)> = None;
        for action in legal(state, seat) {
            let Some(score) = evaluate(state, seat, &action) else {
                continue;
            };
            let key = (score, -i64::from(cost(&action)));
            match &best_key {
                Some(b) if *b > key => {}
                Some(b) if *b == key => best.push(action),
                _ => {
                    best_key = Some(key);
                    best = vec![action];
                }
            }
        }
        best.choose(&mut self.rng).cloned().unwrap_or_default()
    }
}

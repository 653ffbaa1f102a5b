//! Built-in Secret Nim players. A bot sees a determinized state: its own card, and
//! stand-ins for everyone else's.

use arbiter_engine::bot::RandomBot;
use arbiter_engine::{Bot, Game, Seat};

use crate::action::{Action, Take};
use crate::game::Nim;
use crate::state::State;

/// Every ruleset offers `random` and `greedy` (the lobby and the tests count on both).
pub const BOT_NAMES: &[&str] = &["random", "greedy"];

/// A bot by name, seeded.
pub fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Nim>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "greedy" => Some(Box::new(NimSum)),
        _ => None,
    }
}

/// `greedy`: classic Nim play: leave heaps whose XOR is zero when it can (a lost position for
/// the next player in plain two-player Nim), spend its double only when that wins at
/// once, and otherwise take one stone from the largest heap.
pub struct NimSum;

impl Bot<Nim> for NimSum {
    fn decide(&mut self, state: &State, seat: Seat) -> Action {
        let legal = Nim::legal(state, seat);
        let wins_now = |action: &&Action| {
            let mut after = state.clone();
            Nim::apply(&mut after, seat, action).is_ok() && after.winner == Some(seat)
        };
        if let Some(winning) = legal.iter().find(wins_now) {
            return winning.clone();
        }
        let sum = state.heaps.iter().fold(0, |acc, h| acc ^ h);
        let balancing = state.heaps.iter().enumerate().find_map(|(heap, &left)| {
            let target = left ^ sum;
            (sum != 0 && target < left).then(|| Take {
                heap,
                count: left - target,
            })
        });
        let fallback = || {
            let (heap, _) = state
                .heaps
                .iter()
                .enumerate()
                .max_by_key(|&(i, &left)| (left, std::cmp::Reverse(i)))
                .unwrap_or((0, &0));
            Take { heap, count: 1 }
        };
        Action::Take(balancing.unwrap_or_else(fallback))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn nimsum_balances_the_heaps() {
        let mut state = Nim::new(
            &Config {
                heaps: vec![1, 2, 4],
            },
            2,
            3,
        )
        .unwrap();
        state.cards = vec![crate::Card::Plain; 2];
        let action = NimSum.decide(&state, 0);
        assert_eq!(action, Action::Take(Take { heap: 2, count: 1 }));
    }

    #[test]
    fn every_name_builds_a_bot() {
        for name in BOT_NAMES {
            assert!(bot(name, 1).is_some(), "{name}");
        }
        assert!(bot("nobody", 1).is_none());
    }
}

//! Who owes a decision now, and under which turn model.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::game::Seat;
use crate::rng::GameRng;

/// The three turn models of the design, plus the end of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "model", content = "seats", rename_all = "snake_case")]
pub enum Turn {
    /// Exactly one seat must act (sequential play, including a conflict prompt
    /// addressed to a defender).
    One(Seat),
    /// Every listed seat must submit a sealed decision; nothing of a pending decision is
    /// visible to the others until all are in (simultaneous ticks).
    Sealed(Vec<Seat>),
    /// Any listed seat may act; actions apply in arrival order (concurrent play).
    AnyOf(Vec<Seat>),
    /// The game is over.
    Over,
}

impl Turn {
    /// Who a playout moves next: the one seat, the first still to seal, or one of
    /// those that may act drawn with `rng`; `None` once nobody can.
    pub fn playout_seat(&self, rng: &mut GameRng) -> Option<Seat> {
        match self {
            Turn::Over => None,
            Turn::One(seat) => Some(*seat),
            Turn::Sealed(waiting) => waiting.first().copied(),
            Turn::AnyOf(ready) if ready.is_empty() => None,
            Turn::AnyOf(ready) => Some(ready[rng.random_range(0..ready.len())]),
        }
    }

    /// The seats that may act now (borrowed: a referee asks on every move, and a copy
    /// was an allocation each time).
    pub fn seats(&self) -> &[Seat] {
        match self {
            Turn::One(seat) => std::slice::from_ref(seat),
            Turn::Sealed(seats) | Turn::AnyOf(seats) => seats,
            Turn::Over => &[],
        }
    }

    /// Whether `seat` may act now.
    pub fn includes(&self, seat: Seat) -> bool {
        match self {
            Turn::One(s) => *s == seat,
            Turn::Sealed(seats) | Turn::AnyOf(seats) => seats.contains(&seat),
            Turn::Over => false,
        }
    }

    pub fn is_over(&self) -> bool {
        matches!(self, Turn::Over)
    }

    /// Whether `seat`'s answer, given when this was the turn, left a sealed round open:
    /// this is `Sealed` with `seat` among its seats, and `after` (the turn once the
    /// answer is applied) is `Sealed` with exactly the others still to answer. Then,
    /// as `Sealed` promises, nothing of the answer shows to any other audience: a
    /// referee need not write their views again (the test battery checks the promise
    /// at every such answer).
    pub fn sealed_answer_left_open(&self, seat: Seat, after: &Turn) -> bool {
        let (Turn::Sealed(before), Turn::Sealed(after)) = (self, after) else {
            return false;
        };
        before.contains(&seat)
            && after.len() + 1 == before.len()
            && before.iter().filter(|&&s| s != seat).eq(after.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::Turn;

    #[test]
    fn a_sealed_answer_leaves_its_round_open_only_while_others_still_owe() {
        let both = Turn::Sealed(vec![0, 1]);
        assert!(both.sealed_answer_left_open(0, &Turn::Sealed(vec![1])));
        assert!(both.sealed_answer_left_open(1, &Turn::Sealed(vec![0])));
        let three = Turn::Sealed(vec![0, 1, 2]);
        assert!(three.sealed_answer_left_open(1, &Turn::Sealed(vec![0, 2])));

        // The round closed: a new one, or the game's end.
        assert!(!both.sealed_answer_left_open(0, &Turn::Sealed(vec![0, 1])));
        assert!(!Turn::Sealed(vec![1]).sealed_answer_left_open(1, &Turn::Sealed(vec![0, 1])));
        assert!(!both.sealed_answer_left_open(0, &Turn::Over));
        // Another seat left the round too (an answer that ended someone).
        assert!(!three.sealed_answer_left_open(1, &Turn::Sealed(vec![0])));
        // Not a sealed turn, or not the answering seat's.
        assert!(!Turn::One(0).sealed_answer_left_open(0, &Turn::One(1)));
        assert!(!Turn::AnyOf(vec![0, 1]).sealed_answer_left_open(0, &Turn::AnyOf(vec![1])));
        assert!(!Turn::Sealed(vec![1, 2]).sealed_answer_left_open(0, &Turn::Sealed(vec![2])));
    }
}

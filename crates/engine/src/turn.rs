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

    /// The seats that may act now.
    pub fn seats(&self) -> Vec<Seat> {
        match self {
            Turn::One(seat) => vec![*seat],
            Turn::Sealed(seats) | Turn::AnyOf(seats) => seats.clone(),
            Turn::Over => Vec::new(),
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
}

//! Who owes a decision now, and under which turn model.

use serde::{Deserialize, Serialize};

use crate::game::Seat;

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

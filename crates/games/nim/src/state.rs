//! Everything the referee knows, secrets included. It is serialized only for replay
//! digests; what a seat may see is [`crate::view`]'s business.

use serde::{Deserialize, Serialize};

use arbiter_engine::Seat;

/// A player's secret card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Card {
    /// May be spent once to take from two heaps in one turn.
    Double,
    /// Does nothing.
    Plain,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct State {
    pub heaps: Vec<u32>,
    /// Each seat's card; the secret of this game.
    pub cards: Vec<Card>,
    /// Whether each seat has spent its `double` (public once spent).
    pub spent: Vec<bool>,
    /// Why each seat was ejected, if it was.
    pub ejected: Vec<Option<String>>,
    /// The seat to move (meaningless once `winner` is set).
    pub next: Seat,
    /// Who took the last stone, or the last seat left.
    pub winner: Option<Seat>,
}

impl State {
    pub fn seats(&self) -> usize {
        self.cards.len()
    }

    pub fn stones(&self) -> u32 {
        self.heaps.iter().sum()
    }

    /// Whether `seat` can still spend a double.
    pub fn holds_double(&self, seat: Seat) -> bool {
        self.cards.get(seat) == Some(&Card::Double) && !self.spent[seat]
    }

    /// The next seat after `seat` still in the game (`seat` itself if it is the last).
    pub fn following(&self, seat: Seat) -> Seat {
        let n = self.seats();
        (1..=n)
            .map(|step| (seat + step) % n)
            .find(|&s| self.ejected[s].is_none())
            .unwrap_or(seat)
    }

    /// Seats not ejected.
    pub fn live_seats(&self) -> Vec<Seat> {
        (0..self.seats())
            .filter(|&s| self.ejected[s].is_none())
            .collect()
    }
}

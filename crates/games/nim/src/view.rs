//! What each audience may see, and the way back from a view to a state.
//!
//! A seat sees the heaps, whose turn it is, its own card, and of the others only
//! whether they have spent a double. Spectators see no card at all. When the game ends
//! every card is shown. Nothing else is secret, so a view is almost the state.

use serde::{Deserialize, Serialize};

use arbiter_engine::{GameRng, Seat};
use rand::Rng;

use crate::state::{Card, State};

/// A card as one audience sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardView {
    Double,
    Plain,
    /// A double, spent: everyone has seen it.
    Spent,
    /// Somebody else's unspent card.
    Hidden,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub heaps: Vec<u32>,
    /// Each seat's card as this audience sees it.
    pub cards: Vec<CardView>,
    pub ejected: Vec<Option<String>>,
    pub next: Seat,
    pub winner: Option<Seat>,
}

pub fn view(state: &State, audience: Option<Seat>) -> View {
    let over = state.winner.is_some();
    let cards = (0..state.seats())
        .map(|seat| {
            if state.spent[seat] {
                CardView::Spent
            } else if over || audience == Some(seat) {
                match state.cards[seat] {
                    Card::Double => CardView::Double,
                    Card::Plain => CardView::Plain,
                }
            } else {
                CardView::Hidden
            }
        })
        .collect();
    View {
        heaps: state.heaps.clone(),
        cards,
        ejected: state.ejected.clone(),
        next: state.next,
        winner: state.winner,
    }
}

/// A card nobody at the table has seen: a fair coin, as the deal was.
pub fn draw_card(rng: &mut GameRng) -> Card {
    if rng.random_bool(0.5) {
        Card::Double
    } else {
        Card::Plain
    }
}

/// The state `seat`'s view describes, every hidden card re-drawn.
pub fn state_from_view(view: &View, seat: Seat, rng: &mut GameRng) -> Result<State, String> {
    let seats = view.cards.len();
    if seat >= seats || view.ejected.len() != seats || view.next >= seats {
        return Err(format!("a view of {seats} seats cannot be seat {seat}'s"));
    }
    let mut cards = Vec::with_capacity(seats);
    let mut spent = Vec::with_capacity(seats);
    for (other, card) in view.cards.iter().enumerate() {
        let (card, was_spent) = match card {
            CardView::Double => (Card::Double, false),
            CardView::Plain => (Card::Plain, false),
            CardView::Spent => (Card::Double, true),
            CardView::Hidden if other == seat => {
                return Err(format!("seat {seat}'s own card is hidden: not its view"))
            }
            CardView::Hidden => (draw_card(rng), false),
        };
        cards.push(card);
        spent.push(was_spent);
    }
    Ok(State {
        heaps: view.heaps.clone(),
        cards,
        spent,
        ejected: view.ejected.clone(),
        next: view.next,
        winner: view.winner,
    })
}

//! What a seat or a spectator may see: the map, scores, hand sizes, the pile's size,
//! the round's progress, and only the seat's own hand. The pile order and other hands
//! never leave the state.

use arbiter_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::map::Map;
use crate::state::State;
use crate::tile::Tile;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub map: Map,
    /// Tiles left in the pile.
    pub pile: usize,
    pub players: Vec<PlayerView>,
    /// Seats in turn order, active first.
    pub turn_order: Vec<Seat>,
    pub to_act: Option<Seat>,
    /// Seats still to move in the current round (public: every turn is announced).
    pub round_left: Vec<Seat>,
    /// Whether anyone placed tiles this round (if nobody does, the round ends the game).
    pub placed_this_round: bool,
    /// Ejected seats in the order they were ejected.
    pub ejection_order: Vec<Seat>,
    /// The seat this view is for; absent for spectators.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<Seat>,
    pub over: bool,
    pub qbo: u32,
    pub fbo: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    pub name: String,
    pub score: u32,
    pub hand_size: usize,
    /// Only in the view of the seat itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Tile>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ejected: Option<String>,
}

pub fn view_of(state: &State, seat: Option<Seat>) -> View {
    View {
        map: state.map.clone(),
        pile: state.pile.len(),
        players: state
            .players
            .iter()
            .enumerate()
            .map(|(s, p)| PlayerView {
                name: p.name.clone(),
                score: p.score,
                hand_size: p.hand.len(),
                hand: (seat == Some(s)).then(|| p.hand.clone()),
                ejected: p.ejected.clone(),
            })
            .collect(),
        turn_order: state.queue.clone(),
        to_act: state.active(),
        round_left: state.round_left.clone(),
        placed_this_round: state.placed_this_round,
        ejection_order: state.ejection_order.clone(),
        you: seat,
        over: state.over,
        qbo: state.qbo,
        fbo: state.fbo,
    }
}

//! Listing a seat's legal actions (for bots and clients), and drawing one of them
//! without the list (for random playouts).

use rand::Rng;

use arbiter_engine::{GameRng, Seat};

use crate::actions::Action;
use crate::rules::check_may_act;
use crate::state::State;

/// Every move (each own ship to each neighbour) and build (each own planet the seat can
/// afford and may build on), then `end_turn` when `allow_pass` is on. Empty when the
/// seat may not act. `turn_timeout` and `resign` are legal then too but not listed.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if check_may_act(state, seat).is_err() {
        return Vec::new();
    }
    let mut actions = Vec::with_capacity(count(state, seat));
    actions.extend(in_order(state, seat));
    actions
}

/// What `legal_actions(..).choose(rng)` draws (one `random_range(..len)` over the
/// list's length, nothing drawn when it is empty), counted and indexed in the same
/// order without building the list.
pub fn random_action(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
    if check_may_act(state, seat).is_err() {
        return None;
    }
    match count(state, seat) {
        0 => None,
        len => in_order(state, seat).nth(rng.random_range(..len)),
    }
}

/// How many actions [`in_order`] yields, without building them.
fn count(state: &State, seat: Seat) -> usize {
    let board = state.board();
    let moves: usize = state
        .ships()
        .filter(|s| s.owner == seat)
        .map(|ship| board.neighbours[ship.planet].len())
        .sum();
    let builds = (0..state.planets().len())
        .filter(|&planet| state.can_build_on(seat, planet))
        .count();
    moves + builds + usize::from(state.config().allow_pass)
}

/// The list's actions in its order, for a seat that may act.
fn in_order(state: &State, seat: Seat) -> impl Iterator<Item = Action> + '_ {
    let board = state.board();
    let moves = state
        .ships()
        .filter(move |s| s.owner == seat)
        .flat_map(move |ship| {
            board.neighbours[ship.planet]
                .iter()
                .map(move |&planet| Action::MoveShip {
                    ship: ship.id,
                    planet,
                })
        });
    let builds = (0..state.planets().len())
        .filter(move |&planet| state.can_build_on(seat, planet))
        .map(|planet| Action::BuildShip { planet });
    let pass = state.config().allow_pass.then_some(Action::EndTurn);
    moves.chain(builds).chain(pass)
}

//! Listing a seat's legal actions (for bots and clients).

use arbiter_engine::Seat;

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
    let mut actions = Vec::new();
    for ship in state.ships().filter(|s| s.owner == seat) {
        for &planet in &state.board().neighbours[ship.planet] {
            actions.push(Action::MoveShip {
                ship: ship.id,
                planet,
            });
        }
    }
    for planet in 0..state.planets().len() {
        if state.can_build_on(seat, planet) {
            actions.push(Action::BuildShip { planet });
        }
    }
    if state.config().allow_pass {
        actions.push(Action::EndTurn);
    }
    actions
}

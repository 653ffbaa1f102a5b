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
        len => nth(state, seat, rng.random_range(..len)),
    }
}

/// `in_order(state, seat).nth(index)`, stepping over a ship's moves and over the
/// buildable planets by counting rather than through the chained iterators (which
/// were a tenth of a random game).
fn nth(state: &State, seat: Seat, mut index: usize) -> Option<Action> {
    let board = state.board();
    for ship in state.ships().filter(|s| s.owner == seat) {
        let targets = &board.neighbours[ship.planet];
        if let Some(&planet) = targets.get(index) {
            return Some(Action::MoveShip {
                ship: ship.id,
                planet,
            });
        }
        index -= targets.len();
    }
    for planet in 0..state.planets().len() {
        if state.can_build_on(seat, planet) {
            if index == 0 {
                return Some(Action::BuildShip { planet });
            }
            index -= 1;
        }
    }
    (index == 0 && state.config().allow_pass).then_some(Action::EndTurn)
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

#[cfg(test)]
mod tests {
    use arbiter_engine::{seeded_rng, Game, Turn};
    use rand::seq::IndexedRandom;

    use super::*;
    use crate::config::Config;
    use crate::game::SpaceCrack;

    /// At every decision of random games, with and without `end_turn` listed, the
    /// counted index gives the listed action at every index, and nothing past the end.
    #[test]
    fn nth_is_the_listed_action_at_every_index() {
        for (allow_pass, seats, seed) in [(true, 2, 1), (false, 3, 2), (true, 4, 3)] {
            let config = Config {
                allow_pass,
                ..Config::default()
            };
            let mut state = SpaceCrack::new(&config, seats, seed).expect("a valid config");
            let mut rng = seeded_rng(seed);
            let mut checked = 0;
            loop {
                let seat = match SpaceCrack::to_act(&state) {
                    Turn::One(seat) => seat,
                    Turn::AnyOf(seats) => seats[0],
                    _ => break,
                };
                let listed = legal_actions(&state, seat);
                for (index, action) in listed.iter().enumerate() {
                    assert_eq!(nth(&state, seat, index).as_ref(), Some(action));
                }
                assert_eq!(nth(&state, seat, listed.len()), None);
                assert_eq!(count(&state, seat), listed.len());
                checked += listed.len();
                let action = listed
                    .choose(&mut rng)
                    .cloned()
                    .expect("a seat to act has actions");
                SpaceCrack::apply(&mut state, seat, &action).expect("a listed action is legal");
            }
            assert!(checked > 100, "only {checked} actions checked");
        }
    }
}

//! Listing a seat's legal actions (for bots and clients), and drawing one of them
//! without the list (for random playouts).

use std::ops::ControlFlow;

use rand::Rng;

use arbiter_engine::{GameRng, Seat};

use crate::actions::Action;
use crate::board::PlanetId;
use crate::rules::check_may_act;
use crate::state::{ShipId, State};

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

/// The list's action at `index`: runs are stepped over by their length, so a ship's
/// moves and each buildable planet cost one step, not one per action (walking every
/// action was a tenth of a random game).
fn nth(state: &State, seat: Seat, index: usize) -> Option<Action> {
    // `try_fold` rather than a `for` loop: the chained runs are then walked one part
    // after the other, not asked at each step which part they are in (a `for` loop
    // made random games a sixth slower).
    runs(state, seat)
        .try_fold(index, |index, run| match index.checked_sub(run.len()) {
            Some(rest) => ControlFlow::Continue(rest),
            None => ControlFlow::Break(run.get(index)),
        })
        .break_value()
        .flatten()
}

/// How many actions the list holds, without building them.
fn count(state: &State, seat: Seat) -> usize {
    runs(state, seat).map(|run| run.len()).sum()
}

/// The list's actions in its order, for a seat that may act.
fn in_order(state: &State, seat: Seat) -> impl Iterator<Item = Action> + '_ {
    runs(state, seat).flat_map(|run| (0..run.len()).filter_map(move |index| run.get(index)))
}

/// The list in its order as runs of actions: each own ship's moves (in ship order, to
/// its neighbours in board order), then a build on each planet the seat may build on
/// (in planet order), then `end_turn` when `allow_pass` is on. Listing, counting and
/// indexing all walk these runs, so the order is written here once.
fn runs(state: &State, seat: Seat) -> impl Iterator<Item = Run<'_>> + '_ {
    let board = state.board();
    let moves = state
        .ships()
        .filter(move |ship| ship.owner == seat)
        .map(move |ship| Run::Moves {
            ship: ship.id,
            targets: &board.neighbours[ship.planet],
        });
    let builds = (0..state.planets().len())
        .filter(move |&planet| state.can_build_on(seat, planet))
        .map(|planet| Run::Build { planet });
    let pass = state.config().allow_pass.then_some(Run::Pass);
    moves.chain(builds).chain(pass)
}

/// Consecutive actions of the list that share their kind and, for moves, their ship.
enum Run<'s> {
    Moves {
        ship: ShipId,
        targets: &'s [PlanetId],
    },
    Build {
        planet: PlanetId,
    },
    Pass,
}

impl Run<'_> {
    fn len(&self) -> usize {
        match self {
            Run::Moves { targets, .. } => targets.len(),
            Run::Build { .. } | Run::Pass => 1,
        }
    }

    fn get(&self, index: usize) -> Option<Action> {
        match *self {
            Run::Moves { ship, targets } => targets
                .get(index)
                .map(|&planet| Action::MoveShip { ship, planet }),
            Run::Build { planet } => (index == 0).then_some(Action::BuildShip { planet }),
            Run::Pass => (index == 0).then_some(Action::EndTurn),
        }
    }
}

#[cfg(test)]
mod tests {
    use arbiter_engine::{seeded_rng, Game, Turn};
    use rand::seq::IndexedRandom;

    use super::*;
    use crate::config::Config;
    use crate::game::SpaceCrack;

    /// The list as the rules page states it, with plain loops: an oracle for the runs.
    fn by_definition(state: &State, seat: Seat) -> Vec<Action> {
        let mut actions = Vec::new();
        for ship in state.ships() {
            if ship.owner == seat {
                for &planet in &state.board().neighbours[ship.planet] {
                    actions.push(Action::MoveShip {
                        ship: ship.id,
                        planet,
                    });
                }
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

    /// At every decision of random games, with and without `end_turn` listed, the list
    /// is the one the rules state, and the counted index gives the listed action at
    /// every index, and nothing past the end.
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
                assert_eq!(listed, by_definition(&state, seat));
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

//! Fast random playouts: no recording, no digests. For benchmarks and search.

use rand::seq::IndexedRandom;
use rand::Rng;

use crate::game::{ConfigError, Game, Seat};
use crate::outcome::Outcome;
use crate::rng::GameRng;
use crate::turn::Turn;

/// Play uniformly random legal actions from a fresh game until it ends (or
/// `max_decisions` is reached); returns the outcome and the number of decisions.
pub fn random_playout<G: Game>(
    config: &G::Config,
    seats: usize,
    seed: u64,
    rng: &mut GameRng,
    max_decisions: usize,
) -> Result<(Option<Outcome>, usize), ConfigError> {
    let mut state = G::new(config, seats, seed)?;
    let mut decisions = 0;
    while decisions < max_decisions {
        let seat: Seat = match G::to_act(&state) {
            Turn::Over => break,
            Turn::Sealed(seats) | Turn::AnyOf(seats) if seats.is_empty() => break,
            Turn::One(seat) => seat,
            Turn::Sealed(waiting) => waiting[0],
            Turn::AnyOf(ready) => ready[rng.random_range(0..ready.len())],
        };
        let legal = G::legal(&state, seat);
        let applied = match legal.choose(rng) {
            Some(action) => G::apply(&mut state, seat, action).is_ok(),
            None => false,
        };
        if !applied {
            G::eject(&mut state, seat, "no legal action");
        }
        decisions += 1;
    }
    Ok((G::outcome(&state), decisions))
}

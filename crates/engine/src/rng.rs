//! The one random number generator every ruleset uses.
//!
//! ChaCha8 is named explicitly (never `StdRng`, whose algorithm may change between
//! releases of `rand`) so that a seed gives the same game on every machine and version.

use rand::SeedableRng;

/// The seeded generator owned by game states and bots.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// A generator from a 64-bit match seed.
pub fn seeded_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

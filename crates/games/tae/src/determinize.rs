//! Information-set sampling: a state consistent with everything one seat knows.
//!
//! The seat knows the board, every public count, its own hand, resources and discards.
//! It does not know the other hands, the other seats' swapped-out colonists, the bag's
//! order or the other seats' resources. The unseen colonists (bag + other hands + other
//! discards) form one multiset the seat *can* compute from public information, so it is
//! shuffled and dealt back into the same public counts. Other seats' resources cannot be
//! inferred from the state alone and are set to zero.
//!
//! The pool is built in canonical (sorted) order before shuffling, so two states that
//! differ only in secrets the seat does not know determinize identically from the same
//! generator: nothing of those secrets reaches a bot.

use rand::seq::SliceRandom;

use arbiter_engine::{GameRng, Seat};

use crate::kind::{Resources, Tiles};
use crate::state::State;

pub fn determinize(state: &State, seat: Seat, rng: &mut GameRng) -> State {
    let mut out = state.clone();
    if state.is_over() || seat >= state.players.len() {
        return out;
    }
    let others: Vec<Seat> = (0..state.players.len()).filter(|&s| s != seat).collect();
    let mut unseen = Tiles::from_kinds(&state.bag);
    for &s in &others {
        unseen.add(&state.players[s].hand);
        unseen.add(&state.players[s].discarded);
    }
    let mut pool = unseen.to_kinds();
    pool.shuffle(rng);
    for &s in &others {
        let player = &mut out.players[s];
        let hand_n = player.hand.total() as usize;
        let discard_n = player.discarded.total() as usize;
        let hand: Vec<_> = pool.drain(pool.len().saturating_sub(hand_n)..).collect();
        let discarded: Vec<_> = pool.drain(pool.len().saturating_sub(discard_n)..).collect();
        player.hand = Tiles::from_kinds(&hand);
        player.discarded = Tiles::from_kinds(&discarded);
        player.resources = Resources::default();
    }
    out.bag = pool;
    out
}

//! How many games a network bot plays: a number of its own, or seats drawn from a pool
//! that several bots share.
//!
//! Why a pool: bots that each want a fixed number of games can leave the last of them
//! needing a game when every other bot is done (a player never meets itself), and it
//! waits for ever. Bots that take a seat from one pool each time they queue, and leave
//! once it is empty and their own matches are over, always finish: the seats still
//! waiting then belong to different bots, and pair. The load benchmark's clients share
//! one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The games a bot plays (see the module doc).
#[derive(Debug, Clone)]
pub enum Games {
    /// This many games, finished or aborted.
    Exactly(u32),
    /// A game per seat taken from the shared pool, until it is empty.
    FromPool(SeatPool),
    /// Enter this tournament and play every game it pairs the bot into, until it ends.
    Tournament(i64),
}

/// Seats of games not yet queued for, shared between bots. Cheap to clone: clones share
/// the count.
#[derive(Debug, Clone)]
pub struct SeatPool(Arc<AtomicU64>);

impl SeatPool {
    /// A pool of `seats` seats (two a two-player game).
    pub fn new(seats: u64) -> Self {
        SeatPool(Arc::new(AtomicU64::new(seats)))
    }

    /// Take one seat; false when the pool is empty.
    pub fn take(&self) -> bool {
        self.0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(1)
            })
            .is_ok()
    }

    /// Seats not yet taken.
    pub fn left(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_seats_and_the_last_take_empties_the_pool() {
        let pool = SeatPool::new(2);
        let other = pool.clone();
        assert!(pool.take());
        assert!(other.take());
        assert!(!pool.take());
        assert!(!other.take());
        assert_eq!(pool.left(), 0);
    }
}

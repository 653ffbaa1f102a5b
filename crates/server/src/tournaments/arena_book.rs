//! An arena's running tally, kept in memory by its director so that pairing whoever is
//! free costs a sort of the waiting entrants, not a read of every game played so far:
//! each entrant's points, last opponent and seat balance, and who is playing now. It is
//! built once from the stored records (when the arena starts, or after a restart) and
//! kept up to date as the director pairs and records games; the store stays the truth
//! the standings are read from.

use std::collections::{HashMap, HashSet};

use arbiter_store::{AccountId, EntrantStatus, TournamentEntrant};
use arbiter_tournament::{arena, game_points, HalfPoints};

use super::state::Snapshot;

#[derive(Debug, Default)]
pub struct ArenaBook {
    /// Active entrants and their ratings, in joining order.
    active: Vec<(AccountId, f64)>,
    points: HashMap<AccountId, HalfPoints>,
    last_opponent: HashMap<AccountId, AccountId>,
    /// Games in seat 0 minus games in seat 1.
    balance: HashMap<AccountId, i32>,
    playing: HashSet<AccountId>,
}

impl ArenaBook {
    /// The tally of the games stored so far (in the order they were paired).
    pub fn from_snapshot(snapshot: &Snapshot) -> ArenaBook {
        let mut book = ArenaBook::default();
        book.set_entrants(&snapshot.entrants);
        for game in &snapshot.games {
            book.paired(&game.seats);
            if let Some(ranks) = &game.ranks {
                book.decided(&game.seats, ranks);
            }
        }
        book
    }

    /// Who is in the arena now and wants games (joins, withdrawals and pauses since the
    /// last look).
    pub fn set_entrants(&mut self, entrants: &[TournamentEntrant]) {
        self.active = entrants
            .iter()
            .filter(|e| e.status == EntrantStatus::Active && !e.paused)
            .map(|e| (e.account_id, e.rating))
            .collect();
    }

    /// A game was paired with these seats (in seat order): they are playing.
    pub fn paired(&mut self, seats: &[AccountId]) {
        if let [first, second] = seats[..] {
            *self.balance.entry(first).or_default() += 1;
            *self.balance.entry(second).or_default() -= 1;
            self.last_opponent.insert(first, second);
            self.last_opponent.insert(second, first);
        }
        self.playing.extend(seats.iter().copied());
    }

    /// A game with these seats ended with `ranks`: its points count, and its players
    /// are free.
    pub fn decided(&mut self, seats: &[AccountId], ranks: &[u8]) {
        if ranks.len() == seats.len() {
            for (seat, points) in seats.iter().zip(game_points(ranks)) {
                *self.points.entry(*seat).or_default() += points;
            }
        }
        for seat in seats {
            self.playing.remove(seat);
        }
    }

    /// Whether anyone is still playing.
    pub fn anyone_playing(&self) -> bool {
        !self.playing.is_empty()
    }

    /// The entrants free to be paired: active, not playing, and `present` (connected).
    pub fn waiting(&self, present: impl Fn(AccountId) -> bool) -> Vec<arena::Waiting> {
        self.active
            .iter()
            .filter(|(id, _)| !self.playing.contains(id) && present(*id))
            .map(|&(id, rating)| arena::Waiting {
                id,
                points: self.points.get(&id).copied().unwrap_or_default(),
                rating,
                last_opponent: self.last_opponent.get(&id).copied(),
                balance: self.balance.get(&id).copied().unwrap_or(0),
            })
            .collect()
    }
}

//! The active field as the pairing functions see it: each active entrant's points,
//! byes and seat history, ranked best first, and who has met whom.
//!
//! Swiss and pools pairing read the same facts from the same records, so they are
//! derived here once. Every game in the records counts as history, whatever its round.

use std::collections::HashMap;

use crate::points::{game_points, BYE};
use crate::{ByeRecord, Entrant, EntrantId, GameRecord};

/// What the records say about one active entrant.
#[derive(Debug, Clone)]
pub(crate) struct Player {
    pub id: EntrantId,
    pub rating: f64,
    /// Half-points from finished games (forfeits included) and byes.
    pub points: u32,
    pub byes: u32,
    /// Two-seat games played in seat 0 minus two-seat games played in seat 1.
    pub balance: i32,
    /// Seats in the last two played two-seat games, newest first.
    pub recent: [Option<u8>; 2],
    /// Played games (any number of seats) in which it had seat 0.
    pub first_seats: u32,
    /// Σ over played games of `2·seat − (seats − 1)`: above zero when it sat late more
    /// often than early.
    pub lateness: i64,
}

/// The active entrants, ranked, with their meetings.
pub(crate) struct Field {
    /// Best first: points descending, rating descending, id ascending.
    pub ranked: Vec<Player>,
    /// Earlier played (non-forfeit) games between two entrants, keyed smaller id first.
    met: HashMap<(EntrantId, EntrantId), u32>,
}

impl Field {
    /// The active entrants of `entrants` (the first of any repeated id), with what
    /// `games` and `byes` say about them. A game counts as played, for meetings and
    /// seats, when it is not a forfeit, running games included (their entrants are
    /// meeting now); it scores when it has ranks of the right length.
    pub fn active(entrants: &[Entrant], games: &[GameRecord], byes: &[ByeRecord]) -> Field {
        let mut slot: HashMap<EntrantId, usize> = HashMap::new();
        let mut players = Vec::new();
        for entrant in entrants {
            if entrant.active && !slot.contains_key(&entrant.id) {
                slot.insert(entrant.id, players.len());
                players.push(Player {
                    id: entrant.id,
                    rating: entrant.rating,
                    points: 0,
                    byes: 0,
                    balance: 0,
                    recent: [None, None],
                    first_seats: 0,
                    lateness: 0,
                });
            }
        }
        // Seat history is read in round order; records of one round keep their order.
        let mut order: Vec<&GameRecord> = games.iter().collect();
        order.sort_by_key(|game| game.round);
        let mut met = HashMap::new();
        for game in order {
            if let Some(ranks) = game.ranks.as_ref().filter(|r| r.len() == game.seats.len()) {
                for (id, points) in game.seats.iter().zip(game_points(ranks)) {
                    if let Some(&s) = slot.get(id) {
                        players[s].points += points.0;
                    }
                }
            }
            if game.forfeit {
                continue;
            }
            let size = game.seats.len();
            for (seat, id) in game.seats.iter().enumerate() {
                let Some(&s) = slot.get(id) else { continue };
                let player = &mut players[s];
                player.lateness += 2 * seat as i64 - (size as i64 - 1);
                if seat == 0 {
                    player.first_seats += 1;
                }
                if size == 2 {
                    player.balance += if seat == 0 { 1 } else { -1 };
                    player.recent = [Some(seat as u8), player.recent[0]];
                }
            }
            for (i, &a) in game.seats.iter().enumerate() {
                for &b in &game.seats[i + 1..] {
                    if a != b && slot.contains_key(&a) && slot.contains_key(&b) {
                        *met.entry(key(a, b)).or_insert(0) += 1;
                    }
                }
            }
        }
        for bye in byes {
            if let Some(&s) = slot.get(&bye.entrant) {
                players[s].points += BYE.0;
                players[s].byes += 1;
            }
        }
        players.sort_by(|a, b| {
            b.points
                .cmp(&a.points)
                .then(b.rating.total_cmp(&a.rating))
                .then(a.id.cmp(&b.id))
        });
        Field {
            ranked: players,
            met,
        }
    }

    /// How many times the entrants ranked `a` and `b` have played each other.
    pub fn met(&self, a: usize, b: usize) -> u32 {
        let key = key(self.ranked[a].id, self.ranked[b].id);
        self.met.get(&key).copied().unwrap_or(0)
    }
}

fn key(a: EntrantId, b: EntrantId) -> (EntrantId, EntrantId) {
    (a.min(b), a.max(b))
}

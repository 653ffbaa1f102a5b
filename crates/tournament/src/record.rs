//! What a tournament remembers, and what a pairing hands back.
//!
//! The pairing and standings functions are pure functions of these records, so these
//! are all the server has to store about a tournament's progress: who entered (and
//! whether they still play), every game with its seats and result, and every bye.

use serde::{Deserialize, Serialize};

/// An entrant: the account id of the person or bot that entered.
pub type EntrantId = i64;

/// How a tournament's rounds are made.
///
/// The number of seats at a table is a separate setting: a Swiss tournament of 3–4
/// seats is paired as pools ([`crate::pools::pair`]), a round-robin of 3–4 seats plays
/// every table of its field once ([`crate::pools::round_robin`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// A fixed number of rounds; each round pairs entrants of similar score who have
    /// not met ([`crate::swiss`], [`crate::pools`]).
    Swiss,
    /// Entrants pair continuously for a fixed time: whoever is waiting is paired with
    /// someone near in score ([`crate::arena`]).
    Arena,
    /// Everyone meets everyone ([`crate::round_robin`], [`crate::pools::round_robin`]).
    RoundRobin,
}

/// One entrant as the pairing sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    pub id: EntrantId,
    /// The rating at entry: ranks entrants of equal points, and seeds the first round.
    pub rating: f64,
    /// False for an entrant who withdrew or paused: never paired, still in the
    /// standings.
    pub active: bool,
}

/// One game of the tournament, running or finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The round it was paired in (1-based). Arena games may all share one round.
    pub round: u32,
    /// The entrants in seat order: `seats[0]` moves first.
    pub seats: Vec<EntrantId>,
    /// Each seat's place, 1 = best, tied seats equal ([`crate::LEFT`] for a seat its
    /// player left to the house bot); the same length as `seats`.
    /// `None` while the game runs: a running game scores nothing.
    pub ranks: Option<Vec<u8>>,
    /// Decided without play (someone never showed): it scores like a played game, but
    /// its entrants have not met (they may be paired again), and it counts for neither
    /// seat balance nor tie-breaks.
    pub forfeit: bool,
}

/// A round in which an entrant sat out and scored as for a win.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ByeRecord {
    pub round: u32,
    pub entrant: EntrantId,
}

/// One round's tables, as a pairing function returns them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundPairing {
    /// One entry per table, each in seat order (`[0]` moves first); the strongest
    /// table first.
    pub games: Vec<Vec<EntrantId>>,
    /// The entrants who sit this round out, each scoring a bye.
    pub byes: Vec<EntrantId>,
}

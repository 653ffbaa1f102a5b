//! Tournament pairing and standings: pure functions from a tournament's records to the
//! next round's tables and to the current table of standings.
//!
//! Nothing here keeps state, waits, reads a clock or draws a random number: the server
//! stores the records ([`Entrant`], [`GameRecord`], [`ByeRecord`]) and calls these
//! functions again whenever it needs a pairing or the standings, so the same records
//! always give the same answer, on every machine and after every restart. Ties are
//! broken by rating, then by id.
//!
//! Read it in this order: [`record`] (what a tournament remembers), [`points`] (what a
//! game is worth), then one file per format: [`swiss`] (two seats, paired by a
//! minimum-cost perfect matching), [`round_robin`] (Berger tables), [`arena`] (pair
//! whoever is waiting, as they come), [`pools`] (Swiss-like tables of 3–4 seats, and
//! every table of a small field once); then [`standings`](mod@standings) (points and tie-breaks) and
//! [`check`](mod@check) (which settings a tournament may have, and why). `docs/tournaments.md`
//! states every rule in prose, with worked examples.
//!
//! The formats share one vocabulary: [`Format`] says how rounds are made, and the
//! number of seats at a table says whether a Swiss or round-robin tournament is a
//! two-seat one or a pools one.

pub mod arena;
pub mod check;
mod field;
pub mod points;
pub mod pools;
pub mod record;
pub mod round_robin;
pub mod standings;
pub mod swiss;

pub use check::check;
pub use points::{game_points, HalfPoints, LEFT};
pub use record::{ByeRecord, Entrant, EntrantId, Format, GameRecord, RoundPairing};
pub use standings::{standings, Standing, Tiebreak};

//! Which tournament settings are allowed, with a message a host can act on.
//!
//! The limits come from the pairing functions (see `docs/tournaments.md`, "Limits"): a
//! server checks a tournament's settings once, when it is created, and may then call
//! the pairing functions without further checks.

use crate::pools::{binomial, ROUND_ROBIN_MAX_ENTRANTS, ROUND_ROBIN_MAX_GAMES};
use crate::{arena, pools, round_robin, swiss, Format};

/// Whether a tournament of `format` with tables of `min_seats..=seats` seats, at most
/// `max_entrants` entrants and `rounds` rounds (Swiss only) may be run.
pub fn check(
    format: Format,
    seats: usize,
    min_seats: usize,
    max_entrants: usize,
    rounds: Option<u32>,
) -> Result<(), String> {
    if !(2..=4).contains(&seats) {
        return Err(format!("a table has 2 to 4 seats, not {seats}"));
    }
    if !(2..=seats).contains(&min_seats) {
        return Err(format!(
            "the smallest table has 2 to {seats} seats (the table size), not {min_seats}"
        ));
    }
    if max_entrants < seats {
        return Err(format!(
            "at most {max_entrants} entrants cannot fill a table of {seats}"
        ));
    }
    let limit = match (format, seats) {
        (Format::Swiss, 2) => swiss::MAX_ENTRANTS,
        (Format::Swiss, _) => pools::MAX_ENTRANTS,
        (Format::Arena, 2) => arena::MAX_ENTRANTS,
        (Format::Arena, _) => {
            return Err(format!("an arena pairs two seats, not {seats}"));
        }
        (Format::RoundRobin, 2) => round_robin::MAX_ENTRANTS,
        (Format::RoundRobin, _) => {
            // Every table of the field is played once: C(n, seats) grows fast.
            let largest = (seats..=ROUND_ROBIN_MAX_ENTRANTS)
                .rev()
                .find(|&n| binomial(n, seats) <= ROUND_ROBIN_MAX_GAMES)
                .unwrap_or(seats);
            if max_entrants > largest {
                return Err(format!(
                    "a round-robin of {seats}-seat tables takes at most {largest} entrants \
                     ({} tables, at most {ROUND_ROBIN_MAX_GAMES}), not {max_entrants}",
                    binomial(largest, seats)
                ));
            }
            largest
        }
    };
    if max_entrants > limit {
        return Err(format!(
            "{} takes at most {limit} entrants, not {max_entrants}",
            describe(format, seats)
        ));
    }
    match (format, rounds) {
        (Format::Swiss, None) => Err("a Swiss tournament needs a number of rounds".into()),
        (Format::Swiss, Some(r)) if r == 0 || r > swiss::MAX_ROUNDS => Err(format!(
            "a Swiss tournament has 1 to {} rounds, not {r}",
            swiss::MAX_ROUNDS
        )),
        (Format::Swiss, Some(_)) => Ok(()),
        (Format::Arena, Some(_)) => {
            Err("an arena runs for a time, not a number of rounds: give no rounds".into())
        }
        (Format::RoundRobin, Some(_)) => Err(
            "a round-robin's rounds follow from its field (everyone meets everyone): give no rounds"
                .into(),
        ),
        (_, None) => Ok(()),
    }
}

fn describe(format: Format, seats: usize) -> String {
    match (format, seats) {
        (Format::Swiss, 2) => "a two-seat Swiss tournament".into(),
        (Format::Swiss, _) => format!("a Swiss tournament of {seats}-seat pools"),
        (Format::Arena, _) => "an arena".into(),
        (Format::RoundRobin, _) => "a two-seat round-robin".into(),
    }
}

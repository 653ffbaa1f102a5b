//! Ratings per ruleset: Elo where the reference used it (two-seat games, K = 10, start
//! 1000, as the spacegoo server did), Weng-Lin (a TrueSkill-like Bayesian system) for
//! games of more seats. Every change is also written to `rating_history` for charts.

mod apply;
mod math;
mod queries;

pub(crate) use apply::apply_in;
pub use math::{ELO_K, INITIAL_DISPLAY};

use std::ops::RangeInclusive;

use serde::Serialize;

use crate::accounts::AccountId;
use crate::error::StoreError;
use crate::matches::MatchId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RatingSystem {
    /// Two players; the rating itself is shown.
    Elo,
    /// Any number of players with ties; skill `mu` and uncertainty `sigma`, shown as a
    /// cautious estimate (see [`INITIAL_DISPLAY`]).
    WengLin,
}

impl RatingSystem {
    /// The system for a ruleset whose matches seat `seats` players: Elo when every match
    /// has exactly two seats, Weng-Lin otherwise (one scale for 2, 3 and 4 players).
    pub fn for_seat_counts(seats: RangeInclusive<usize>) -> RatingSystem {
        if *seats.start() == 2 && *seats.end() == 2 {
            RatingSystem::Elo
        } else {
            RatingSystem::WengLin
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RatingSystem::Elo => "elo",
            RatingSystem::WengLin => "weng_lin",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<RatingSystem, StoreError> {
        match s {
            "elo" => Ok(RatingSystem::Elo),
            "weng_lin" => Ok(RatingSystem::WengLin),
            other => Err(StoreError::Corrupt(format!("rating system {other:?}"))),
        }
    }
}

/// An account's current rating in one ruleset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rating {
    pub account_id: AccountId,
    pub name: String,
    pub ruleset: String,
    pub system: RatingSystem,
    /// The number to show and to pair players by.
    pub display: i64,
    pub mu: f64,
    pub sigma: f64,
    /// Rated matches played.
    pub games: u64,
    /// Unix milliseconds, written as RFC 3339 text.
    #[serde(serialize_with = "crate::clock::rfc3339::serialize")]
    pub updated_at: i64,
}

/// One account's rating before and after a rated result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingChange {
    pub account_id: AccountId,
    pub before: i64,
    pub after: i64,
    pub mu: f64,
    pub sigma: f64,
}

/// A point of a rating chart: the rating right after a match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RatingPoint {
    pub match_id: Option<MatchId>,
    pub display: i64,
    pub mu: f64,
    pub sigma: f64,
    /// Unix milliseconds, written as RFC 3339 text.
    #[serde(serialize_with = "crate::clock::rfc3339::serialize")]
    pub at: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeaderboardEntry {
    /// 1-based place on the board.
    pub position: u32,
    pub account_id: AccountId,
    pub name: String,
    pub display: i64,
    pub mu: f64,
    pub sigma: f64,
    pub games: u64,
}

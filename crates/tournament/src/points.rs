//! What a game is worth, in half-points.
//!
//! Scores are integers so that sums, comparisons and tie-breaks are exact: no float
//! ever decides who ranks first. A seat earns 2 half-points for every other seat it
//! finished strictly ahead of and 1 for every seat it tied with. With two seats that is
//! the chess scale (win 1, draw ½, loss 0 points); with more seats it is "points by
//! placement": in a four-seat game the places are worth 6, 4, 2 and 0 half-points.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// A number of half-points: a two-seat win is 2, a draw 1, a loss 0.
///
/// Serialized as the bare number of half-points (`3` means 1.5 points); shown as
/// points (`"1.5"`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct HalfPoints(pub u32);

/// What a bye is worth, whatever the number of seats: one two-seat win.
pub const BYE: HalfPoints = HalfPoints(2);

impl HalfPoints {
    /// In points (half the number), for display and averages only.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for HalfPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_multiple_of(2) {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

impl Add for HalfPoints {
    type Output = HalfPoints;
    fn add(self, other: HalfPoints) -> HalfPoints {
        HalfPoints(self.0 + other.0)
    }
}

impl AddAssign for HalfPoints {
    fn add_assign(&mut self, other: HalfPoints) {
        self.0 += other.0;
    }
}

impl Sum for HalfPoints {
    fn sum<I: Iterator<Item = HalfPoints>>(iter: I) -> HalfPoints {
        iter.fold(HalfPoints(0), Add::add)
    }
}

/// The rank of a seat whose player left the game (a house bot finished it for them):
/// a loss whatever the bot achieved, and no points, even against another seat that
/// left. A game every seat left is lost by all of them, as the match's results say.
pub const LEFT: u8 = u8::MAX;

/// Each seat's points for one finished game, from its ranks (1 = best, ties equal;
/// [`LEFT`] for a seat its player left).
///
/// Only the order of the ranks matters, so `[1, 1, 3]` and `[1, 1, 2]` score alike.
pub fn game_points(ranks: &[u8]) -> Vec<HalfPoints> {
    ranks
        .iter()
        .map(|&mine| {
            if mine == LEFT {
                return 0;
            }
            ranks
                .iter()
                .map(|&other| match mine.cmp(&other) {
                    std::cmp::Ordering::Less => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 0,
                })
                .sum::<u32>()
                // The seat itself was counted as a tie.
                - 1
        })
        .map(HalfPoints)
        .collect()
}

/// Each seat's place for one finished game: 1 plus the number of seats that finished
/// strictly ahead, whatever numbering the ruleset's ranks used for ties.
pub fn placements(ranks: &[u8]) -> Vec<u32> {
    ranks
        .iter()
        .map(|&mine| 1 + ranks.iter().filter(|&&other| other < mine).count() as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_seats_are_the_chess_scale() {
        assert_eq!(game_points(&[1, 2]), vec![HalfPoints(2), HalfPoints(0)]);
        assert_eq!(game_points(&[1, 1]), vec![HalfPoints(1), HalfPoints(1)]);
    }

    #[test]
    fn four_seats_score_by_placement() {
        let got: Vec<u32> = game_points(&[3, 1, 4, 2]).iter().map(|p| p.0).collect();
        assert_eq!(got, vec![2, 6, 0, 4]);
        let tied: Vec<u32> = game_points(&[1, 1, 3, 4]).iter().map(|p| p.0).collect();
        assert_eq!(tied, vec![5, 5, 2, 0]);
        assert_eq!(placements(&[1, 1, 2, 4]), vec![1, 1, 3, 4]);
    }

    #[test]
    fn a_seat_left_to_the_house_bot_scores_nothing() {
        assert_eq!(game_points(&[LEFT, 1]), vec![HalfPoints(0), HalfPoints(2)]);
        // Every seat left: nobody scores (the bots' own result does not count).
        assert_eq!(
            game_points(&[LEFT, LEFT]),
            vec![HalfPoints(0), HalfPoints(0)]
        );
        let got: Vec<u32> = game_points(&[2, LEFT, 1]).iter().map(|p| p.0).collect();
        assert_eq!(got, vec![2, 0, 4]);
        assert_eq!(placements(&[LEFT, 1, LEFT]), vec![2, 1, 2]);
    }

    #[test]
    fn shows_points() {
        assert_eq!(HalfPoints(3).to_string(), "1.5");
        assert_eq!(HalfPoints(4).to_string(), "2");
        assert_eq!(HalfPoints(0).to_string(), "0");
        assert_eq!(HalfPoints(3).as_f64(), 1.5);
    }
}

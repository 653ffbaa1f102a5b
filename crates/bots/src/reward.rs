//! What a rollout ended with, read per seat by the backup.

use arbiter_engine::guide::reward::rank_reward;
use arbiter_engine::{Outcome, Seat};

/// What a rollout ended with, read per seat by the backup.
#[derive(Debug, Clone, PartialEq)]
pub enum Rewards {
    /// The game ended: rewards from the outcome's ranks.
    Ranked(Vec<u32>),
    /// Cut off and evaluated by the ruleset's guide: one reward in [0, 1] per seat.
    Estimated(Vec<f64>),
    /// Cut off with nothing to go on: every seat shares equally (0.5, a draw).
    Unknown,
}

impl Rewards {
    pub fn from_outcome(outcome: &Outcome) -> Self {
        Rewards::Ranked(outcome.ranks.clone())
    }

    /// The reward of `seat`, in [0, 1].
    pub fn of(&self, seat: Seat) -> f64 {
        match self {
            Rewards::Ranked(ranks) => rank_reward(ranks, seat),
            Rewards::Estimated(values) => values.get(seat).copied().unwrap_or(0.5).clamp(0.0, 1.0),
            Rewards::Unknown => 0.5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_is_a_draw_and_estimates_are_clamped() {
        assert_eq!(Rewards::Unknown.of(3), 0.5);
        assert_eq!(Rewards::Estimated(vec![1.5, -0.5]).of(0), 1.0);
        assert_eq!(Rewards::Estimated(vec![1.5, -0.5]).of(1), 0.0);
        assert_eq!(Rewards::Ranked(vec![2, 1]).of(1), 1.0);
    }
}

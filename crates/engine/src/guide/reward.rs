//! Rewards in [0, 1] per seat, from a finished game's ranks or from scores: the scale
//! the search backs up and a guide's [`super::Guide::evaluate`] answers in.

use crate::game::Seat;

/// 1 for a sole winner, 0 for sole last place, evenly spaced between; seats that tie
/// share the places they cover (two seats tied first of two get 0.5 each).
pub fn rank_reward(ranks: &[u32], seat: Seat) -> f64 {
    let n = ranks.len();
    let Some(&rank) = ranks.get(seat) else {
        return 0.0;
    };
    if n <= 1 {
        return 1.0;
    }
    let tied = ranks.iter().filter(|&&r| r == rank).count();
    let first = rank.saturating_sub(1) as usize;
    let last = n - 1;
    let total: f64 = (first..first + tied)
        .map(|place| (last.saturating_sub(place)) as f64 / last as f64)
        .sum();
    total / tied as f64
}

/// Rewards from per-seat scores (higher is better): 0.5 plus half of
/// `tanh(margin / scale)`, where the margin is the seat's score minus the best other
/// seat's. A seat far ahead approaches 1, far behind approaches 0, level is 0.5.
pub fn margin_rewards(scores: &[f64], scale: f64) -> Vec<f64> {
    let scale = if scale > 0.0 { scale } else { 1.0 };
    (0..scores.len())
        .map(|seat| {
            let best_other = scores
                .iter()
                .enumerate()
                .filter(|&(other, _)| other != seat)
                .map(|(_, &s)| s)
                .fold(f64::NEG_INFINITY, f64::max);
            if best_other == f64::NEG_INFINITY {
                return 1.0;
            }
            0.5 + 0.5 * ((scores[seat] - best_other) / scale).tanh()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_map_to_rewards_and_ties_share() {
        assert_eq!(rank_reward(&[1, 2], 0), 1.0);
        assert_eq!(rank_reward(&[1, 2], 1), 0.0);
        assert_eq!(rank_reward(&[1, 1], 0), 0.5);
        let four = [2, 1, 4, 2];
        let rewards: Vec<f64> = (0..4).map(|s| rank_reward(&four, s)).collect();
        assert_eq!(rewards[1], 1.0);
        assert_eq!(rewards[2], 0.0);
        assert!((rewards[0] - 0.5).abs() < 1e-12);
        assert_eq!(rewards[0], rewards[3]);
        assert_eq!(rank_reward(&[1], 0), 1.0);
    }

    #[test]
    fn margins_are_centred_and_bounded() {
        let r = margin_rewards(&[10.0, 10.0], 5.0);
        assert_eq!(r, vec![0.5, 0.5]);
        let r = margin_rewards(&[100.0, 0.0, 50.0], 10.0);
        assert!(r[0] > 0.99 && r[1] < 0.01 && r[2] < 0.01);
        assert!(r.iter().all(|v| (0.0..=1.0).contains(v)));
    }
}

//! Battle arithmetic (background §2.7): exact integers, no randomness.
//!
//! The bigger ship wins and loses half (rounded down) of the loser's size; equal ships
//! destroy each other. The perimeter `defender_edge` option (§2.13) only changes the
//! defender's size used to decide who wins and what the attacker loses.

/// Remaining sizes `(attacker, defender)` after a battle; 0 means destroyed.
///
/// - a > d: the defender is destroyed, the attacker becomes a − ⌊d/2⌋;
/// - a < d: the attacker is destroyed, the defender becomes d − ⌊a/2⌋;
/// - a = d: both are destroyed.
///
/// Defined for every `u32` without overflow (ships in play are always ≥ 1).
pub fn battle(attacker: u32, defender: u32) -> (u32, u32) {
    battle_with_edge(attacker, defender, 0)
}

/// [`battle`] with the defender fighting as d′ = ⌊d × (100 + `bonus`)/100⌋: d′ decides
/// who wins, and the attacker, if it wins, loses ⌊d′/2⌋; a winning defender loses
/// ⌊a/2⌋ from its real size. With `bonus` ≤ 100 a winning defender keeps ≥ 1.
pub fn battle_with_edge(attacker: u32, defender: u32, bonus: u32) -> (u32, u32) {
    let effective = u64::from(defender) * (100 + u64::from(bonus)) / 100;
    let a = u64::from(attacker);
    let (a_left, d_left) = match a.cmp(&effective) {
        std::cmp::Ordering::Greater => (a - effective / 2, 0),
        std::cmp::Ordering::Less => (0, u64::from(defender).saturating_sub(a / 2)),
        std::cmp::Ordering::Equal => (0, 0),
    };
    // Both values are at most their u32 inputs, so the conversions cannot fail.
    (
        u32::try_from(a_left).unwrap_or(u32::MAX),
        u32::try_from(d_left).unwrap_or(u32::MAX),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Background §2.7 test vectors: (a, d) → (attacker left, defender left).
    #[test]
    fn background_vectors() {
        assert_eq!(battle(7, 4), (5, 0), "attacker wins, becomes 5");
        assert_eq!(battle(4, 7), (0, 5), "attacker dies, defender becomes 5");
        assert_eq!(battle(5, 5), (0, 0), "both die");
        assert_eq!(battle(6, 5), (4, 0), "attacker wins, becomes 4");
        assert_eq!(battle(5, 6), (0, 4), "attacker dies, defender becomes 4");
        assert_eq!(battle(11, 10), (6, 0), "attacker wins, becomes 6");
        assert_eq!(battle(3, 2), (2, 0), "attacker wins, becomes 2");
    }

    #[test]
    fn winner_keeps_more_than_half_and_never_reaches_zero() {
        for a in 1..=60u32 {
            for d in 1..=60u32 {
                let (x, y) = battle(a, d);
                match a.cmp(&d) {
                    std::cmp::Ordering::Greater => {
                        assert_eq!(y, 0);
                        assert!(x >= (a + 1).div_ceil(2) && x >= 1);
                        assert!(x >= 2, "no size-1 ship from a battle");
                    }
                    std::cmp::Ordering::Less => {
                        assert_eq!(x, 0);
                        assert!(y >= (d + 1).div_ceil(2) && y >= 1);
                    }
                    std::cmp::Ordering::Equal => assert_eq!((x, y), (0, 0)),
                }
            }
        }
    }

    #[test]
    fn extremes_do_not_overflow() {
        assert_eq!(battle(u32::MAX, u32::MAX), (0, 0));
        assert_eq!(battle(u32::MAX, 1), (u32::MAX, 0));
        assert_eq!(battle(1, u32::MAX), (0, u32::MAX));
        assert_eq!(battle(u32::MAX, u32::MAX - 1), (u32::MAX / 2 + 1, 0));
        assert_eq!(
            battle_with_edge(u32::MAX, u32::MAX, 100),
            (0, u32::MAX / 2 + 1)
        );
    }

    #[test]
    fn defender_edge() {
        // d′ = ⌊6 × 1.25⌋ = 7: a 7-ship now only ties.
        assert_eq!(battle_with_edge(7, 6, 25), (0, 0));
        // a = 8 > 7: the attacker loses ⌊7/2⌋ = 3.
        assert_eq!(battle_with_edge(8, 6, 25), (5, 0));
        // a = 6 < 7: the defender loses ⌊6/2⌋ = 3 from its real size 6.
        assert_eq!(battle_with_edge(6, 6, 25), (0, 3));
        // Bonus 100: a defender facing almost double its size still keeps ≥ 1.
        assert_eq!(battle_with_edge(9, 5, 100), (0, 1));
        assert_eq!(battle_with_edge(10, 5, 100), (0, 0));
        assert_eq!(battle_with_edge(11, 5, 100), (6, 0));
        for a in 1..=40u32 {
            for d in 1..=40u32 {
                let (x, y) = battle_with_edge(a, d, 100);
                assert!(x == 0 || y == 0);
                if x == 0 && a < 2 * d {
                    assert!(y >= 1);
                }
            }
        }
    }
}

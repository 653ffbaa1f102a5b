//! The swaps a hand allows: every non-empty sub-multiset of it with at most
//! [`MAX_SWAP`] colonists, listed in a fixed order (the order of the legal list) and
//! counted without listing them.

use crate::actions::MAX_SWAP;
use crate::kind::{Kind, Tiles};

/// Every non-empty sub-multiset of `hand` with at most `max` tiles, in lexicographic
/// order of the counts (scientists slowest, settlers fastest).
pub(crate) fn sub_multisets(hand: &Tiles, max: u32) -> SubMultisets {
    SubMultisets {
        hand: Kind::ALL.map(|k| hand.get(k)),
        max,
        counts: [0; 4],
        done: false,
    }
}

/// An odometer over the four counts that never passes `max` tiles in all; see
/// [`sub_multisets`].
pub(crate) struct SubMultisets {
    hand: [u32; 4],
    max: u32,
    /// The last sub-multiset yielded (none yet: all zero, which is never yielded).
    counts: [u32; 4],
    done: bool,
}

impl Iterator for SubMultisets {
    type Item = Tiles;

    fn next(&mut self) -> Option<Tiles> {
        if self.done {
            return None;
        }
        // Turn the fastest count that may still grow; the faster ones start again from
        // zero (a larger total on this prefix would only pass `max` further).
        let mut kind = self.counts.len() - 1;
        loop {
            let before: u32 = self.counts[..kind].iter().sum();
            if self.counts[kind] < self.hand[kind] && before + self.counts[kind] < self.max {
                self.counts[kind] += 1;
                let [scientist, mining, merchant, settler] = self.counts;
                return Some(Tiles::new(scientist, mining, merchant, settler));
            }
            self.counts[kind] = 0;
            if kind == 0 {
                self.done = true;
                return None;
            }
            kind -= 1;
        }
    }
}

/// The number of swaps `hand` allows (`sub_multisets(hand, MAX_SWAP).count()`)
/// without listing them: a lookup, since holding more than `MAX_SWAP` of a kind allows
/// no more swaps than holding `MAX_SWAP`.
pub(crate) fn swap_count(hand: &Tiles) -> usize {
    let index = Kind::ALL.iter().fold(0, |index, &kind| {
        index * SIDE + (hand.get(kind) as usize).min(MAX)
    });
    SWAP_COUNTS[index] as usize
}

const MAX: usize = MAX_SWAP as usize;
const SIDE: usize = MAX + 1;

/// [`count_swaps`] of every hand with at most `MAX_SWAP` of each kind, indexed by the
/// counts in kind order, base `MAX_SWAP + 1`. At most C(10, 4) − 1 = 209 swaps fit in a
/// `u8`.
const SWAP_COUNTS: [u8; SIDE * SIDE * SIDE * SIDE] = {
    let mut table = [0; SIDE * SIDE * SIDE * SIDE];
    let mut index = 0;
    while index < table.len() {
        let held = [
            index / (SIDE * SIDE * SIDE),
            index / (SIDE * SIDE) % SIDE,
            index / SIDE % SIDE,
            index % SIDE,
        ];
        table[index] = count_swaps(held) as u8;
        index += 1;
    }
    table
};

/// The ways to pick a total of 1 to `MAX_SWAP` tiles from a hand holding `held` of
/// each kind, built up one kind at a time.
const fn count_swaps(held: [usize; 4]) -> usize {
    let mut ways = [0usize; MAX + 1];
    ways[0] = 1;
    let mut kind = 0;
    while kind < 4 {
        let mut total = MAX;
        while total >= 1 {
            let mut n = 1;
            while n <= held[kind] && n <= total {
                ways[total] += ways[total - n];
                n += 1;
            }
            total -= 1;
        }
        kind += 1;
    }
    let (mut sum, mut total) = (0, 1);
    while total <= MAX {
        sum += ways[total];
        total += 1;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swaps_enumerate_distinct_sub_multisets() {
        let hand = Tiles::new(2, 0, 1, 0);
        let swaps: Vec<Tiles> = sub_multisets(&hand, MAX_SWAP).collect();
        assert_eq!(swaps.len(), 5); // 3 × 2 − 1
        assert!(swaps.iter().all(|s| hand.contains(s) && s.total() >= 1));
        assert_eq!(sub_multisets(&Tiles::new(7, 0, 0, 0), MAX_SWAP).count(), 6);
    }

    /// The odometer lists, in the same order, what four nested loops over the counts
    /// list once totals of 0 or above `max` are left out; the count agrees.
    #[test]
    fn odometer_and_count_match_nested_loops() {
        let small = (0..8u32.pow(4)).map(|c| Tiles::new(c % 8, c / 8 % 8, c / 64 % 8, c / 512));
        let full = [
            Tiles::new(12, 0, 0, 0),
            Tiles::new(0, 0, 0, 12),
            Tiles::new(3, 3, 3, 3),
        ];
        for hand in small.chain(full) {
            for max in [0, 1, 4, MAX_SWAP, 12] {
                let mut expected = Vec::new();
                for a in 0..=hand.scientist {
                    for b in 0..=hand.mining {
                        for c in 0..=hand.merchant {
                            for d in 0..=hand.settler {
                                if (1..=max).contains(&(a + b + c + d)) {
                                    expected.push(Tiles::new(a, b, c, d));
                                }
                            }
                        }
                    }
                }
                let listed: Vec<Tiles> = sub_multisets(&hand, max).collect();
                assert_eq!(listed, expected, "{hand:?} up to {max}");
                if max == MAX_SWAP {
                    assert_eq!(swap_count(&hand), expected.len(), "{hand:?}");
                }
            }
        }
    }
}

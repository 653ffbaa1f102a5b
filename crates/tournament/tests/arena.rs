//! Arena pairing: no immediate rematch, disjoint pairs, near in score, and fast enough to
//! call whenever someone joins the queue.

use std::collections::{HashMap, HashSet};

use arbiter_tournament::arena::{self, Waiting};
use arbiter_tournament::{EntrantId, HalfPoints};
use proptest::prelude::*;

use crate::common::Rng;

/// `n` waiting entrants with ids 1..=n, random points, ratings and balances. With
/// `mutual`, last opponents come in pairs who played each other (the usual queue);
/// otherwise anyone may name anyone, waiting or not.
fn queue(n: usize, mutual: bool, rng: &mut Rng) -> Vec<Waiting> {
    let mut waiting: Vec<Waiting> = (1..=n as EntrantId)
        .map(|id| Waiting {
            id,
            points: HalfPoints(rng.below(12) as u32),
            rating: 1500.0 + 25.0 * rng.below(8) as f64,
            last_opponent: None,
            balance: rng.below(5) as i32 - 2,
        })
        .collect();
    if mutual {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for pair in order.chunks(2) {
            match pair {
                [a, b] if rng.below(3) > 0 => {
                    waiting[*a].last_opponent = Some(waiting[*b].id);
                    waiting[*b].last_opponent = Some(waiting[*a].id);
                }
                _ => {
                    // Its last opponent is still playing elsewhere, or it has not played.
                    for &i in pair {
                        waiting[i].last_opponent =
                            (rng.below(2) == 0).then_some(10_000 + i as EntrantId);
                    }
                }
            }
        }
    } else {
        for w in &mut waiting {
            w.last_opponent = match rng.below(3) {
                0 => None,
                1 => Some(1 + rng.below(n as u64) as EntrantId),
                _ => Some(10_000),
            };
        }
    }
    waiting
}

fn rematch(a: &Waiting, b: &Waiting) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// What must hold of any arena pairing; returns the unpaired entrants.
fn check_pairs(waiting: &[Waiting], pairs: &[[EntrantId; 2]]) -> Vec<EntrantId> {
    let by_id: HashMap<EntrantId, &Waiting> = waiting.iter().map(|w| (w.id, w)).collect();
    let mut paired = HashSet::new();
    for &[a, b] in pairs {
        assert!(
            paired.insert(a) && paired.insert(b),
            "{a} or {b} paired twice"
        );
        let (wa, wb) = (by_id[&a], by_id[&b]);
        assert!(!rematch(wa, wb), "immediate rematch {a}–{b}");
        // Seat 0 to the lower balance.
        assert!(
            wa.balance <= wb.balance,
            "{a} (balance {}) before {b} ({})",
            wa.balance,
            wb.balance
        );
    }
    let unpaired: Vec<&Waiting> = waiting.iter().filter(|w| !paired.contains(&w.id)).collect();
    // Nobody left waiting could have been paired with anyone else left waiting, so at
    // most three are (each names one last opponent; a set of entrants who all exclude
    // each other has at most as many exclusions as members).
    for (i, a) in unpaired.iter().enumerate() {
        for b in &unpaired[i + 1..] {
            assert!(rematch(a, b), "{} and {} both left waiting", a.id, b.id);
        }
    }
    assert!(unpaired.len() <= 3);
    unpaired.iter().map(|w| w.id).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_queue(n in 0usize..200, seed in any::<u64>()) {
        let waiting = queue(n, false, &mut Rng(seed));
        let pairs = arena::pair(&waiting);
        check_pairs(&waiting, &pairs);
        prop_assert_eq!(pairs, arena::pair(&waiting));
    }

    /// With last opponents in mutual pairs, as a queue has them: each pair's entrants
    /// are at most three places apart in the order by points, rating and id (two, but
    /// for the last pair split at the end), so their points differ by no more than those
    /// of entrants three places apart there; and at most one entrant is left waiting
    /// once three or more wait.
    #[test]
    fn usual_queue(n in 0usize..200, seed in any::<u64>()) {
        let waiting = queue(n, true, &mut Rng(seed));
        let pairs = arena::pair(&waiting);
        let unpaired = check_pairs(&waiting, &pairs);
        if n >= 3 {
            prop_assert!(unpaired.len() <= 1, "{:?} left waiting", unpaired);
        }
        let mut sorted = waiting.clone();
        sorted.sort_by(|a, b| {
            b.points.cmp(&a.points).then(b.rating.total_cmp(&a.rating)).then(a.id.cmp(&b.id))
        });
        let place: HashMap<EntrantId, usize> = sorted.iter().enumerate().map(|(i, w)| (w.id, i)).collect();
        for [a, b] in pairs {
            let (i, j) = (place[&a].min(place[&b]), place[&a].max(place[&b]));
            prop_assert!(j - i <= 3, "{} and {} are {} places apart", a, b, j - i);
            let diff = sorted[i].points.0 - sorted[j].points.0;
            let bound = sorted[i].points.0 - sorted[(i + 3).min(sorted.len() - 1)].points.0;
            prop_assert!(diff <= bound);
        }
    }
}

#[test]
fn without_last_opponents_everyone_but_one_is_paired() {
    for n in 0..50 {
        let waiting = queue(n, false, &mut Rng(n as u64))
            .into_iter()
            .map(|w| Waiting {
                last_opponent: None,
                ..w
            })
            .collect::<Vec<_>>();
        let pairs = arena::pair(&waiting);
        assert_eq!(pairs.len(), n / 2);
        check_pairs(&waiting, &pairs);
    }
}

#[test]
fn looks_past_the_last_opponent() {
    let w = |id, points, last: Option<EntrantId>, balance| Waiting {
        id,
        points: HalfPoints(points),
        rating: 1500.0,
        last_opponent: last,
        balance,
    };
    // 1 and 2 just played; 3 is next in line.
    let waiting = [
        w(1, 6, Some(2), 0),
        w(2, 5, Some(1), 1),
        w(3, 4, None, -1),
        w(4, 0, None, 0),
    ];
    assert_eq!(arena::pair(&waiting), vec![[3, 1], [4, 2]]);
    // Two who just played, alone in the queue, wait.
    assert!(arena::pair(&waiting[..2]).is_empty());
}

/// The largest field pairs: a smoke test of its size (timing is not asserted; 1,000
/// waiting took well under a millisecond in a release build).
#[test]
fn the_largest_queue() {
    let waiting = queue(arena::MAX_ENTRANTS, true, &mut Rng(7));
    let pairs = arena::pair(&waiting);
    assert!(check_pairs(&waiting, &pairs).len() <= 1);
}

//! A double round-robin for two seats, from Berger tables.
//!
//! The whole schedule is known at the start, so it is computed once from the field.
//! The first half is the circle method as FIDE's Berger tables lay it out: the last
//! entrant stays put while the others turn around a circle, which keeps everyone's
//! seats alternating as far as a round-robin allows. The second half repeats the first
//! with the seats swapped, so every pair meets once in each seat order and everyone
//! has seat 0 in exactly half of their games.

use crate::{EntrantId, RoundPairing};

/// The largest field [`crate::check()`] accepts: 16 entrants already play 30 rounds.
pub const MAX_ENTRANTS: usize = 16;

/// Every round of the double round-robin, in order.
///
/// The entrants' order is the Berger table numbering (the caller may sort them by
/// rating first); a repeated id counts once. An odd field gets a dummy as the last
/// number: whoever the dummy meets has the bye, so everyone has two byes. Fewer than two
/// entrants play no rounds. `check` limits the field to [`MAX_ENTRANTS`], but this works
/// for any size.
pub fn schedule(entrants: &[EntrantId]) -> Vec<RoundPairing> {
    let mut field: Vec<EntrantId> = Vec::new();
    for &id in entrants {
        if !field.contains(&id) {
            field.push(id);
        }
    }
    if field.len() < 2 {
        return Vec::new();
    }
    // Berger numbers 0..m; number m-1 stays put (the dummy, in an odd field).
    let m = field.len() + field.len() % 2;
    let circle = m - 1;
    let fixed = m - 1;
    let entrant = |number: usize| field.get(number).copied();

    let mut first_half = Vec::with_capacity(circle);
    for r in 0..circle {
        // In round r (0-based) numbers x and y on the circle meet when x + y ≡ r
        // (mod m-1); the fixed number meets the one with 2x ≡ r.
        let opponent = (0..circle)
            .find(|&x| (2 * x) % circle == r)
            .expect("m-1 is odd");
        let mut games = Vec::new();
        let mut byes = Vec::new();
        // The fixed number's table first: it has seat 0 in odd-numbered rounds
        // (r odd, 0-based), seat 1 in the others, alternating.
        let fixed_table = if r % 2 == 1 {
            [fixed, opponent]
        } else {
            [opponent, fixed]
        };
        match (entrant(fixed_table[0]), entrant(fixed_table[1])) {
            (Some(a), Some(b)) => games.push(vec![a, b]),
            (Some(a), None) | (None, Some(a)) => byes.push(a),
            (None, None) => {}
        }
        for step in 1..m / 2 {
            let x = (opponent + step) % circle;
            let y = (opponent + circle - step) % circle;
            // Of the two, seat 0 goes to the one from which the other lies an odd
            // number of places further round the circle (the Berger tables' colours).
            let (first, second) = if ((y + circle - x) % circle) % 2 == 1 {
                (x, y)
            } else {
                (y, x)
            };
            let (Some(a), Some(b)) = (entrant(first), entrant(second)) else {
                unreachable!("only the fixed number can be the dummy");
            };
            games.push(vec![a, b]);
        }
        first_half.push(RoundPairing { games, byes });
    }
    let second_half: Vec<RoundPairing> = first_half
        .iter()
        .map(|round| RoundPairing {
            games: round
                .games
                .iter()
                .map(|g| g.iter().rev().copied().collect())
                .collect(),
            byes: round.byes.clone(),
        })
        .collect();
    first_half.extend(second_half);
    first_half
}

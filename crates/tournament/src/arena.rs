//! Arena pairing: whoever is waiting is paired with someone near in score, at once.
//!
//! An arena runs for a fixed time and entrants go back to the queue as each of their
//! games ends, so the pairer is called often with whoever waits at that moment. It must
//! be cheap (sorting, then one walk) rather than optimal, and it must never pair two
//! entrants who just played each other; everyone else who cannot be paired waits for
//! the next call.
//!
//! The rule: sort the waiting entrants by points (descending), rating (descending), id
//! (ascending). Walk down that list keeping the entrants not yet paired in a short list
//! of *pending* ones, best first. Each entrant in turn is paired with the first pending
//! entrant it may meet (neither is the other's last opponent); if there is none, it
//! becomes pending too. So an entrant is paired with the next one down the list, except
//! when that would be an immediate rematch, when it looks one further. At the end, if
//! two or more are still pending, the first two of them may split the last pair made
//! (the better pending one meets the last pair's better entrant and the other the other,
//! or else crosswise) when neither new pair is a rematch.
//!
//! The pending list only ever holds entrants who may not meet each other, and an
//! entrant has one last opponent, so it never holds more than three; the walk is
//! O(n) after the O(n log n) sort. When every entrant's last opponent who is waiting
//! has it as last opponent in turn (the usual case), two paired entrants are never more
//! than two places apart in the sorted list (three for a pair made by the split at the
//! end), and of three or more waiting at most one is left.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::{EntrantId, HalfPoints};

/// The most entrants [`crate::check()`] accepts in an arena. Pairing 1,000 waiting
/// entrants takes well under a millisecond; the limit is the server's, not the
/// pairer's.
pub const MAX_ENTRANTS: usize = 10_000;

/// An entrant waiting for its next arena game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    pub id: EntrantId,
    /// Its arena points so far.
    pub points: HalfPoints,
    pub rating: f64,
    /// Whom it played last, if anyone: never paired with it again straight away.
    pub last_opponent: Option<EntrantId>,
    /// Its games in seat 0 minus its games in seat 1.
    pub balance: i32,
}

/// Pairs of waiting entrants, in seat order (`[0]` moves first), best pair first.
/// Whoever is left out stays waiting. A repeated id counts once.
///
/// In each pair the entrant with the lower balance takes seat 0; on equal balances the
/// better-ranked one does.
pub fn pair(waiting: &[Waiting]) -> Vec<[EntrantId; 2]> {
    let mut seen = HashSet::with_capacity(waiting.len());
    let mut sorted: Vec<&Waiting> = waiting.iter().filter(|w| seen.insert(w.id)).collect();
    sorted.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });

    let rematch =
        |a: &Waiting, b: &Waiting| a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id);
    let mut pending: Vec<&Waiting> = Vec::new();
    let mut pairs: Vec<(&Waiting, &Waiting)> = Vec::with_capacity(sorted.len() / 2);
    for next in sorted {
        match pending.iter().position(|p| !rematch(p, next)) {
            Some(at) => pairs.push((pending.remove(at), next)),
            None => pending.push(next),
        }
    }
    // Two left at the bottom who just played each other may split the last pair.
    if let ([x, y, ..], Some(&(p, q))) = (pending.as_slice(), pairs.last()) {
        let (x, y) = (*x, *y);
        let split = if !rematch(p, x) && !rematch(q, y) {
            Some([(p, x), (q, y)])
        } else if !rematch(p, y) && !rematch(q, x) {
            Some([(p, y), (q, x)])
        } else {
            None
        };
        if let Some(split) = split {
            pairs.pop();
            pairs.extend(split);
        }
    }
    pairs
        .into_iter()
        .map(|(above, below)| {
            if below.balance < above.balance {
                [below.id, above.id]
            } else {
                [above.id, below.id]
            }
        })
        .collect()
}

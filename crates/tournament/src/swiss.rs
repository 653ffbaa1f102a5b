//! Swiss pairing for two seats, as one minimum-cost perfect matching.
//!
//! Rule-by-rule pairing systems (the FIDE Dutch system and its kin) try candidate
//! pairings in a long prescribed order and backtrack when a score group cannot be
//! paired. Here every rule is instead a term of one cost per possible pair, and the
//! blossom algorithm finds the pairing of least total cost over the whole field at once
//! (as lichess's and OpenShogiPairings' Swiss pairers do). The terms are
//! *lexicographic*: each one's multiplier exceeds the largest total that all the terms
//! below it can reach over a whole pairing, so a term is only ever traded for a better
//! value of a term above it, never for any amount of the terms below.
//!
//! The terms, most important first (one entrant's *balance* is its games in seat 0
//! minus its games in seat 1; only played games count, forfeits do not):
//!
//! 1. **Second bye** (odd fields): the bye costs the number of byes its receiver has
//!    already had, so nobody gets a second bye while someone without one can take it,
//!    even at the price of a repeat (a bye is a point without a game).
//! 2. **Repeats**: a pair that has already played (forfeits excepted) costs the square
//!    of its earlier games, so nobody meets twice while a pairing without it exists.
//! 3. **Seat balance**: a pair costs 1 for each of its entrants whose seat would take
//!    its balance past ±2 (or further past), in the seat order [`pair`] will choose
//!    (below).
//! 4. **Seat streaks**: likewise, 1 for each entrant who would sit in the same seat a
//!    third game running.
//! 5. **Bye place** (odd fields): the bye costs the number of active entrants ranked
//!    below its receiver, so it goes to the lowest-ranked entrant who may take it.
//! 6. **Score**: the square of the pair's difference in half-points, so pairs stay in
//!    their score group, and entrants who must float move as few groups as possible.
//! 7. **Seat preferences**: for each entrant of the pair who does not get the seat it
//!    prefers, 2 if its balance is not zero (it wants the seat that evens it), else 1
//!    if it wants to alternate from its last game's seat.
//! 8. **Order** (Dutch style): within a score group of size `s`, the entrants ranked
//!    `i`-th and `j`-th in it cost `| |i − j| − ⌊s/2⌋ |`, so the group's top half meets
//!    its bottom half in order (1 meets ⌊s/2⌋+1, ...). Across groups, a pair costs how
//!    far the higher entrant sits above the bottom of its group plus how far the lower
//!    one sits below the top of its group: the lowest of a group floats down to meet
//!    the highest of the next.
//!
//! Seat order inside a pair: first, the order that takes fewer of the two past ±2
//! (term 3), then the one that makes fewer streaks (term 4); then the entrant with the
//! lower balance gets seat 0; then the one who had seat 1 in its last game; then the
//! higher-ranked on odd rounds and the lower-ranked on even rounds. That order never
//! costs more seat preferences (term 7) than the other would.
//!
//! Terms 3 and 4 rank below repeats, so when only a repeat would keep seats in line
//! (late in a field that has nearly played a round-robin) a balance of ±3 can happen;
//! the tests check that it happens only then.

use integer_blossom::min_weight_perfect_matching;

use crate::field::{Field, Player};
use crate::{ByeRecord, Entrant, GameRecord, RoundPairing};

/// The largest field [`crate::check()`] accepts for two-seat Swiss. The matching is
/// O(n³): pairing 255 or 256 active entrants took 4–56 ms a round in a release build
/// on the project's 2-core machine while another build kept both cores busy (rounds
/// 1–12; the first round is the fastest), 128 entrants 2–6 ms, 64 entrants about 1 ms
/// (see `docs/tournaments.md`, "Limits").
pub const MAX_ENTRANTS: usize = 256;

/// The most rounds [`crate::check()`] accepts for a Swiss tournament (two seats or pools).
pub const MAX_ROUNDS: u32 = 50;

/// The terms of a pair's cost, most important first (see the module documentation).
const SECOND_BYE: usize = 0;
const REPEATS: usize = 1;
const SEAT_BALANCE: usize = 2;
const SEAT_STREAKS: usize = 3;
const BYE_PLACE: usize = 4;
const SCORE: usize = 5;
const SEAT_PREFERENCES: usize = 6;
const ORDER: usize = 7;
const TERMS: usize = 8;
/// Terms that only the bye's edge carries: a perfect matching has exactly one such
/// edge, so their total is one edge's value, not one per pair.
const BYE_ONLY: [bool; TERMS] = [true, false, false, false, true, false, false, false];

/// Counts of earlier meetings and byes beyond this are treated as equal to it, and
/// score differences beyond [`CAP_POINTS`] half-points likewise: a Swiss of
/// [`MAX_ROUNDS`] rounds never reaches either, and they keep the costs of any field of
/// up to a thousand entrants inside `i128` however strange the records.
const CAP_COUNT: u32 = 63;
const CAP_POINTS: u32 = 255;

/// The next round's pairing of the active entrants.
///
/// `games` and `byes` are the whole history (every record counts, whatever its round);
/// `round` is the round being paired, which only decides the last seat tie-break.
/// Every active entrant is in exactly one game or is the one bye of an odd field.
/// Games come strongest first (by the better-ranked entrant of each).
///
/// # Panics
///
/// If the costs overflow `i128`, which takes a field of thousands of active entrants,
/// far beyond [`MAX_ENTRANTS`] (and far beyond what O(n³) pairs in reasonable time).
pub fn pair(
    entrants: &[Entrant],
    games: &[GameRecord],
    byes: &[ByeRecord],
    round: u32,
) -> RoundPairing {
    let field = Field::active(entrants, games, byes);
    let players = &field.ranked;
    let k = players.len();
    if k < 2 {
        return RoundPairing {
            games: Vec::new(),
            byes: players.iter().map(|p| p.id).collect(),
        };
    }
    // An odd field gets one more vertex: whoever is matched with it has the bye.
    let n = k + k % 2;
    let bye_vertex = (k % 2 == 1).then_some(k);
    let groups = groups(players);

    let mut terms = vec![[0u32; TERMS]; n * n];
    let mut max = [0u32; TERMS];
    for i in 0..k {
        for j in i + 1..n {
            let t = &mut terms[i * n + j];
            if Some(j) == bye_vertex {
                t[SECOND_BYE] = players[i].byes.min(CAP_COUNT);
                t[BYE_PLACE] = (k - 1 - i) as u32;
            } else {
                let (a, b) = (&players[i], &players[j]);
                let seating = seating(a, b, round);
                t[REPEATS] = field.met(i, j).min(CAP_COUNT).pow(2);
                t[SEAT_BALANCE] = seating.balance;
                t[SEAT_STREAKS] = seating.streaks;
                t[SCORE] = a.points.abs_diff(b.points).min(CAP_POINTS).pow(2);
                t[SEAT_PREFERENCES] = seating.preferences;
                t[ORDER] = order(&groups, players, i, j);
            }
            for (m, v) in max.iter_mut().zip(t.iter()) {
                *m = (*m).max(*v);
            }
        }
    }

    // Each term's multiplier: one more than the most that all the terms below it can
    // add up to over a perfect matching (n/2 edges, or the one bye edge).
    let mut multiplier = [0i128; TERMS];
    let mut below: i128 = 0;
    for term in (0..TERMS).rev() {
        multiplier[term] = below + 1;
        let edges = if BYE_ONLY[term] { 1 } else { (n / 2) as i128 };
        below = edges
            .checked_mul(i128::from(max[term]))
            .and_then(|x| x.checked_mul(multiplier[term]))
            .and_then(|x| x.checked_add(below))
            .expect("pairing costs fit in i128 for fields of up to a thousand entrants");
    }
    let cost: Vec<i128> = terms
        .iter()
        .map(|t| {
            (0..TERMS)
                .map(|term| i128::from(t[term]) * multiplier[term])
                .sum()
        })
        .collect();
    let mate = solve(&cost, n, below);

    let mut tables = Vec::new();
    let mut bye = Vec::new();
    for i in 0..k {
        let j = mate[i];
        if Some(j) == bye_vertex {
            bye.push(players[i].id);
        } else if i < j {
            let (a, b) = (&players[i], &players[j]);
            let seats = if seating(a, b, round).higher_first {
                vec![a.id, b.id]
            } else {
                vec![b.id, a.id]
            };
            // `i` runs in rank order, so the tables come strongest first.
            tables.push(seats);
        }
    }
    RoundPairing {
        games: tables,
        byes: bye,
    }
}

/// The minimum-cost perfect matching of `cost` (row-major `n × n`), whose costs are all
/// at most `max`. Narrow costs run on the solver's `i64`, about a quarter faster than
/// `i128`; the two give the same matching, the solver's arithmetic being exact in
/// both. The solver doubles its dual values, so `i64` is used only with ample room
/// (costs below 2^56, its bound for a weight being 2^61).
fn solve(cost: &[i128], n: usize, max: i128) -> Vec<usize> {
    if max < 1 << 56 {
        let narrow: Vec<i64> = cost.iter().map(|&c| c as i64).collect();
        min_weight_perfect_matching(&narrow, n)
    } else {
        min_weight_perfect_matching(cost, n)
    }
}

/// The score groups: for each ranked entrant, the range of ranks with its points.
fn groups(players: &[Player]) -> Vec<(usize, usize)> {
    let mut groups = vec![(0, 0); players.len()];
    let mut start = 0;
    while start < players.len() {
        let mut end = start;
        while end < players.len() && players[end].points == players[start].points {
            end += 1;
        }
        for g in &mut groups[start..end] {
            *g = (start, end);
        }
        start = end;
    }
    groups
}

/// Term 8 for the entrants ranked `i < j`.
fn order(groups: &[(usize, usize)], players: &[Player], i: usize, j: usize) -> u32 {
    let (start_i, end_i) = groups[i];
    if players[i].points == players[j].points {
        let half = (end_i - start_i) / 2;
        (j - i).abs_diff(half) as u32
    } else {
        let (start_j, _) = groups[j];
        ((end_i - 1 - i) + (j - start_j)) as u32
    }
}

/// How a pair would sit, and what that costs in terms 3, 4 and 7.
struct Seating {
    /// The better-ranked entrant takes seat 0.
    higher_first: bool,
    balance: u32,
    streaks: u32,
    preferences: u32,
}

/// The seat order for `a`, ranked above `b`, in `round` (see the module documentation).
fn seating(a: &Player, b: &Player, round: u32) -> Seating {
    let rules = |first: &Player, second: &Player| {
        (
            past_balance(first, 0) + past_balance(second, 1),
            streak(first, 0) + streak(second, 1),
        )
    };
    let (a_first, b_first) = (rules(a, b), rules(b, a));
    let was_second = |p: &Player| p.recent[0] == Some(1);
    let higher_first = if a_first != b_first {
        a_first < b_first
    } else if a.balance != b.balance {
        a.balance < b.balance
    } else if was_second(a) != was_second(b) {
        was_second(a)
    } else {
        round % 2 == 1
    };
    let (first, second) = if higher_first { (a, b) } else { (b, a) };
    let (balance, streaks) = rules(first, second);
    Seating {
        higher_first,
        balance,
        streaks,
        preferences: dislikes(first, 0) + dislikes(second, 1),
    }
}

/// Term 3 for one entrant taking `seat`: whether its balance would pass ±2, or move
/// further past.
fn past_balance(p: &Player, seat: u8) -> u32 {
    let next = p.balance + if seat == 0 { 1 } else { -1 };
    u32::from(next.abs() > 2 && next.abs() > p.balance.abs())
}

/// Term 4 for one entrant taking `seat`: whether it would sit there a third game
/// running.
fn streak(p: &Player, seat: u8) -> u32 {
    u32::from(p.recent == [Some(seat), Some(seat)])
}

/// Term 7 for one entrant taking `seat`.
fn dislikes(p: &Player, seat: u8) -> u32 {
    let (wanted, weight) = match p.balance.signum() {
        1 => (1, 2),
        -1 => (0, 2),
        _ => match p.recent[0] {
            Some(last) => (1 - last, 1),
            None => return 0,
        },
    };
    if seat == wanted {
        0
    } else {
        weight
    }
}

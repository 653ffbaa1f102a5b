//! Pools: Swiss-like rounds for games of 3–4 seats, and round-robin pools.
//!
//! A matching pairs two seats; tables of three or four have no such exact method, so
//! pools are cut from the standings and then mended locally:
//!
//! 1. **Rank** the active entrants by points (descending), rating (descending), id
//!    (ascending).
//! 2. **Table sizes**: as few tables as hold everyone, `k = ⌈n / seats⌉`, with sizes as
//!    even as possible, the larger ones at the top (10 entrants at 4 seats: 4, 3, 3).
//!    If that would seat a table below `min_seats`, the fewest byes that make it
//!    possible go to the entrants with the fewest byes so far, lowest-ranked first.
//! 3. **Cut** the ranked list (without the byes) into tables in that order.
//! 4. **Mend repeats**: a table's *repeats* are the earlier played (non-forfeit) games of
//!    each pair at it, summed. Going down the tables, for each table `t` and each of the
//!    [`MEND_REACH`] tables `u` below it, if either has repeats, try every swap of one
//!    entrant of `t` with one of `u` whose points differ by at most `2·(seats − 1)`
//!    half-points (the spread of one game's results: nobody moves further than that
//!    from the score of the one it replaces); make the swap that leaves the two tables
//!    the fewest repeats, if that is fewer than before (ties: the smaller sum over both
//!    tables of the squared points differences of each pair at a table, then the two
//!    entrants nearest in rank, then the first found). Walk again until a walk makes no
//!    swap, at most [`MEND_WALKS`] times. Every swap lowers the total, so mending never
//!    adds a repeat anywhere. This is a heuristic: it leaves no repeats in a field that
//!    is large for its rounds (see [`MEND_REACH`]), but promises none.
//! 5. **Seat order** inside each table: fewest seat-0 games first, then the one who sat
//!    later on average (the larger sum of `2·seat − (seats − 1)` over its games), then
//!    the better-ranked first on odd rounds and the worse-ranked first on even rounds.

use std::cmp::Reverse;

use crate::field::Field;
use crate::{ByeRecord, Entrant, EntrantId, GameRecord, RoundPairing};

/// The largest field [`crate::check()`] accepts for pools. The pairing is a sort and
/// local swaps: 1,024 entrants at 4 seats took 0.4–17 ms a round in a release build on
/// the project's 2-core machine while another build kept both cores busy.
pub const MAX_ENTRANTS: usize = 1024;

/// The most tables a round-robin pool may have: C(8, 4) = 70.
pub const ROUND_ROBIN_MAX_GAMES: usize = 70;

/// The largest field of a round-robin pool.
pub const ROUND_ROBIN_MAX_ENTRANTS: usize = 8;

/// How many tables down step 4 looks for a swap. Swapping only between neighbouring
/// tables left repeats in most 6-round fields of 96 entrants at 4 seats: entrants near
/// each other in the standings have usually met. With six, random fields of at least
/// 4·seats·rounds entrants (rounds ≤ 4) or 8·seats·rounds (rounds ≤ 6), tables one
/// seat short allowed, had none in 6,000 trials while this was tuned; `tests/pools.rs`
/// checks a fixed sample.
pub const MEND_REACH: usize = 6;

/// How many times step 4 walks down the tables at most.
pub const MEND_WALKS: usize = 8;

/// The next round's tables of `min_seats..=seats` entrants (see the module
/// documentation). Tables come strongest first; byes in rank order.
///
/// # Panics
///
/// If `seats < 2` or `min_seats` is not in `2..=seats` ([`crate::check()`] refuses both).
pub fn pair(
    entrants: &[Entrant],
    games: &[GameRecord],
    byes: &[ByeRecord],
    round: u32,
    seats: usize,
    min_seats: usize,
) -> RoundPairing {
    assert!(
        seats >= 2 && (2..=seats).contains(&min_seats),
        "pools need 2 ≤ min_seats ≤ seats, not min_seats {min_seats} and seats {seats}"
    );
    let field = Field::active(entrants, games, byes);
    let players = &field.ranked;
    let n = players.len();
    let (sizes, bye_count) = layout(n, seats, min_seats);

    let mut by_bye_need: Vec<usize> = (0..n).collect();
    by_bye_need.sort_by_key(|&i| (players[i].byes, Reverse(i)));
    let mut sitting_out = by_bye_need[..bye_count].to_vec();
    sitting_out.sort_unstable();
    let seated: Vec<usize> = (0..n)
        .filter(|i| sitting_out.binary_search(i).is_err())
        .collect();

    let mut tables = Vec::with_capacity(sizes.len());
    let mut rest = seated.as_slice();
    for size in sizes {
        let (table, tail) = rest.split_at(size);
        tables.push(table.to_vec());
        rest = tail;
    }
    mend(&mut tables, &field, seats);

    let games = tables
        .into_iter()
        .map(|mut table| {
            table.sort_by_key(|&i| {
                let p = &players[i];
                let rank = if round % 2 == 1 {
                    i as i64
                } else {
                    -(i as i64)
                };
                (p.first_seats, Reverse(p.lateness), rank)
            });
            table.into_iter().map(|i| players[i].id).collect()
        })
        .collect();
    RoundPairing {
        games,
        byes: sitting_out.iter().map(|&i| players[i].id).collect(),
    }
}

/// Step 2: the table sizes (top first) and the number of byes for `n` entrants.
fn layout(n: usize, seats: usize, min_seats: usize) -> (Vec<usize>, usize) {
    for byes in 0..=n {
        let rest = n - byes;
        let tables = rest.div_ceil(seats);
        if tables * min_seats <= rest {
            let (base, extra) = (rest / tables.max(1), rest % tables.max(1));
            let sizes = (0..tables).map(|t| base + usize::from(t < extra)).collect();
            return (sizes, byes);
        }
    }
    unreachable!("zero entrants always fit")
}

/// Step 4: swaps between nearby tables that lower their repeats.
fn mend(tables: &mut [Vec<usize>], field: &Field, seats: usize) {
    let players = &field.ranked;
    let tolerance = 2 * (seats as u32 - 1);
    let repeats = |table: &[usize]| -> u32 {
        let mut sum = 0;
        for (x, &a) in table.iter().enumerate() {
            for &b in &table[x + 1..] {
                sum += field.met(a, b);
            }
        }
        sum
    };
    let spread = |table: &[usize]| -> u64 {
        let mut sum = 0;
        for (x, &a) in table.iter().enumerate() {
            for &b in &table[x + 1..] {
                sum += u64::from(players[a].points.abs_diff(players[b].points)).pow(2);
            }
        }
        sum
    };
    for _ in 0..MEND_WALKS {
        let mut swapped = false;
        for t in 0..tables.len() {
            for u in t + 1..tables.len().min(t + 1 + MEND_REACH) {
                let (head, tail) = tables.split_at_mut(u);
                let (upper, lower) = (&mut head[t], &mut tail[0]);
                let before = repeats(upper) + repeats(lower);
                if before == 0 {
                    continue;
                }
                let mut best: Option<(u32, u64, usize, usize, usize)> = None;
                for x in 0..upper.len() {
                    for y in 0..lower.len() {
                        let (a, b) = (upper[x], lower[y]);
                        if players[a].points.abs_diff(players[b].points) > tolerance {
                            continue;
                        }
                        std::mem::swap(&mut upper[x], &mut lower[y]);
                        let after = repeats(upper) + repeats(lower);
                        let key = (after, spread(upper) + spread(lower), a.abs_diff(b), x, y);
                        std::mem::swap(&mut upper[x], &mut lower[y]);
                        if after < before && best.is_none_or(|best| key < best) {
                            best = Some(key);
                        }
                    }
                }
                if let Some((_, _, _, x, y)) = best {
                    std::mem::swap(&mut upper[x], &mut lower[y]);
                    swapped = true;
                }
            }
        }
        if !swapped {
            break;
        }
    }
}

/// Every `seats`-entrant table of the field exactly once, as rounds.
///
/// The tables are the field's `seats`-subsets in lexicographic order of the entrants'
/// positions in `entrants` (a repeated id counts once). Rounds are filled greedily:
/// each round takes, in that order, every remaining table that shares no entrant with
/// the tables it already has. Whoever has no table in a round has a bye; everyone plays
/// the same number of tables, so everyone has the same number of byes. Each table's
/// seat order is its entrants in position order, rotated to start at the one who takes
/// seat 0 there; those are chosen so that everyone takes seat 0 equally often, give or
/// take one.
///
/// # Panics
///
/// If `seats < 2`, or the field is larger than [`ROUND_ROBIN_MAX_ENTRANTS`] or has more
/// than [`ROUND_ROBIN_MAX_GAMES`] tables ([`crate::check()`] refuses these): the number
/// of tables grows as n^seats.
pub fn round_robin(entrants: &[EntrantId], seats: usize) -> Vec<RoundPairing> {
    let mut field: Vec<EntrantId> = Vec::new();
    for &id in entrants {
        if !field.contains(&id) {
            field.push(id);
        }
    }
    let n = field.len();
    assert!(seats >= 2, "a table has at least two seats, not {seats}");
    assert!(
        n <= ROUND_ROBIN_MAX_ENTRANTS && binomial(n, seats) <= ROUND_ROBIN_MAX_GAMES,
        "a round-robin pool is at most {ROUND_ROBIN_MAX_ENTRANTS} entrants and \
         {ROUND_ROBIN_MAX_GAMES} tables, not {n} entrants at {seats} seats"
    );
    let mut remaining = subsets(n, seats);
    // Greedy rounds: each takes, in order, every table that fits.
    let mut rounds: Vec<Vec<Vec<usize>>> = Vec::new();
    while !remaining.is_empty() {
        let mut busy = 0u32;
        let mut round = Vec::new();
        remaining.retain(|table| {
            let mask = table.iter().fold(0u32, |m, &i| m | 1 << i);
            if busy & mask != 0 {
                return true;
            }
            busy |= mask;
            round.push(table.clone());
            false
        });
        rounds.push(round);
    }
    let tables: Vec<&Vec<usize>> = rounds.iter().flatten().collect();
    let first = first_seats(&tables, n);
    let mut next = first.iter();
    rounds
        .iter()
        .map(|round| {
            let mut busy = vec![false; n];
            let games = round
                .iter()
                .map(|table| {
                    let opener = *next.next().expect("one opener per table");
                    let start = table.iter().position(|&i| i == opener).expect("a member");
                    let mut order = table.clone();
                    order.rotate_left(start);
                    for &i in &order {
                        busy[i] = true;
                    }
                    order.iter().map(|&i| field[i]).collect()
                })
                .collect();
            let byes = (0..n).filter(|&i| !busy[i]).map(|i| field[i]).collect();
            RoundPairing { games, byes }
        })
        .collect()
}

/// Who takes seat 0 at each table: everyone as often as anyone else, give or take one.
///
/// A bipartite matching of tables to their members, each member taking at most `cap`
/// tables (Kuhn's augmenting paths): first with `cap` the fair share rounded down, which
/// every member reaches (the field is symmetric, so spreading each table evenly over
/// its members is a fractional solution, and flows have integral ones), then with one
/// more for the tables left, which never takes a member below the first cap.
fn first_seats(tables: &[&Vec<usize>], n: usize) -> Vec<usize> {
    fn assign(
        t: usize,
        cap: u32,
        tables: &[&Vec<usize>],
        owner: &mut [Option<usize>],
        load: &mut [u32],
        tried: &mut [bool],
    ) -> bool {
        for &member in tables[t].iter() {
            if tried[member] {
                continue;
            }
            tried[member] = true;
            if load[member] < cap {
                load[member] += 1;
                owner[t] = Some(member);
                return true;
            }
            // `member` is full: free one of its tables by moving it to another member.
            for other in 0..tables.len() {
                if owner[other] == Some(member) && assign(other, cap, tables, owner, load, tried) {
                    // `member` gave up `other` and takes `t`: its load stays.
                    owner[t] = Some(member);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; tables.len()];
    let mut load = vec![0u32; n];
    let fair = (tables.len() / n.max(1)) as u32;
    for cap in [fair, fair + 1] {
        for t in 0..tables.len() {
            if owner[t].is_none() {
                assign(t, cap, tables, &mut owner, &mut load, &mut vec![false; n]);
            }
        }
    }
    owner
        .into_iter()
        .map(|o| o.expect("the second cap seats every table"))
        .collect()
}

/// The `size`-subsets of `0..n`, in lexicographic order.
fn subsets(n: usize, size: usize) -> Vec<Vec<usize>> {
    fn extend(
        n: usize,
        size: usize,
        from: usize,
        current: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if current.len() == size {
            out.push(current.clone());
            return;
        }
        for i in from..n {
            current.push(i);
            extend(n, size, i + 1, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    extend(n, size, 0, &mut Vec::new(), &mut out);
    out
}

/// C(n, k), saturating (only ever compared with small limits).
pub(crate) fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut c: usize = 1;
    for i in 0..k.min(n - k) {
        c = c.saturating_mul(n - i) / (i + 1);
    }
    c
}

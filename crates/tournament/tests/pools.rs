//! Pools for 3–4 seats: everyone seated once, table sizes in bounds, byes only when no
//! layout avoids them, and no repeated meetings in a field large for its rounds.

use std::collections::HashMap;

use arbiter_tournament::{pools, ByeRecord, Entrant, EntrantId, GameRecord, RoundPairing};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use crate::common::{covers_the_active, field, meetings, play, Rng};

/// The fewest byes that let `n` entrants sit at tables of `min..=seats`.
fn fewest_byes(n: usize, seats: usize, min: usize) -> usize {
    (0..=n)
        .find(|b| (n - b).div_ceil(seats) * min <= n - b)
        .expect("zero entrants fit")
}

/// Pairs `round`, checks it, and returns it with the number of repeated pairs at its
/// tables.
fn pair_and_check(
    entrants: &[Entrant],
    games: &[GameRecord],
    byes: &[ByeRecord],
    round: u32,
    seats: usize,
    min: usize,
) -> (RoundPairing, usize) {
    let pairing = pools::pair(entrants, games, byes, round, seats, min);
    covers_the_active(&pairing, entrants);
    assert_eq!(
        pairing,
        pools::pair(entrants, games, byes, round, seats, min)
    );
    for table in &pairing.games {
        assert!(
            (min..=seats).contains(&table.len()),
            "a table of {} in {pairing:?}",
            table.len()
        );
    }
    let active = entrants.iter().filter(|e| e.active).count();
    assert_eq!(pairing.byes.len(), fewest_byes(active, seats, min));
    // Byes go to those with the fewest so far.
    let had = |id: EntrantId| byes.iter().filter(|b| b.entrant == id).count();
    let most_given = pairing.byes.iter().map(|&id| had(id)).max();
    let fewest_seated = pairing.games.iter().flatten().map(|&id| had(id)).min();
    if let (Some(given), Some(seated)) = (most_given, fewest_seated) {
        assert!(
            given <= seated,
            "a bye to someone with {given} while someone with {seated} plays"
        );
    }
    let met = meetings(games);
    let repeats = pairing
        .games
        .iter()
        .map(|table| {
            let mut count = 0;
            for (i, &a) in table.iter().enumerate() {
                for &b in &table[i + 1..] {
                    count += usize::from(met.contains_key(&(a.min(b), a.max(b))));
                }
            }
            count
        })
        .sum();
    (pairing, repeats)
}

/// Plays `rounds` random rounds; returns the repeated pairs seated in all.
pub(crate) fn tournament(
    n: usize,
    seats: usize,
    min: usize,
    rounds: u32,
    seed: u64,
    withdrawals: bool,
) -> usize {
    let mut rng = Rng(seed);
    let mut entrants = field(n, &mut rng);
    let (mut games, mut byes) = (Vec::new(), Vec::new());
    let mut repeats = 0;
    for round in 1..=rounds {
        if withdrawals {
            for entrant in &mut entrants {
                let roll = rng.below(12);
                if entrant.active && roll == 0 {
                    entrant.active = false;
                } else if !entrant.active && roll < 4 {
                    entrant.active = true;
                }
            }
        }
        let (pairing, repeated) = pair_and_check(&entrants, &games, &byes, round, seats, min);
        repeats += repeated;
        play(
            &pairing, round, &entrants, true, &mut rng, &mut games, &mut byes,
        );
    }
    repeats
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_pools(
        n in 0usize..=80,
        seats in 3usize..=4,
        min_offset in 0usize..=2,
        rounds in 1u32..=8,
        seed in any::<u64>(),
        withdrawals in any::<bool>(),
    ) {
        let min = seats.saturating_sub(min_offset).max(2);
        tournament(n, seats, min, rounds, seed, withdrawals);
    }

}

proptest! {
    // Mending repeats is a heuristic, so this samples fixed cases rather than new ones
    // each run: the property held in 6,000 random trials while it was tuned
    // (`pools::MEND_REACH`), but a rare field could still defeat it.
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(20_260_501),
        ..ProptestConfig::default()
    })]

    /// No pair meets twice when the field is large for its rounds: at least 4·seats
    /// entrants per round for up to four rounds, 8·seats per round for five or six.
    /// Tables may be one seat short.
    #[test]
    fn no_repeats_in_a_large_field(
        seats in 3usize..=4,
        rounds in 1u32..=6,
        extra in 0usize..40,
        seed in any::<u64>(),
    ) {
        let per_round = if rounds <= 4 { 4 } else { 8 };
        let n = per_round * seats * rounds as usize + extra;
        let repeats = tournament(n, seats, seats - 1, rounds, seed, false);
        prop_assert_eq!(repeats, 0);
    }
}

#[test]
fn table_sizes_and_byes() {
    let entrants: Vec<Entrant> = (1..=10)
        .map(|id| Entrant {
            id,
            rating: 2000.0 - id as f64,
            active: true,
        })
        .collect();
    // 10 at four seats, at least three: 4, 3, 3, in rank order, no byes.
    let pairing = pools::pair(&entrants, &[], &[], 1, 4, 3);
    assert_eq!(
        pairing.games,
        vec![vec![1, 2, 3, 4], vec![5, 6, 7], vec![8, 9, 10]]
    );
    assert!(pairing.byes.is_empty());
    // At four seats exactly: two tables, the two lowest-ranked sit out.
    let pairing = pools::pair(&entrants, &[], &[], 1, 4, 4);
    assert_eq!(pairing.games, vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
    assert_eq!(pairing.byes, vec![9, 10]);
    // Next time they have had a bye: 7 and 8 sit out instead.
    let byes = [
        ByeRecord {
            round: 1,
            entrant: 9,
        },
        ByeRecord {
            round: 1,
            entrant: 10,
        },
    ];
    let pairing = pools::pair(&entrants, &[], &byes, 2, 4, 4);
    assert_eq!(pairing.byes, vec![7, 8]);
}

#[test]
fn seat_order_gives_seat_zero_to_who_had_it_least() {
    let entrants: Vec<Entrant> = (1..=3)
        .map(|id| Entrant {
            id,
            rating: 2000.0 - id as f64,
            active: true,
        })
        .collect();
    let game = GameRecord {
        round: 1,
        seats: vec![1, 2, 3],
        ranks: Some(vec![1, 2, 3]),
        forfeit: false,
    };
    // Round 1: by rank. Round 2: 1 had seat 0; 3 sat last, so it goes first.
    assert_eq!(
        pools::pair(&entrants, &[], &[], 1, 3, 3).games,
        vec![vec![1, 2, 3]]
    );
    assert_eq!(
        pools::pair(&entrants, &[game], &[], 2, 3, 3).games,
        vec![vec![3, 2, 1]]
    );
}

#[test]
fn round_robin_pools_play_every_table_once() {
    for seats in 2..=4 {
        for n in 0..=8usize {
            let field: Vec<EntrantId> = (1..=n as EntrantId).map(|i| 50 + 3 * i).collect();
            let rounds = pools::round_robin(&field, seats);
            let mut tables: HashMap<Vec<EntrantId>, u32> = HashMap::new();
            let mut first: HashMap<EntrantId, u32> = HashMap::new();
            let mut byes: HashMap<EntrantId, u32> = HashMap::new();
            for round in &rounds {
                let mut seen: Vec<EntrantId> = round
                    .games
                    .iter()
                    .flatten()
                    .chain(&round.byes)
                    .copied()
                    .collect();
                seen.sort();
                assert_eq!(
                    seen, field,
                    "n = {n}, seats = {seats}: everyone once a round"
                );
                for game in &round.games {
                    assert_eq!(game.len(), seats);
                    *first.entry(game[0]).or_default() += 1;
                    let mut key = game.clone();
                    key.sort();
                    *tables.entry(key).or_default() += 1;
                }
                for &id in &round.byes {
                    *byes.entry(id).or_default() += 1;
                }
            }
            let expected = binomial(n, seats);
            assert_eq!(tables.len(), expected, "n = {n}, seats = {seats}");
            assert!(tables.values().all(|&c| c == 1));
            // Everyone sits out equally often.
            let sat_out: Vec<u32> = field
                .iter()
                .map(|id| byes.get(id).copied().unwrap_or(0))
                .collect();
            assert!(
                sat_out.windows(2).all(|w| w[0] == w[1]),
                "n = {n}, seats = {seats}: {sat_out:?}"
            );
            // Seat 0 is shared out evenly: counts differ by at most one.
            let firsts: Vec<u32> = field
                .iter()
                .map(|id| first.get(id).copied().unwrap_or(0))
                .collect();
            let (lo, hi) = (firsts.iter().min(), firsts.iter().max());
            if let (Some(lo), Some(hi)) = (lo, hi) {
                assert!(
                    hi - lo <= 1,
                    "n = {n}, seats = {seats}: seat-0 counts {firsts:?}"
                );
            }
        }
    }
}

#[test]
#[should_panic(expected = "a round-robin pool is at most")]
fn round_robin_pools_refuse_large_fields() {
    let field: Vec<EntrantId> = (1..=9).collect();
    pools::round_robin(&field, 3);
}

fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

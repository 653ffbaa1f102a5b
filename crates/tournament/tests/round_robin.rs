//! Double round-robin schedules for every field size the format allows (and a few more).

use std::collections::HashMap;

use arbiter_tournament::{round_robin, EntrantId};

#[test]
fn every_pair_meets_twice_once_in_each_seat_order() {
    for n in 2..=round_robin::MAX_ENTRANTS + 3 {
        let field: Vec<EntrantId> = (0..n as EntrantId).map(|i| 1000 - 7 * i).collect();
        let rounds = round_robin::schedule(&field);
        let per_half = if n % 2 == 0 { n - 1 } else { n };
        assert_eq!(rounds.len(), 2 * per_half, "n = {n}");

        let mut ordered: HashMap<(EntrantId, EntrantId), u32> = HashMap::new();
        let mut first: HashMap<EntrantId, u32> = HashMap::new();
        let mut played: HashMap<EntrantId, u32> = HashMap::new();
        let mut byes: HashMap<EntrantId, u32> = HashMap::new();
        for (r, round) in rounds.iter().enumerate() {
            // Nobody twice in a round; everyone once.
            let mut seen: Vec<EntrantId> = round
                .games
                .iter()
                .flatten()
                .chain(&round.byes)
                .copied()
                .collect();
            seen.sort();
            let mut all = field.clone();
            all.sort();
            assert_eq!(seen, all, "n = {n}, round {r}");
            assert_eq!(round.byes.len(), n % 2, "n = {n}, round {r}");
            for game in &round.games {
                assert_eq!(game.len(), 2);
                *ordered.entry((game[0], game[1])).or_default() += 1;
                *first.entry(game[0]).or_default() += 1;
                for id in game {
                    *played.entry(*id).or_default() += 1;
                }
            }
            for id in &round.byes {
                *byes.entry(*id).or_default() += 1;
            }
        }
        for &a in &field {
            for &b in &field {
                if a != b {
                    assert_eq!(ordered.get(&(a, b)), Some(&1), "n = {n}: {a} against {b}");
                }
            }
            assert_eq!(played[&a], 2 * (n as u32 - 1));
            assert_eq!(2 * first[&a], played[&a], "n = {n}: {a}'s seat-0 games");
            assert_eq!(
                byes.get(&a).copied().unwrap_or(0),
                if n % 2 == 1 { 2 } else { 0 }
            );
        }
    }
}

/// Berger tables keep seats alternating: within the first half, nobody's seat-0 games
/// differ from their seat-1 games by more than one.
#[test]
fn the_first_half_balances_seats() {
    for n in 2..=round_robin::MAX_ENTRANTS {
        let field: Vec<EntrantId> = (1..=n as EntrantId).collect();
        let rounds = round_robin::schedule(&field);
        let half = &rounds[..rounds.len() / 2];
        let mut balance: HashMap<EntrantId, i32> = HashMap::new();
        for round in half {
            for game in &round.games {
                *balance.entry(game[0]).or_default() += 1;
                *balance.entry(game[1]).or_default() -= 1;
            }
        }
        for (id, b) in balance {
            assert!(
                b.abs() <= 1,
                "n = {n}: entrant {id} has balance {b} after the first half"
            );
        }
    }
}

#[test]
fn the_berger_table_for_six() {
    // FIDE's Berger table for six: round 1 is 1–6, 2–5, 3–4; round 2 is 6–4, 5–3, 1–2.
    let rounds = round_robin::schedule(&[1, 2, 3, 4, 5, 6]);
    assert_eq!(rounds[0].games, vec![vec![1, 6], vec![2, 5], vec![3, 4]]);
    assert_eq!(rounds[1].games, vec![vec![6, 4], vec![5, 3], vec![1, 2]]);
    assert_eq!(rounds[2].games, vec![vec![2, 6], vec![3, 1], vec![4, 5]]);
    // The second half swaps seats.
    assert_eq!(rounds[5].games, vec![vec![6, 1], vec![5, 2], vec![4, 3]]);
}

#[test]
fn tiny_and_repeated_fields() {
    assert!(round_robin::schedule(&[]).is_empty());
    assert!(round_robin::schedule(&[5]).is_empty());
    assert_eq!(round_robin::schedule(&[5, 5]).len(), 0);
    assert_eq!(
        round_robin::schedule(&[5, 6, 5]),
        round_robin::schedule(&[5, 6])
    );
}

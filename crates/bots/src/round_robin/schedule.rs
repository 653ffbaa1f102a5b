//! Which player takes which seat in each game of a round-robin.
//!
//! Every permutation of the players over the seats is played in turn, so each player
//! sits in each seat equally often (for two seats: the order alternates game by game).

/// The seat order of game `index`: `order[seat]` is the player's index in the entry
/// list. Cycles through every permutation of `players` in lexicographic order.
pub fn seat_order(players: usize, index: usize) -> Vec<usize> {
    let count = permutations(players);
    nth_permutation(players, index % count.max(1))
}

/// n! (the number of seat orders), saturating.
pub fn permutations(n: usize) -> usize {
    (1..=n).fold(1usize, |acc, k| acc.saturating_mul(k))
}

/// The `k`-th permutation of `0..n` in lexicographic order.
fn nth_permutation(n: usize, mut k: usize) -> Vec<usize> {
    let mut pool: Vec<usize> = (0..n).collect();
    let mut out = Vec::with_capacity(n);
    for left in (1..=n).rev() {
        let block = permutations(left - 1);
        let pick = (k / block).min(pool.len() - 1);
        k %= block;
        out.push(pool.remove(pick));
    }
    out
}

/// The match seed of game `index` in a round-robin seeded with `seed`. Games played in
/// both seat orders share a map: the seed changes every full cycle of permutations,
/// so seat advantage and map luck even out between the players.
pub fn game_seed(seed: u64, players: usize, index: usize) -> u64 {
    let cycle = (index / permutations(players).max(1)) as u64;
    // splitmix64 of (seed, cycle): neighbouring cycles get unrelated seeds.
    let mut z = seed
        .wrapping_add(cycle.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_seats_alternate() {
        assert_eq!(seat_order(2, 0), vec![0, 1]);
        assert_eq!(seat_order(2, 1), vec![1, 0]);
        assert_eq!(seat_order(2, 2), vec![0, 1]);
        assert_eq!(game_seed(5, 2, 0), game_seed(5, 2, 1));
        assert_ne!(game_seed(5, 2, 1), game_seed(5, 2, 2));
    }

    #[test]
    fn every_player_sits_everywhere_equally() {
        for n in 1..=4 {
            let cycle = permutations(n);
            let mut count = vec![vec![0; n]; n];
            let mut seen = std::collections::BTreeSet::new();
            for i in 0..cycle {
                let order = seat_order(n, i);
                for (seat, &player) in order.iter().enumerate() {
                    count[player][seat] += 1;
                }
                seen.insert(order);
            }
            assert_eq!(seen.len(), cycle, "all permutations differ");
            for row in count {
                assert!(row.iter().all(|&c| c == cycle / n));
            }
        }
    }
}

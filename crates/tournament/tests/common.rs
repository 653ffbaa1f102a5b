//! What the tests share: a small seeded generator, fields, and playing a round out.

use std::collections::HashMap;

use arbiter_tournament::{ByeRecord, Entrant, EntrantId, GameRecord, RoundPairing};

/// SplitMix64: the tests draw results from a seed proptest chooses, so a failing case
/// replays exactly.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `n` active entrants with ids 101.. and ratings drawn from the generator (some equal,
/// so the id tie-break is exercised too).
pub fn field(n: usize, rng: &mut Rng) -> Vec<Entrant> {
    (0..n)
        .map(|i| Entrant {
            id: 101 + i as EntrantId,
            rating: 1200.0 + 50.0 * rng.below(20) as f64,
            active: true,
        })
        .collect()
}

/// Ranks for one game: a random order with some shared places (draws), or with two
/// seats mostly won by the higher-rated entrant.
pub fn result(seats: &[EntrantId], ratings: &HashMap<EntrantId, f64>, rng: &mut Rng) -> Vec<u8> {
    if seats.len() == 2 {
        let (a, b) = (ratings[&seats[0]], ratings[&seats[1]]);
        let roll = rng.below(100);
        let favourite_first = a >= b;
        return match roll {
            0..=19 => vec![1, 1],
            20..=79 if favourite_first => vec![1, 2],
            20..=79 => vec![2, 1],
            _ if favourite_first => vec![2, 1],
            _ => vec![1, 2],
        };
    }
    let mut ranks: Vec<u8> = (1..=seats.len() as u8).collect();
    for i in (1..ranks.len()).rev() {
        ranks.swap(i, rng.below(i as u64 + 1) as usize);
    }
    if rng.below(5) == 0 {
        // Two seats share the better of their places.
        let (x, y) = (
            rng.below(ranks.len() as u64) as usize,
            rng.below(ranks.len() as u64) as usize,
        );
        let best = ranks[x].min(ranks[y]);
        ranks[x] = best;
        ranks[y] = best;
    }
    ranks
}

/// Records the round's games (finished, some as forfeits when `forfeits`) and byes.
pub fn play(
    pairing: &RoundPairing,
    round: u32,
    entrants: &[Entrant],
    forfeits: bool,
    rng: &mut Rng,
    games: &mut Vec<GameRecord>,
    byes: &mut Vec<ByeRecord>,
) {
    let ratings: HashMap<EntrantId, f64> = entrants.iter().map(|e| (e.id, e.rating)).collect();
    for seats in &pairing.games {
        games.push(GameRecord {
            round,
            seats: seats.clone(),
            ranks: Some(result(seats, &ratings, rng)),
            forfeit: forfeits && rng.below(25) == 0,
        });
    }
    for &entrant in &pairing.byes {
        byes.push(ByeRecord { round, entrant });
    }
}

/// Asserts that every active entrant is at exactly one table or has a bye, and nobody
/// else appears.
pub fn covers_the_active(pairing: &RoundPairing, entrants: &[Entrant]) {
    let mut seen: HashMap<EntrantId, usize> = HashMap::new();
    for id in pairing.games.iter().flatten().chain(&pairing.byes) {
        *seen.entry(*id).or_default() += 1;
    }
    for entrant in entrants {
        let times = seen.remove(&entrant.id).unwrap_or(0);
        if entrant.active {
            assert_eq!(
                times, 1,
                "active entrant {} appears {times} times in {pairing:?}",
                entrant.id
            );
        } else {
            assert_eq!(
                times, 0,
                "inactive entrant {} was paired in {pairing:?}",
                entrant.id
            );
        }
    }
    assert!(seen.is_empty(), "unknown entrants paired: {seen:?}");
}

/// Earlier played (non-forfeit) meetings of each pair, smaller id first.
pub fn meetings(games: &[GameRecord]) -> HashMap<(EntrantId, EntrantId), u32> {
    let mut met = HashMap::new();
    for game in games.iter().filter(|g| !g.forfeit) {
        for (i, &a) in game.seats.iter().enumerate() {
            for &b in &game.seats[i + 1..] {
                *met.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
    }
    met
}

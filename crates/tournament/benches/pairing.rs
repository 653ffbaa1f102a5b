//! One round's pairing at each format's size limit and at the sizes tournaments have:
//! the time the server's director spends deciding who plays whom (the goal is
//! under 10 ms a round for a 1,000-entrant arena). Each field has played a few rounds
//! first, with results drawn from a fixed seed, so the pairing has history to respect.

use arbiter_tournament::{
    arena, pools, swiss, ByeRecord, Entrant, GameRecord, HalfPoints, RoundPairing,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

/// A small fixed generator (xorshift), enough to vary ratings and results.
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn field(n: usize, draws: &mut Draws) -> Vec<Entrant> {
    (0..n)
        .map(|i| Entrant {
            id: i as i64 + 1,
            rating: 1200.0 + (draws.next() % 800) as f64,
            active: true,
        })
        .collect()
}

/// `rounds` rounds paired by `pair` and played with random ranks.
fn history(
    entrants: &[Entrant],
    rounds: u32,
    draws: &mut Draws,
    pair: impl Fn(&[Entrant], &[GameRecord], &[ByeRecord], u32) -> RoundPairing,
) -> (Vec<GameRecord>, Vec<ByeRecord>) {
    let (mut games, mut byes) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        let pairing = pair(entrants, &games, &byes, round);
        for seats in pairing.games {
            let ranks = (0..seats.len())
                .map(|_| (draws.next() % 3) as u8 + 1)
                .collect();
            games.push(GameRecord {
                round,
                seats,
                ranks: Some(ranks),
                forfeit: false,
            });
        }
        byes.extend(
            pairing
                .byes
                .into_iter()
                .map(|entrant| ByeRecord { round, entrant }),
        );
    }
    (games, byes)
}

fn swiss_rounds(c: &mut Criterion) {
    let mut group = c.benchmark_group("swiss_pair");
    for n in [64, 256] {
        let mut draws = Draws(7);
        let entrants = field(n, &mut draws);
        let (games, byes) = history(&entrants, 5, &mut draws, swiss::pair);
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| swiss::pair(&entrants, &games, &byes, 6))
        });
    }
    group.finish();
}

fn pools_rounds(c: &mut Criterion) {
    let mut group = c.benchmark_group("pools_pair_4_seats");
    for n in [64, 1024] {
        let mut draws = Draws(11);
        let entrants = field(n, &mut draws);
        let pair = |e: &[Entrant], g: &[GameRecord], b: &[ByeRecord], r: u32| {
            pools::pair(e, g, b, r, 4, 2)
        };
        let (games, byes) = history(&entrants, 5, &mut draws, pair);
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| pools::pair(&entrants, &games, &byes, 6, 4, 2))
        });
    }
    group.finish();
}

fn arena_waves(c: &mut Criterion) {
    let mut group = c.benchmark_group("arena_pair");
    for n in [1_000, 10_000] {
        let mut draws = Draws(13);
        let waiting: Vec<arena::Waiting> = (0..n)
            .map(|i| arena::Waiting {
                id: i as i64 + 1,
                points: HalfPoints((draws.next() % 40) as u32),
                rating: 1200.0 + (draws.next() % 800) as f64,
                last_opponent: Some((draws.next() % n as u64) as i64 + 1),
                balance: (draws.next() % 5) as i32 - 2,
            })
            .collect();
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| arena::pair(&waiting))
        });
    }
    group.finish();
}

criterion_group!(benches, swiss_rounds, pools_rounds, arena_waves);
criterion_main!(benches);

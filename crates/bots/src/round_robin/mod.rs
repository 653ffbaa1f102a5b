//! Local round-robins between built-in players (`arbiter round-robin`). The server's
//! tournaments, which people and network bots enter, are `crates/tournament`.
//!
//! A round-robin seats the same entries in every game, cycling through every seat
//! permutation ([`schedule`]), plays the games on `jobs` threads, and tallies each
//! entry's wins, draws and losses with a Wilson interval on its win rate and a rating
//! ([`rating`]). Results are gathered by game index and rated in that order, so a
//! round-robin of deterministic players gives the same table whatever the thread count
//! or timing.
//!
//! The games themselves are played by a caller-supplied function (in the CLI, a
//! ruleset's `play_local`), which keeps this module independent of any ruleset.

pub mod rating;
pub mod schedule;
pub mod stats;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use arbiter_engine::Outcome;
use serde::Serialize;

use rating::{rate, RatedGame, RatingSystem};
use schedule::{game_seed, seat_order};
use stats::wilson_interval;

/// What to play.
#[derive(Debug, Clone)]
pub struct Spec {
    /// One player name per seat; every game seats all of them, in rotating order.
    pub entries: Vec<String>,
    pub games: usize,
    /// Games played at once (threads).
    pub jobs: usize,
    pub seed: u64,
}

/// A round-robin that could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoundRobinError {
    #[error("a round-robin needs at least one player and one game")]
    Empty,
    #[error("game {index} (seed {seed}, seats {seats}) failed: {reason}")]
    Game {
        index: usize,
        seed: u64,
        seats: String,
        reason: String,
    },
}

/// One finished game.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameResult {
    pub index: usize,
    pub seed: u64,
    /// `order[seat]` = the entry in that seat.
    pub order: Vec<usize>,
    pub ranks: Vec<u32>,
}

/// One entry's line in the results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// The player's name, with `#k` when the same player is entered more than once.
    pub player: String,
    pub games: usize,
    /// Games it won alone.
    pub wins: usize,
    /// Games with a shared first place it was part of, or with no winner at all.
    pub draws: usize,
    pub losses: usize,
    /// wins / games.
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate.
    pub win_rate_low: f64,
    pub win_rate_high: f64,
    pub rating: f64,
}

/// A finished round-robin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub games: usize,
    pub seats: usize,
    pub seed: u64,
    pub rating_system: RatingSystem,
    pub standings: Vec<Standing>,
    pub results: Vec<GameResult>,
}

/// Play the round-robin. `play(names_by_seat, seed)` plays one game to its outcome;
/// `progress(finished)` is called after every game (from the worker threads).
pub fn run<F, P>(spec: &Spec, play: F, progress: P) -> Result<Report, RoundRobinError>
where
    F: Fn(&[String], u64) -> Result<Outcome, String> + Sync,
    P: Fn(usize) + Sync,
{
    let seats = spec.entries.len();
    if seats == 0 || spec.games == 0 {
        return Err(RoundRobinError::Empty);
    }
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Result<GameResult, RoundRobinError>>>> =
        Mutex::new(vec![None; spec.games]);
    let jobs = spec.jobs.clamp(1, spec.games);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= spec.games || failed.load(Ordering::Relaxed) {
                    break;
                }
                let result = play_one(spec, index, &play);
                if result.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                if let Ok(mut all) = results.lock() {
                    all[index] = Some(result);
                }
                progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut games = Vec::with_capacity(spec.games);
    for result in results.into_iter().flatten() {
        games.push(result?);
    }
    Ok(tally(spec, games))
}

fn play_one<F>(spec: &Spec, index: usize, play: &F) -> Result<GameResult, RoundRobinError>
where
    F: Fn(&[String], u64) -> Result<Outcome, String>,
{
    let seats = spec.entries.len();
    let order = seat_order(seats, index);
    let names: Vec<String> = order.iter().map(|&e| spec.entries[e].clone()).collect();
    let seed = game_seed(spec.seed, seats, index);
    let fail = |reason: String| RoundRobinError::Game {
        index,
        seed,
        seats: names.join(","),
        reason,
    };
    let outcome = play(&names, seed).map_err(fail)?;
    if outcome.ranks.len() != seats {
        return Err(fail(format!(
            "the outcome ranks {} seats, not {seats}",
            outcome.ranks.len()
        )));
    }
    Ok(GameResult {
        index,
        seed,
        order,
        ranks: outcome.ranks,
    })
}

/// Wins, draws, losses, intervals and ratings from the games, in game order.
fn tally(spec: &Spec, results: Vec<GameResult>) -> Report {
    let seats = spec.entries.len();
    let labels = labels(&spec.entries);
    let mut standings: Vec<Standing> = labels
        .into_iter()
        .map(|player| Standing {
            player,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            win_rate: 0.0,
            win_rate_low: 0.0,
            win_rate_high: 1.0,
            rating: 0.0,
        })
        .collect();
    for game in &results {
        let firsts = game.ranks.iter().filter(|&&r| r == 1).count();
        for (seat, &entry) in game.order.iter().enumerate() {
            let standing = &mut standings[entry];
            standing.games += 1;
            match (game.ranks[seat] == 1, firsts) {
                (true, 1) => standing.wins += 1,
                (true, _) | (false, 0) => standing.draws += 1,
                (false, _) => standing.losses += 1,
            }
        }
    }
    for standing in &mut standings {
        let (low, high) = wilson_interval(standing.wins, standing.games);
        standing.win_rate = if standing.games == 0 {
            0.0
        } else {
            standing.wins as f64 / standing.games as f64
        };
        standing.win_rate_low = low;
        standing.win_rate_high = high;
    }
    let rated: Vec<RatedGame> = results
        .iter()
        .map(|g| RatedGame {
            players: &g.order,
            ranks: &g.ranks,
        })
        .collect();
    let (rating_system, ratings) = rate(seats, seats, &rated);
    for (standing, rating) in standings.iter_mut().zip(ratings) {
        standing.rating = rating;
    }
    Report {
        games: results.len(),
        seats,
        seed: spec.seed,
        rating_system,
        standings,
        results,
    }
}

/// Entry names, numbered where the same player is entered more than once.
fn labels(entries: &[String]) -> Vec<String> {
    entries
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let same = entries.iter().filter(|n| *n == name).count();
            if same > 1 {
                let k = entries[..=i].iter().filter(|n| *n == name).count();
                format!("{name}#{k}")
            } else {
                name.clone()
            }
        })
        .collect()
}

impl Report {
    /// The standings as a text table, one line per entry.
    pub fn table(&self) -> String {
        let rating = match self.rating_system {
            RatingSystem::Elo => "Elo",
            RatingSystem::WengLin => "Weng-Lin",
        };
        let width = self
            .standings
            .iter()
            .map(|s| s.player.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let mut out = format!(
            "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>9}  {:<17} {:>8}\n",
            "player", "games", "wins", "draws", "losses", "win rate", "95% interval", rating
        );
        for s in &self.standings {
            out.push_str(&format!(
                "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>8.1}%  [{:>5.1}%, {:>5.1}%]  {:>8.1}\n",
                s.player,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.win_rate,
                100.0 * s.win_rate_low,
                100.0 * s.win_rate_high,
                s.rating
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(ranks: Vec<u32>) -> Outcome {
        let n = ranks.len();
        Outcome {
            ranks,
            scores: vec![0; n],
            ejected: vec![None; n],
            summary: String::new(),
        }
    }

    /// "strong" always beats "weak", whichever seat it takes; games run on 3 threads.
    #[test]
    fn tallies_wins_by_player_not_by_seat() {
        let spec = Spec {
            entries: vec!["strong".into(), "weak".into()],
            games: 10,
            jobs: 3,
            seed: 1,
        };
        let calls = AtomicUsize::new(0);
        let report = run(
            &spec,
            |names, _| {
                Ok(outcome(
                    names
                        .iter()
                        .map(|n| if n == "strong" { 1 } else { 2 })
                        .collect(),
                ))
            },
            |_| {
                calls.fetch_add(1, Ordering::Relaxed);
            },
        )
        .unwrap();
        assert_eq!(calls.load(Ordering::Relaxed), 10);
        assert_eq!(report.standings[0].wins, 10);
        assert_eq!(report.standings[1].losses, 10);
        assert!(report.standings[0].rating > report.standings[1].rating);
        let seat0: Vec<usize> = report.results.iter().map(|g| g.order[0]).collect();
        assert_eq!(seat0, vec![0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
        assert!(report.table().contains("strong"));
    }

    #[test]
    fn draws_and_failures() {
        let spec = Spec {
            entries: vec!["a".into(), "a".into(), "b".into()],
            games: 6,
            jobs: 2,
            seed: 1,
        };
        let report = run(&spec, |_, _| Ok(outcome(vec![1, 1, 3])), |_| {}).unwrap();
        let names: Vec<&str> = report.standings.iter().map(|s| s.player.as_str()).collect();
        assert_eq!(names, vec!["a#1", "a#2", "b"]);
        let total_draws: usize = report.standings.iter().map(|s| s.draws).sum();
        assert_eq!(total_draws, 12);
        assert_eq!(report.rating_system, RatingSystem::WengLin);

        let error = run(&spec, |_, _| Err("boom".to_string()), |_| {}).unwrap_err();
        assert!(matches!(error, RoundRobinError::Game { reason, .. } if reason == "boom"));
        assert_eq!(
            run(
                &Spec { games: 0, ..spec },
                |_, _| Ok(outcome(vec![1])),
                |_| {}
            )
            .unwrap_err(),
            RoundRobinError::Empty
        );
    }
}

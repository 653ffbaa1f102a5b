//! `arbiter bench [RULESET]`: how fast the rules run. Uniformly random games from
//! fresh seeds (`arbiter_engine::playout::random_playout`: rules only, no recording),
//! first on one thread, then on every core, each for a `--seconds` budget.
//!
//! `--bot NAME` plays whole games with that built-in bot in every seat instead
//! (`arbiter_engine::playout::bot_playout`: no recording, bots read the true state) and
//! adds the mean rounds per game: `arbiter bench spacegoo --bot reference` is the
//! reference engine's own benchmark policy, for comparing speeds on equal terms.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::anyhow;
use arbiter_rulesets::Ruleset;
use serde::Serialize;
use serde_json::Value;

/// A safety net for a ruleset that failed to end a random game.
const MAX_DECISIONS: usize = 1_000_000;

#[derive(clap::Args)]
pub struct Args {
    /// Only this ruleset (default: all of them).
    ruleset: Option<String>,
    /// Time budget per measurement, in seconds.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Seats per game (default: 2, or the ruleset's minimum if higher).
    #[arg(long)]
    seats: Option<usize>,
    /// Threads for the all-cores measurement (default: one per core); with 1, the
    /// one-thread measurement is not run twice.
    #[arg(long)]
    threads: Option<usize>,
    /// First game seed; each game takes the next.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Play games with this built-in bot in every seat instead of uniformly random
    /// moves (e.g. `spacegoo --bot reference`).
    #[arg(long)]
    bot: Option<String>,
}

/// One measurement: games and decisions over the elapsed time.
#[derive(Debug, Clone, Serialize)]
struct Rate {
    threads: usize,
    games: u64,
    decisions: u64,
    seconds: f64,
    playouts_per_second: f64,
    decisions_per_second: f64,
    /// Rounds played (`--bot` only; see `BotPlayout::rounds`).
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds_per_game: Option<f64>,
}

#[derive(Debug, Serialize)]
struct RulesetBench {
    ruleset: &'static str,
    /// The bot in every seat (`--bot`); absent for random playouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    bot: Option<String>,
    seats: usize,
    single_thread: Rate,
    all_cores: Rate,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // `try_from`: a budget too big for a `Duration` (say `1e300`) is refused, not a panic.
    let budget = Duration::try_from_secs_f64(args.seconds)
        .ok()
        .filter(|budget| !budget.is_zero())
        .ok_or_else(|| {
            anyhow!(
                "--seconds must be a positive number of seconds, not {}",
                args.seconds
            )
        })?;
    let rulesets = match &args.ruleset {
        Some(id) => vec![super::find_ruleset(id)?],
        None => arbiter_rulesets::all(),
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut results = Vec::new();
    for ruleset in &rulesets {
        let config = ruleset.game.normalize_config(&Value::Null)?;
        let counts = ruleset.game.seat_counts(&config)?;
        let seats = args.seats.unwrap_or_else(|| 2.max(*counts.start()));
        if !counts.contains(&seats) {
            return Err(anyhow!(
                "{} is played by {} to {} seats, got {seats}",
                ruleset.id(),
                counts.start(),
                counts.end()
            ));
        }
        if let Some(bot) = &args.bot {
            if !ruleset.bots.contains(&bot.as_str()) {
                return Err(anyhow!(
                    "unknown player {bot:?} for {}; known: {}",
                    ruleset.id(),
                    ruleset.bots.join(", ")
                ));
            }
        }
        let bot = args.bot.as_deref();
        let single_thread = measure(ruleset, &config, seats, bot, args.seed, 1, budget)?;
        let all_cores = match threads {
            1 => single_thread.clone(),
            _ => measure(ruleset, &config, seats, bot, args.seed, threads, budget)?,
        };
        results.push(RulesetBench {
            ruleset: ruleset.id(),
            bot: args.bot.clone(),
            seats,
            single_thread,
            all_cores,
        });
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&results)?);
    } else if let Some(bot) = &args.bot {
        print_bot_table(bot, args.seconds, threads, &results);
    } else {
        println!(
            "random playouts, {} s per measurement; {}",
            args.seconds,
            columns_note(threads)
        );
        println!(
            "{:<12} {:>5} {:>16} {:>16} {:>16} {:>16}",
            "ruleset",
            "seats",
            "playouts/s (1)",
            "decisions/s (1)",
            "playouts/s (all)",
            "decisions/s (all)"
        );
        for r in &results {
            println!(
                "{:<12} {:>5} {:>16.1} {:>16.0} {:>16.1} {:>16.0}",
                r.ruleset,
                r.seats,
                r.single_thread.playouts_per_second,
                r.single_thread.decisions_per_second,
                r.all_cores.playouts_per_second,
                r.all_cores.decisions_per_second
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What the tables' `(1)` and `(all)` columns measured, in words ("on 1 threads" read
/// badly, and `--threads` need not be every core).
fn columns_note(threads: usize) -> String {
    let plural = if threads == 1 { "" } else { "s" };
    format!("(1) on one thread, (all) on {threads} thread{plural}")
}

/// The `--bot` table: the random table's columns plus mean rounds per game (from the
/// single-thread run; both runs play the same seeds from `--seed`).
fn print_bot_table(bot: &str, seconds: f64, threads: usize, results: &[RulesetBench]) {
    println!(
        "games with {bot} in every seat, {seconds} s per measurement; {}",
        columns_note(threads)
    );
    println!(
        "{:<12} {:>5} {:>16} {:>16} {:>16} {:>16} {:>12}",
        "ruleset",
        "seats",
        "games/s (1)",
        "decisions/s (1)",
        "games/s (all)",
        "decisions/s (all)",
        "rounds/game"
    );
    for r in results {
        println!(
            "{:<12} {:>5} {:>16.1} {:>16.0} {:>16.1} {:>16.0} {:>12.1}",
            r.ruleset,
            r.seats,
            r.single_thread.playouts_per_second,
            r.single_thread.decisions_per_second,
            r.all_cores.playouts_per_second,
            r.all_cores.decisions_per_second,
            r.single_thread.rounds_per_game.unwrap_or(f64::NAN)
        );
    }
}

/// Play random games (or games of `bot` in every seat) on `threads` threads until
/// `budget` has passed (a game under way when it does is finished and counted; the rate
/// uses the real elapsed time).
fn measure(
    ruleset: &Ruleset,
    config: &Value,
    seats: usize,
    bot: Option<&str>,
    first_seed: u64,
    threads: usize,
    budget: Duration,
) -> anyhow::Result<Rate> {
    let next_seed = AtomicU64::new(first_seed);
    let started = Instant::now();
    let totals: Vec<Result<(u64, u64, u64), String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let (mut games, mut decisions, mut rounds) = (0u64, 0u64, 0u64);
                    while started.elapsed() < budget {
                        let seed = next_seed.fetch_add(1, Ordering::Relaxed);
                        match bot {
                            None => {
                                let (_, n) =
                                    ruleset.random_playout(config, seats, seed, MAX_DECISIONS)?;
                                decisions += n as u64;
                            }
                            Some(bot) => {
                                let played =
                                    ruleset.bot_playout(config, seats, bot, seed, MAX_DECISIONS)?;
                                decisions += played.decisions as u64;
                                rounds += played.rounds as u64;
                            }
                        }
                        games += 1;
                    }
                    Ok((games, decisions, rounds))
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a worker panicked".to_string()))
            })
            .collect()
    });
    let seconds = started.elapsed().as_secs_f64();
    let (mut games, mut decisions, mut rounds) = (0u64, 0u64, 0u64);
    for total in totals {
        let (g, d, r) = total.map_err(|e| anyhow!("{}: {e}", ruleset.id()))?;
        games += g;
        decisions += d;
        rounds += r;
    }
    Ok(Rate {
        threads,
        games,
        decisions,
        seconds,
        playouts_per_second: games as f64 / seconds,
        decisions_per_second: decisions as f64 / seconds,
        rounds: bot.map(|_| rounds),
        rounds_per_game: bot.map(|_| rounds as f64 / games.max(1) as f64),
    })
}

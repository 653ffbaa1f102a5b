//! `arbiter round-robin RULESET --seats mcts,greedy --games N`: built-in players
//! against each other over many games, seat order rotating, games in parallel.
//!
//! The schedule, tallies, intervals and ratings are `arbiter_bots::round_robin`; this
//! file reads the options, plays each game through the ruleset list and prints.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use arbiter_bots::round_robin::{self, Spec};
use arbiter_bots::BotOptions;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset id (see `arbiter rulesets`).
    ruleset: String,
    /// The players, comma separated, one per seat; every game seats them all, in
    /// rotating order (two seats: alternating).
    #[arg(long, value_delimiter = ',', required = true)]
    seats: Vec<String>,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Games played at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Thinking time per decision for searching bots (mcts), in milliseconds.
    #[arg(long)]
    think_ms: Option<u64>,
    /// Search iterations per decision for searching bots; without --think-ms the
    /// round-robin is reproducible from its seed.
    #[arg(long)]
    iterations: Option<u64>,
    /// Round-robin seed: every game's seed derives from it.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Configuration as JSON (missing fields take defaults).
    #[arg(long, conflicts_with = "config_file")]
    config: Option<String>,
    /// Configuration from a JSON file.
    #[arg(long)]
    config_file: Option<PathBuf>,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ruleset = super::find_ruleset(&args.ruleset)?;
    for seat in &args.seats {
        if !ruleset.bots.contains(&seat.as_str()) {
            return Err(anyhow!(
                "unknown player {seat:?} for {}; built-in players: {}",
                ruleset.id(),
                ruleset.bots.join(", ")
            ));
        }
    }
    let config = super::play::read_config(args.config.as_deref(), args.config_file.as_ref())?;
    let config = ruleset.game.normalize_config(&config)?;
    let counts = ruleset.game.seat_counts(&config)?;
    if !counts.contains(&args.seats.len()) {
        return Err(anyhow!(
            "{} is played by {} to {} seats, got {}",
            ruleset.id(),
            counts.start(),
            counts.end(),
            args.seats.len()
        ));
    }
    if args.games == 0 {
        return Err(anyhow!("--games must be at least 1"));
    }
    if args.think_ms == Some(0) || args.iterations == Some(0) {
        return Err(anyhow!("--think-ms and --iterations must be at least 1"));
    }
    let options = BotOptions {
        think_ms: args.think_ms,
        iterations: args.iterations,
    };
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let spec = Spec {
        entries: args.seats.clone(),
        games: args.games,
        jobs,
        seed: args.seed,
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(args.games as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (eta {eta})")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let report = round_robin::run(
        &spec,
        |names, seed| {
            let record = ruleset.play_local_with(&config, names, seed, &options)?;
            record
                .outcome
                .ok_or_else(|| "the game did not finish".to_string())
        },
        |finished| bar.set_position(finished as u64),
    )
    .context("the round-robin stopped")?;
    bar.finish_and_clear();
    if args.json {
        let out = json!({
            "ruleset": ruleset.id(),
            "options": options,
            "jobs": jobs,
            "report": report,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        let budget = match (args.think_ms, args.iterations) {
            (None, None) => format!(
                "default search budget ({} ms)",
                arbiter_bots::options::DEFAULT_THINK_MS
            ),
            (Some(ms), None) => format!("{ms} ms a decision"),
            (None, Some(n)) => format!("{n} iterations a decision"),
            (Some(ms), Some(n)) => format!("{ms} ms or {n} iterations a decision"),
        };
        println!(
            "{} — {} games, {} seats in rotating order, seed {}, {budget}",
            ruleset.game.name(),
            report.games,
            report.seats,
            report.seed
        );
        print!("{}", report.table());
    }
    Ok(ExitCode::SUCCESS)
}

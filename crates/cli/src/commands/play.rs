//! `arbiter play RULESET --seats a,b --seed N`: a whole game with built-in bots.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context};
use serde_json::Value;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset id (see `arbiter rulesets`).
    ruleset: String,
    /// One built-in player per seat, comma separated, in seat order.
    #[arg(long, value_delimiter = ',', required = true)]
    seats: Vec<String>,
    /// Match seed: the same seed, config and seats give the same game.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Configuration as JSON (missing fields take defaults).
    #[arg(long, conflicts_with = "config_file")]
    config: Option<String>,
    /// Configuration from a JSON file.
    #[arg(long)]
    config_file: Option<PathBuf>,
    /// Print the outcome as JSON.
    #[arg(long)]
    json: bool,
    /// Write the match record (replayable with `arbiter replay`) to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Thinking time per decision for searching players (mcts), in milliseconds
    /// [default: 100 when --iterations is not given].
    #[arg(long)]
    think_ms: Option<u64>,
    /// Search iterations per decision for searching players (mcts); without
    /// --think-ms the whole game is reproducible from its seed.
    #[arg(long)]
    iterations: Option<u64>,
}

/// The configuration from `--config` or `--config-file`, or null for the defaults.
pub fn read_config(inline: Option<&str>, file: Option<&PathBuf>) -> anyhow::Result<Value> {
    let text = match (inline, file) {
        (Some(text), _) => text.to_string(),
        (None, Some(path)) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?,
        (None, None) => return Ok(Value::Null),
    };
    serde_json::from_str(&text).context("the configuration is not JSON")
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ruleset = arbiter_rulesets::find(&args.ruleset).ok_or_else(|| {
        let ids: Vec<String> = arbiter_rulesets::all()
            .iter()
            .map(|r| r.id().to_string())
            .collect();
        anyhow!(
            "unknown ruleset {:?}; known: {}",
            args.ruleset,
            ids.join(", ")
        )
    })?;
    for seat in &args.seats {
        if !ruleset.bots.contains(&seat.as_str()) {
            return Err(anyhow!(
                "unknown player {seat:?} for {}; built-in players: {}",
                ruleset.id(),
                ruleset.bots.join(", ")
            ));
        }
    }
    let config = read_config(args.config.as_deref(), args.config_file.as_ref())?;
    let config = ruleset.game.normalize_config(&config)?;
    if args.think_ms == Some(0) || args.iterations == Some(0) {
        return Err(anyhow!("--think-ms and --iterations must be at least 1"));
    }
    let options = arbiter_bots::BotOptions {
        think_ms: args.think_ms,
        iterations: args.iterations,
    };
    let record = ruleset
        .play_local_with(&config, &args.seats, args.seed, &options)
        .map_err(|e| anyhow!(e))?;
    if let Some(path) = &args.record {
        std::fs::write(path, serde_json::to_vec_pretty(&record)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let outcome = record
        .outcome
        .as_ref()
        .ok_or_else(|| anyhow!("the game did not finish"))?;
    if args.json {
        println!("{}", serde_json::to_string(outcome)?);
    } else {
        println!(
            "{} — seed {}, {} decisions",
            ruleset.game.name(),
            record.seed,
            record.log.len()
        );
        println!("{:<6} {:<16} {:>8}  note", "rank", "player", "score");
        let mut order: Vec<usize> = (0..record.seats.len()).collect();
        order.sort_by_key(|&s| (outcome.ranks[s], s));
        for seat in order {
            let note = outcome.ejected[seat]
                .as_deref()
                .map(|r| format!("ejected: {r}"))
                .unwrap_or_default();
            println!(
                "{:<6} {:<16} {:>8}  {}",
                outcome.ranks[seat], record.seats[seat], outcome.scores[seat], note
            );
        }
        println!("{}", super::describe_outcome(&record, outcome));
    }
    Ok(ExitCode::SUCCESS)
}

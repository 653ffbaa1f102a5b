//! `arbiter bot --server HOST:PORT --ruleset R --player mcts --name N --password P`:
//! a built-in bot as an ordinary network client. It logs in (registering the account
//! the first time, as a bot's: a tournament may take only bots, or only people), joins the ruleset's matchmaking queue, and answers every prompt
//! from its seat's view alone, for `--games` games. With `--tournament ID` it enters
//! that tournament instead and plays every game it is paired into, until it ends.
//! When its server goes away (a restart, an upgrade, a dropped connection) it connects
//! again by itself, with capped, jittered backoff, and plays on (`--reconnect-for`).

use std::process::ExitCode;

use anyhow::{anyhow, Context};
use arbiter_bots::BotOptions;
use arbiter_rulesets::ViewBot;
use arbiter_server::client::{play, BotPlan, Decider, Games};
use serde_json::Value;

#[derive(clap::Args)]
pub struct Args {
    /// The server's native-protocol address, HOST:PORT.
    #[arg(long)]
    server: String,
    /// Ruleset id (see `arbiter rulesets`).
    #[arg(long)]
    ruleset: String,
    /// Built-in player: random, greedy, mcts, and the ruleset's own (see `arbiter rulesets`).
    #[arg(long, default_value = "mcts")]
    player: String,
    /// Account name (registered on first use, as a bot's).
    #[arg(long)]
    name: String,
    /// Account password.
    #[arg(long, env = "ARBITER_BOT_PASSWORD")]
    password: String,
    /// Games to play before exiting.
    #[arg(long, default_value_t = 1, conflicts_with = "tournament")]
    games: u32,
    /// Enter this tournament (its id) and play its games until it ends, instead of
    /// queueing (a bot already entered goes on playing).
    #[arg(long)]
    tournament: Option<i64>,
    /// Configuration to queue for, as JSON (missing fields take defaults).
    #[arg(long)]
    config: Option<String>,
    /// Players per match (default: the ruleset's smallest count of at least two).
    #[arg(long)]
    seats: Option<usize>,
    /// Seed for the player's own randomness.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Thinking time per decision for searching players (mcts), in milliseconds
    /// [default: 100 when --iterations is not given]. Keep it below the server's deadline.
    #[arg(long)]
    think_ms: Option<u64>,
    /// Search iterations per decision for searching players (mcts).
    #[arg(long)]
    iterations: Option<u64>,
    /// How long to keep trying to reach the server again after losing it, as 90s, 5m
    /// or 0s (give up at once).
    #[arg(long, default_value = "120s", value_parser = humantime::parse_duration)]
    reconnect_for: std::time::Duration,
    /// How long to wait in the queue for each game before giving up with an error, as
    /// 10m or 2h; 0s waits as long as it takes. Not for --tournament (it ends the wait).
    #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
    wait: std::time::Duration,
}

/// A view bot seen as the client's decider.
struct ViewPlayer(Box<dyn ViewBot>);

impl Decider for ViewPlayer {
    fn decide(&mut self, view: &Value, seat: usize) -> Result<Value, String> {
        self.0.decide(view, seat)
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ruleset = arbiter_rulesets::find(&args.ruleset).ok_or_else(|| {
        let ids: Vec<&str> = arbiter_rulesets::all().iter().map(|r| r.id()).collect();
        anyhow!(
            "unknown ruleset {:?}; known: {}",
            args.ruleset,
            ids.join(", ")
        )
    })?;
    let config: Value = match &args.config {
        Some(text) => serde_json::from_str(text).context("--config is not JSON")?,
        None => Value::Null,
    };
    if args.think_ms == Some(0) || args.iterations == Some(0) {
        return Err(anyhow!("--think-ms and --iterations must be at least 1"));
    }
    let options = BotOptions {
        think_ms: args.think_ms,
        iterations: args.iterations,
    };
    // Refuse an unknown player or a bad configuration before connecting.
    if !ruleset.bots.contains(&args.player.as_str()) {
        return Err(anyhow!(
            "{} has no player {:?}; built-in players: {}",
            ruleset.id(),
            args.player,
            ruleset.bots.join(", ")
        ));
    }
    ruleset
        .try_view_bot(
            &args.player,
            args.seed,
            &ruleset.game.normalize_config(&config)?,
            &options,
        )
        .map_err(|why| anyhow!("cannot build {:?}: {why}", args.player))?;
    let plan = BotPlan {
        session: None,
        server: args.server.clone(),
        ruleset: args.ruleset.clone(),
        name: args.name.clone(),
        password: args.password.clone(),
        games: match args.tournament {
            Some(id) => Games::Tournament(id),
            None => Games::Exactly(args.games),
        },
        config,
        seats: args.seats,
        reconnect_for: args.reconnect_for,
        queue_wait: (!args.wait.is_zero()).then_some(args.wait),
    };
    let player = args.player.clone();
    let base_seed = args.seed;
    let factory = Box::new(move |config: &Value, seed: u64| {
        ruleset
            .try_view_bot(&player, base_seed ^ seed, config, &options)
            .map(|bot| Box::new(ViewPlayer(bot)) as Box<dyn Decider>)
    });
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let report = runtime.block_on(play(&plan, factory))?;
    for game in &report.games {
        let result = match (game.rank, game.winners, &game.ejected) {
            (_, _, Some(reason)) => format!("ejected: {reason}"),
            (1, 1, None) => "won".to_string(),
            (1, _, None) => "shared the win".to_string(),
            (rank, _, None) => format!("rank {rank}"),
        };
        println!(
            "match {} seat {} {} ({} decisions)",
            game.match_id, game.seat, result, game.decisions
        );
    }
    for (match_id, reason) in &report.aborted {
        println!("match {match_id} stopped without a result: {reason}");
    }
    for match_id in &report.missed {
        println!("match {match_id} ended while the bot was away (its result is on the server)");
    }
    let wins = report
        .games
        .iter()
        .filter(|g| g.rank == 1 && g.ejected.is_none())
        .count();
    println!(
        "{} played {} game(s) of {}: {} won or shared, {} answer(s) refused",
        args.name,
        report.games.len(),
        args.ruleset,
        wins,
        report.rejected
    );
    Ok(ExitCode::SUCCESS)
}

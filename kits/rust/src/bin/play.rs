//! Play whole matches on an Arbiter server with one of the kit's bots.
//!
//! ```text
//! arbiter-kit-play --server 127.0.0.1:7000 --ruleset tae --name alice --password pw \
//!     --games 1 [--house-bot random] [--queue] [--tournament ID] [--bot nim|qgame|spacecrack|spacegoo|tae|first]
//! ```
//!
//! `--bot` names one of the kit's bots: a ruleset's in [`bots::RULESETS`], or `first`
//! (the server's first legal action).
//!
//! Prints one line per game; exits 0 when every game ended with an outcome and your
//! seat was not ejected, 1 otherwise (2 for bad arguments).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use arbiter_kit::bots::{self, FirstLegal};
use arbiter_kit::{Bot, BotThread, Client, TableOptions};
use serde_json::Value;

const USAGE: &str = "usage: arbiter-kit-play --ruleset RULESET --name NAME --password PASSWORD
    [--server HOST:PORT]   native TCP address (default 127.0.0.1:7000)
    [--http HOST:PORT]     HTTP API, to read the outcome of a match that ended while disconnected
    [--games N]            matches to play, one after another (default 1)
    [--house-bot BOT]      house bot filling the table's other seats (default random)
    [--queue]              join the matchmaking queue instead of opening a table
    [--tournament ID]      enter tournament ID (or come back to it) and play its games until it ends
    [--wait S]             seconds to wait for a game to start (queue: default 600; tournament: until it ends)
    [--reconnect-for S]    seconds to keep trying to reconnect after a lost connection (default 120)
    [--seats N]            seats per match (default: 2 at a table, the ruleset's smallest >= 2 in the queue)
    [--config JSON]        the ruleset's configuration (missing fields default)
    [--deadline-ms MS]     table only: time per decision
    [--bot NAME]           the kit's bot for a ruleset, or `first` (default: the ruleset's)
    [--drop-after N]       testing: drop the connection after N answers, once per game
    [-v, --verbose]        print every message";

/// The command line, read by hand (a flag and its value: `--games 3` or `--games=3`).
struct Args {
    server: String,
    http: Option<String>,
    ruleset: String,
    name: String,
    password: String,
    games: u32,
    house_bot: String,
    queue: bool,
    tournament: Option<i64>,
    wait: Option<f64>,
    reconnect_for: f64,
    seats: Option<usize>,
    config: Option<Value>,
    deadline_ms: Option<u64>,
    bot: Option<String>,
    drop_after: Option<u32>,
    verbose: bool,
}

fn parse_args(mut words: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut args = Args {
        server: "127.0.0.1:7000".into(),
        http: None,
        ruleset: String::new(),
        name: String::new(),
        password: String::new(),
        games: 1,
        house_bot: "random".into(),
        queue: false,
        tournament: None,
        wait: None,
        reconnect_for: 120.0,
        seats: None,
        config: None,
        deadline_ms: None,
        bot: None,
        drop_after: None,
        verbose: false,
    };
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_string(), Some(value.to_string()))
            }
            _ => (word, None),
        };
        match flag.as_str() {
            "--queue" => args.queue = true,
            "-v" | "--verbose" => args.verbose = true,
            "-h" | "--help" => return Err(String::new()),
            _ => {
                let value = inline
                    .or_else(|| words.next())
                    .ok_or(format!("{flag} needs a value"))?;
                let number = |what: &str| format!("{flag}: {what} expected, got {value:?}");
                match flag.as_str() {
                    "--server" => args.server = value,
                    "--http" => args.http = Some(value),
                    "--ruleset" => args.ruleset = value,
                    "--name" => args.name = value,
                    "--password" => args.password = value,
                    "--house-bot" => args.house_bot = value,
                    "--bot" => args.bot = Some(value),
                    "--games" => args.games = value.parse().map_err(|_| number("a count"))?,
                    "--seats" => args.seats = Some(value.parse().map_err(|_| number("a count"))?),
                    "--deadline-ms" => {
                        args.deadline_ms = Some(value.parse().map_err(|_| number("milliseconds"))?)
                    }
                    "--drop-after" => {
                        args.drop_after = Some(value.parse().map_err(|_| number("a count"))?)
                    }
                    "--tournament" => {
                        args.tournament = Some(value.parse().map_err(|_| number("an id"))?)
                    }
                    "--wait" => args.wait = Some(seconds(&value).ok_or_else(|| number("seconds"))?),
                    "--reconnect-for" => {
                        args.reconnect_for = seconds(&value).ok_or_else(|| number("seconds"))?
                    }
                    "--config" => {
                        let config =
                            serde_json::from_str(&value).map_err(|e| format!("--config: {e}"))?;
                        args.config = Some(config);
                    }
                    _ => return Err(format!("unknown argument {flag:?}")),
                }
            }
        }
    }
    for (value, flag) in [
        (&args.ruleset, "--ruleset"),
        (&args.name, "--name"),
        (&args.password, "--password"),
    ] {
        if value.is_empty() {
            return Err(format!("{flag} is required"));
        }
    }
    Ok(args)
}

/// A number of seconds (0 to a billion).
fn seconds(value: &str) -> Option<f64> {
    value.parse::<f64>().ok().filter(|s| (0.0..1e9).contains(s))
}

/// A fresh bot for each game (a bot stuck in a search stays behind with its game).
fn bot_for(args: &Args) -> Result<Box<dyn Bot>, String> {
    let name = args.bot.as_deref().unwrap_or(&args.ruleset);
    if name == "first" {
        return Ok(Box::new(FirstLegal));
    }
    bots::for_ruleset(name).ok_or(format!(
        "no bot for {name:?}: the kit has {} and first (--bot)",
        bots::RULESETS.join(", ")
    ))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("{problem}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(if problem.is_empty() { 0 } else { 2 });
        }
    };
    if let Err(problem) = bot_for(&args) {
        eprintln!("{problem}");
        return ExitCode::from(2);
    }

    let mut client = Client::new(&args.server, &args.name, &args.password);
    client.http = args.http.clone();
    client.verbose = args.verbose;
    client.reconnect_for = Duration::from_secs_f64(args.reconnect_for);
    client.queue_timeout = Some(Duration::from_secs_f64(args.wait.unwrap_or(600.0)));
    if let Err(e) = client.connect() {
        println!("cannot log in to {}: {e}", args.server);
        return ExitCode::from(1);
    }

    if let Some(tournament) = args.tournament {
        return play_tournament(&mut client, &args, tournament);
    }

    let mut failures = 0;
    for game in 1..=args.games {
        let started = Instant::now();
        let mut bot = BotThread::new(bot_for(&args).expect("checked above"));
        let played = if args.queue {
            client.queue(&args.ruleset, args.config.clone(), args.seats)
        } else {
            let table = TableOptions {
                seats: args.seats.unwrap_or(2),
                house_bot: args.house_bot.clone(),
                config: args.config.clone(),
                deadline_ms: args.deadline_ms,
                time_bank_ms: None,
            };
            client.create_table(&args.ruleset, &table)
        }
        .and_then(|match_id| {
            client.drop_after = args.drop_after;
            client.play(match_id, &mut bot)
        });
        let (line, ok) = match played {
            Ok(result) => (result.line(), result.ok),
            Err(e) => {
                let seconds = started.elapsed().as_secs_f64();
                (format!("failed after {seconds:.1} s: {e}"), false)
            }
        };
        if !ok {
            failures += 1;
        }
        let verdict = if ok { "ok" } else { "FAILED" };
        println!("game {game}/{}: {verdict} {line}", args.games);
    }
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Play every game the tournament pairs us in, one line each, until it ends.
fn play_tournament(client: &mut Client, args: &Args, tournament: i64) -> ExitCode {
    let started = Instant::now();
    let wait = args.wait.map(Duration::from_secs_f64);
    let (mut games, mut failures) = (0, 0);
    loop {
        let played = client.tournament_game(tournament, wait).and_then(|found| {
            let Some(match_id) = found else {
                return Ok(None);
            };
            let mut bot = BotThread::new(bot_for(args).expect("checked above"));
            client.drop_after = args.drop_after;
            client.play(match_id, &mut bot).map(Some)
        });
        match played {
            Ok(Some(result)) => {
                games += 1;
                if !result.ok {
                    failures += 1;
                }
                let verdict = if result.ok { "ok" } else { "FAILED" };
                println!(
                    "game {games} (tournament {tournament}): {verdict} {}",
                    result.line()
                );
            }
            Ok(None) => break,
            Err(e) => {
                let seconds = started.elapsed().as_secs_f64();
                println!("tournament {tournament}: FAILED after {seconds:.1} s: {e}");
                return ExitCode::from(1);
            }
        }
    }
    println!("tournament {tournament} is over: {games} games, {failures} failed");
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

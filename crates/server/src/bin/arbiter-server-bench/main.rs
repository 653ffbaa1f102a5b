//! Load benchmark of the server over loopback: many concurrent matches between network
//! clients, measuring moves per second end to end, the decision round trip (an action
//! sent → the next message of that match received), the server's memory per match, and
//! the CPU the server and the clients used per move (which says whether the cores or one
//! stage of the server bounded the run).
//!
//! Clients are light by default: each answers every prompt with one fixed action
//! (`nop` in spacegoo, `pass` elsewhere; `--answer` to choose), deciding in place, so
//! the server is what is measured. `--clients random` plays random legal moves rebuilt
//! from each view instead (a heavier client, as a real bot would be).
//!
//! `--transport ws` has the light clients speak over WebSocket at `/ws`, as the
//! browser does, instead of TCP lines.
//!
//! `--arena N` plays a tournament instead of the queue (issue 62): N light clients join
//! one arena of `--duration` and play what its director pairs them in (`arena.rs`).
//!
//! The server runs in this process on a scratch SQLite data directory; the clients run
//! in a child process (this binary with `--play`), so the memory measured is the
//! server's. Accounts are registered before the clock starts, and the clients resume
//! sessions opened for them rather than logging in, so no Argon2 work is timed.
//!
//! `--restart N` measures a stop and a start of the server with N running matches
//! (issue 69, `restart.rs`): no clients, the matches played through their handles.
//!
//! `cargo run --release -p arbiter-server --bin arbiter-server-bench -- --matches 50`
//! `… -- --arena 1000 --duration 60s`
//! `… -- --restart 10000 --moves 10`

use std::sync::Arc;
use std::time::Duration;

mod arena;
mod cpu;
mod light;
mod restart;
mod scrape;
mod server_side;

use anyhow::{bail, Context};
use arbiter_server::client::{play, BotPlan, Decider, Games, RandomFromView, SeatPool};
use arbiter_server::heap::Counting;
use clap::Parser;
use serde_json::{json, Value};

/// The `arbiter` binary's allocator (mimalloc), counting the bytes live on the heap:
/// memory per match is the growth of live heap bytes, which RSS cannot show (the
/// allocator keeps freed memory, and Argon2 logins leave 19 MiB work areas behind).
#[global_allocator]
static HEAP: Counting<mimalloc::MiMalloc> = Counting::new(mimalloc::MiMalloc);

fn live_kib() -> u64 {
    (HEAP.live() / 1024) as u64
}

#[derive(Parser)]
#[command(
    about = "Load benchmark: concurrent matches of network bots against an in-process server"
)]
struct Args {
    /// Ruleset the bots play.
    #[arg(long, default_value = "spacegoo")]
    ruleset: String,
    /// Matches played at the same time (two bots each).
    #[arg(long, default_value_t = 50)]
    matches: usize,
    /// Games each pair of bots plays one after the other.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Per-decision deadline on the server.
    #[arg(long, default_value = "10s")]
    deadline: String,
    /// `light` (a fixed answer, decided in place) or `random` (random legal moves
    /// from a state rebuilt from each view).
    #[arg(long, default_value = "light")]
    clients: String,
    /// How light clients reach the server: `tcp` (the native door's lines) or `ws`
    /// (WebSocket at `/ws` on the HTTP port, as the browser plays).
    #[arg(long, default_value = "tcp")]
    transport: String,
    /// The light clients' answer, as JSON (default: "nop" in spacegoo, else "pass").
    #[arg(long)]
    answer: Option<String>,
    /// Matches each light client connection plays at once (fewer sockets for many
    /// matches: 10,000 matches at 4 a connection need 5,000 client sockets).
    #[arg(long, default_value_t = 1)]
    at_once: usize,
    /// How often the matchmaker pairs waiting players. A connection waits in the
    /// queue for one match at a time, so clients that play many matches a connection
    /// (`--at-once`) start one match a connection per pairing: a shorter interval
    /// fills them sooner.
    #[arg(long, default_value = "200ms")]
    pairing: String,
    /// Light clients wait this long before each answer (matches that mostly wait, as
    /// people's do), e.g. "1s".
    #[arg(long, default_value = "0s")]
    think: String,
    /// Stop the clients after this long even if games remain (e.g. "60s"): for runs
    /// that hold many slow matches. With `--arena`, the arena's length instead (default
    /// 60 s): its games under way at the end finish, and the clients leave when the
    /// server says it is over.
    #[arg(long)]
    duration: Option<String>,
    /// Play one arena tournament of this many entrants (a light client, connection and
    /// account each) instead of the queue; `--matches`, `--games` and `--at-once` do
    /// not apply.
    #[arg(long)]
    arena: Option<usize>,
    /// The arena's games' config, as JSON (e.g. '{"max_rounds":50}' in spacegoo, for
    /// shorter games and more waves); default the ruleset's.
    #[arg(long)]
    game_config: Option<String>,
    /// With `--arena`, the entrants stop watching the arena's state once joined (each
    /// receives it on every change, at most every half second, by default), to
    /// measure what that costs; they leave 30 s after the arena's planned end.
    #[arg(long)]
    unwatch: bool,
    /// Stop and start the server with this many running matches instead (two remote
    /// seats each, played `--moves` rounds through their handles): how long the stop
    /// takes, and the start until every match goes on from its log.
    #[arg(long)]
    restart: Option<usize>,
    /// With `--restart`, rounds each match plays before the stop.
    #[arg(long, default_value_t = 10)]
    moves: usize,
    /// Internal: the arena the `--play` clients join.
    #[arg(long, hide = true)]
    tournament: Option<i64>,
    /// Store the matches in this database (e.g. `postgres://postgres@127.0.0.1/bench`,
    /// an empty database) instead of a scratch SQLite file.
    #[arg(long)]
    database: Option<String>,
    /// Servers (nodes of one deployment) in this process, the clients spread over them
    /// in turn; more than one needs `--database postgres://…` and `--nats`.
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// The NATS server joining the nodes (e.g. `nats://127.0.0.1:4222`).
    #[arg(long)]
    nats: Option<String>,
    /// Internal: play as the bots (against these comma-separated addresses, in turn) against the server at this address and print JSON.
    #[arg(long, hide = true)]
    play: Option<String>,
    /// Internal: a file of session tokens, one per client, for `--play`.
    #[arg(long, hide = true)]
    sessions: Option<std::path::PathBuf>,
}

/// The light clients' answer: `--answer`, or the ruleset's do-nothing move.
fn light_answer(args: &Args) -> anyhow::Result<Value> {
    match &args.answer {
        Some(text) => serde_json::from_str(text).context("--answer is not JSON"),
        None if args.ruleset == "spacegoo" => Ok(json!("nop")),
        None => Ok(json!("pass")),
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Runtime::new()?;
    if let Some(matches) = args.restart {
        let restart = restart::Restart {
            ruleset: args.ruleset.clone(),
            matches,
            moves: args.moves,
            answer: light_answer(&args)?,
            database: args.database.clone(),
        };
        return runtime.block_on(restart.run());
    }
    match &args.play {
        Some(server) => runtime.block_on(bots(&args, server)),
        None => runtime.block_on(server_side::bench(&args)),
    }
}

/// The bot side: 2 × matches clients, each playing `games` games; prints one JSON line.
async fn bots(args: &Args, server: &str) -> anyhow::Result<()> {
    let game = arbiter_rulesets::find(&args.ruleset)
        .context("unknown ruleset")?
        .game;
    let sessions: Vec<String> = match &args.sessions {
        Some(path) => std::fs::read_to_string(path)?
            .lines()
            .map(str::to_string)
            .collect(),
        None => Vec::new(),
    };
    let light = match args.clients.as_str() {
        "light" => Some(light_answer(args)?),
        "random" => None,
        other => bail!("--clients is light or random, not {other:?}"),
    };
    if let Some(answer) = light {
        return light_bots(args, server, sessions, answer).await;
    }
    let servers: Vec<&str> = server.split(',').collect();
    let seats = seat_pool(args);
    let mut tasks = Vec::new();
    for index in 0..args.matches * 2 {
        let plan = BotPlan {
            session: sessions.get(index).cloned(),
            server: servers[index % servers.len()].to_string(),
            ruleset: args.ruleset.clone(),
            name: format!("bench-{index}"),
            password: "bench-password".into(),
            games: Games::FromPool(seats.clone()),
            config: Value::Null,
            seats: Some(2),
            reconnect_for: std::time::Duration::ZERO,
            queue_wait: None,
        };
        let game = game.clone();
        tasks.push(tokio::spawn(async move {
            let factory = Box::new(move |config: &Value, seed: u64| {
                Ok(
                    Box::new(RandomFromView::new(game.clone(), config.clone(), seed))
                        as Box<dyn Decider>,
                )
            });
            play(&plan, factory).await
        }));
    }
    let mut round_trips = Vec::new();
    let (mut decisions, mut games, mut rejected) = (0u64, 0usize, 0u64);
    for task in tasks {
        let report = task.await??;
        decisions += report.games.iter().map(|g| g.decisions).sum::<u64>();
        games += report.games.len();
        rejected += report.rejected;
        round_trips.extend(report.round_trips.iter().map(|d| d.as_micros() as u64));
    }
    print_report(decisions, games, rejected, round_trips);
    Ok(())
}

/// One pool of the run's `2 × matches × games` seats for every client (see
/// `client::games`): fixed shares could leave one client waiting for a partner who has
/// played all its games.
fn seat_pool(args: &Args) -> SeatPool {
    SeatPool::new(2 * args.matches as u64 * u64::from(args.games))
}

/// The light clients: `2 × matches / at_once` connections, playing `2 × matches ×
/// games` seats between them, each up to `at_once` matches at a time.
async fn light_bots(
    args: &Args,
    server: &str,
    sessions: Vec<String>,
    answer: Value,
) -> anyhow::Result<()> {
    let think = arbiter_server::config::parse_duration(&args.think)?;
    let stop_after = args
        .duration
        .as_deref()
        .map(arbiter_server::config::parse_duration)
        .transpose()?;
    let connecting = Arc::new(tokio::sync::Semaphore::new(256));
    let servers: Vec<&str> = server.split(',').collect();
    let seats = seat_pool(args);
    // An arena's clients stay until the server says it is over (or, unwatching, until
    // past its end).
    let stop_after = stop_after.filter(|_| args.tournament.is_none());
    let mut tasks = Vec::new();
    for (index, session) in sessions.into_iter().take(connections(args)).enumerate() {
        let plan = light::LightPlan {
            server: servers[index % servers.len()].to_string(),
            session,
            ruleset: args.ruleset.clone(),
            entry: match args.tournament {
                Some(id) => light::Entry::Tournament {
                    id,
                    unwatch: match args.unwatch {
                        true => Some(arena_length(args)? + UNWATCHED_GRACE),
                        false => None,
                    },
                },
                None => light::Entry::Queue(seats.clone()),
            },
            at_once: args.at_once as u32,
            answer: answer.to_string(),
            think,
            seed: index as u64,
            stop_after,
            connecting: connecting.clone(),
        };
        tasks.push(tokio::spawn(light::play(plan)));
    }
    let mut round_trips = Vec::new();
    let mut waits = Vec::new();
    let (mut states, mut state_bytes) = (0u64, 0u64);
    let (mut decisions, mut games, mut rejected) = (0u64, 0usize, 0u64);
    for task in tasks {
        let report = task.await??;
        decisions += report.decisions;
        games += report.games as usize;
        rejected += report.rejected;
        round_trips.extend(report.round_trips);
        waits.extend(report.waits);
        states += report.states;
        state_bytes += report.state_bytes;
    }
    let mut report = report_json(decisions, games, rejected, round_trips);
    let waits = Percentiles::of(waits);
    report["waits"] = json!(waits.count);
    report["wait_p50_us"] = json!(waits.at(0.50));
    report["wait_p99_us"] = json!(waits.at(0.99));
    report["wait_max_us"] = json!(waits.max());
    report["states"] = json!(states);
    report["state_bytes"] = json!(state_bytes);
    println!("{report}");
    Ok(())
}

/// Client connections: an arena's entrant each, or two seats a match, `at_once`
/// matches a connection.
fn connections(args: &Args) -> usize {
    match args.arena {
        Some(entrants) => entrants,
        None => (args.matches * 2).div_ceil(args.at_once.max(1)),
    }
}

/// Sorted samples (microseconds), read by percentile.
struct Percentiles {
    sorted: Vec<u64>,
    count: usize,
}

impl Percentiles {
    fn of(mut samples: Vec<u64>) -> Percentiles {
        samples.sort_unstable();
        let count = samples.len();
        Percentiles {
            sorted: samples,
            count,
        }
    }

    /// The sample at fraction `p` of the way up (0 with no samples).
    fn at(&self, p: f64) -> u64 {
        if self.sorted.is_empty() {
            return 0;
        }
        let index = ((self.sorted.len() - 1) as f64 * p).round() as usize;
        self.sorted[index]
    }

    fn max(&self) -> u64 {
        self.sorted.last().copied().unwrap_or(0)
    }
}

fn print_report(decisions: u64, games: usize, rejected: u64, round_trips: Vec<u64>) {
    println!("{}", report_json(decisions, games, rejected, round_trips));
}

/// The clients' side of the report, as the one JSON line the server side reads.
fn report_json(decisions: u64, games: usize, rejected: u64, round_trips: Vec<u64>) -> Value {
    let round_trips = Percentiles::of(round_trips);
    json!({
        "decisions": decisions,
        "seat_games": games,
        "rejected": rejected,
        "round_trips": round_trips.count,
        "p50_us": round_trips.at(0.50),
        "p90_us": round_trips.at(0.90),
        "p99_us": round_trips.at(0.99),
        "max_us": round_trips.max(),
    })
}

/// How often the server side samples the running matches, memory and CPU.
const SAMPLE_EVERY: Duration = Duration::from_millis(100);

/// The play's length from the time between the first and the last sample that saw a
/// match running. Matches started some time in the sample period before the first such
/// sample and ended some time in the one after the last, half a period each on average,
/// so a period is added. (Without it a run inside one period measured nothing: its
/// two readings of the clock a few nanoseconds apart gave 62 billion moves a second.)
fn play_window(between_samples: Duration) -> Duration {
    between_samples + SAMPLE_EVERY
}

/// Refuse what the run could not use before any account is registered (minutes of
/// Argon2 at 10,000 matches) or a client started: the clients check the same
/// arguments, but only once the server is up.
fn check(args: &Args) -> anyhow::Result<()> {
    if args.matches == 0 || args.games == 0 || args.at_once == 0 || args.nodes == 0 {
        bail!("--matches, --games, --at-once and --nodes must be at least 1");
    }
    if u32::try_from(args.at_once).is_err() {
        bail!(
            "--at-once {} is more matches than a connection can play",
            args.at_once
        );
    }
    if arbiter_rulesets::find(&args.ruleset).is_none() {
        let known: Vec<&str> = arbiter_rulesets::all().iter().map(|r| r.id()).collect();
        bail!(
            "unknown ruleset {:?}; known: {}",
            args.ruleset,
            known.join(", ")
        );
    }
    match args.clients.as_str() {
        "light" => drop(light_answer(args)?),
        "random" => {}
        other => bail!("--clients is light or random, not {other:?}"),
    }
    for duration in std::iter::once(&args.think).chain(&args.duration) {
        arbiter_server::config::parse_duration(duration)?;
    }
    if (args.game_config.is_some() || args.unwatch) && args.arena.is_none() {
        bail!("--game-config and --unwatch are for --arena");
    }
    if let Some(entrants) = args.arena {
        if entrants < 2 {
            bail!("--arena needs at least 2 entrants");
        }
        if args.clients != "light" || args.nodes != 1 {
            bail!("--arena plays light clients on one node");
        }
        drop(arena_of(args)?);
    }
    Ok(())
}

/// Arenas run this long unless `--duration` says.
const DEFAULT_ARENA: Duration = Duration::from_secs(60);
/// How long after an arena's planned end (counted from the clients' start) its
/// unwatching entrants leave: the arena starts once every entrant has joined, seconds
/// after they start, and pairs nobody after its end.
const UNWATCHED_GRACE: Duration = Duration::from_secs(30);

fn arena_length(args: &Args) -> anyhow::Result<Duration> {
    match &args.duration {
        Some(text) => arbiter_server::config::parse_duration(text),
        None => Ok(DEFAULT_ARENA),
    }
}

/// The arena `--arena` asks for (`None` for a run of the queue).
fn arena_of(args: &Args) -> anyhow::Result<Option<arena::Arena>> {
    let Some(entrants) = args.arena else {
        return Ok(None);
    };
    let config = match &args.game_config {
        Some(text) => serde_json::from_str(text).context("--game-config is not JSON")?,
        None => Value::Null,
    };
    Ok(Some(arena::Arena {
        entrants,
        length: arena_length(args)?,
        ruleset: args.ruleset.clone(),
        config,
        deadline: arbiter_server::config::parse_duration(&args.deadline)?,
    }))
}

fn ms(value: &Value) -> f64 {
    value.as_u64().unwrap_or(0) as f64 / 1000.0
}

/// This process's resident memory, from /proc (Linux).
fn rss_kib() -> anyhow::Result<u64> {
    let status = std::fs::read_to_string("/proc/self/status").context("/proc/self/status")?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .context("no VmRSS in /proc/self/status")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run that one sample alone saw running lasted about a sample period, not the
    /// nanoseconds between two readings of the clock; longer runs gain the same period.
    #[test]
    fn the_play_window_adds_a_sample_period() {
        assert_eq!(play_window(Duration::ZERO), SAMPLE_EVERY);
        assert_eq!(
            play_window(Duration::from_secs(4)),
            Duration::from_secs(4) + SAMPLE_EVERY
        );
    }
}

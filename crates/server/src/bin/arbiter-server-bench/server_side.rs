//! The server side of a load run: start the server (or the nodes), register the
//! accounts, run the clients in a child process (this binary with `--play`), sample the
//! server while matches run, and print what was measured.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arbiter_server::hub::Hub;
use arbiter_server::{Config, Server};
use arbiter_store::LogCommitTotals;
use serde_json::Value;
use std::sync::Arc;

use crate::cpu::{CpuReading, MachineReading};
use crate::{
    arena, arena_of, check, connections, live_kib, ms, play_window, rss_kib, scrape, Args,
    SAMPLE_EVERY,
};

/// Start the server, run the bots in a child process, sample memory and CPU, print.
pub async fn bench(args: &Args) -> anyhow::Result<()> {
    check(args)?;
    let data = std::env::temp_dir().join(format!("arbiter-server-bench-{}", std::process::id()));
    let config = bench_config(args, &data)?;
    let arena = arena_of(args)?;
    let websocket = match args.transport.as_str() {
        "tcp" => false,
        "ws" if args.clients == "light" => true,
        "ws" => bail!("--transport ws is for the light clients"),
        other => bail!("--transport is tcp or ws, not {other:?}"),
    };
    if args.nodes > 1 && (args.database.is_none() || args.nats.is_none()) {
        bail!("--nodes above 1 needs --database postgres://… and --nats nats://…");
    }
    let servers = start_servers(args, &config, &data).await?;
    let hubs: Vec<_> = servers.iter().map(|s| s.hub.clone()).collect();
    let hub = hubs[0].clone();
    let accounts = match args.clients.as_str() {
        "light" => connections(args),
        _ => args.matches * 2,
    };
    let sessions_file = write_sessions(&hub, accounts, &data).await?;
    let tournament = match &arena {
        Some(arena) => Some(arena.create(&hub).await?),
        None => None,
    };
    let (idle_rss, idle_heap) = (rss_kib()?, live_kib());
    let log_commits = || {
        hubs.iter()
            .map(|hub| hub.store.log_commits().totals())
            .fold(LogCommitTotals::default(), |sum, node| sum + node)
    };
    let commits_before = log_commits();
    let started = Instant::now();
    let child = spawn_clients(args, &servers, websocket, tournament, &sessions_file)?;
    let clients_pid = child.id().map(|pid| pid.to_string());
    let output = child.wait_with_output();
    tokio::pin!(output);
    let mut samples = Samples::new(idle_rss, idle_heap);
    let output = loop {
        tokio::select! {
            output = &mut output => break output?,
            _ = tokio::time::sleep(SAMPLE_EVERY) => samples.take(&hubs, clients_pid.as_deref())?,
        }
    };
    let elapsed = started.elapsed();
    let commits = log_commits().since(commits_before);
    let playing = match (samples.first_running, samples.last_running) {
        (Some(first), Some(last)) => play_window(last - first),
        _ => elapsed,
    };
    if !output.status.success() {
        bail!("the bot process failed");
    }
    let report: Value = serde_json::from_slice(&output.stdout).context("bot report")?;
    // The first node's histograms (each node has its own).
    let metrics = scrape::metrics(servers[0].http_addr).await;
    let arena_lines = match tournament {
        Some(id) => arena_lines(&hub, id, &metrics, &report, playing).await,
        None => Vec::new(),
    };
    for server in servers {
        server.shutdown().await;
    }
    let _ = std::fs::remove_dir_all(&data);
    let measured = Measured {
        report,
        metrics,
        arena_lines,
        samples,
        commits,
        nodes: hubs.len(),
        elapsed,
        playing,
    };
    measured.print(args);
    Ok(())
}

/// The server's configuration for a load run: a scratch store (or `--database`), the
/// run's pairing and deadline, and limits opened for clients all on loopback.
fn bench_config(args: &Args, data: &Path) -> anyhow::Result<Config> {
    let mut config = Config::for_data_dir(data);
    if let Some(url) = &args.database {
        config.database_url = url.clone();
    }
    config.pairing_interval = arbiter_server::config::parse_duration(&args.pairing)?;
    if config.pairing_interval.is_zero() {
        bail!("--pairing must be above zero");
    }
    config.default_deadline = Some(arbiter_server::config::parse_duration(&args.deadline)?);
    // The per-connection message bound, raised for the benchmark; a connection that
    // plays `at_once` matches sends that many players' answers, so its bound grows with
    // them (else `--at-once 25` measures the token bucket: 1,000 lines a second each).
    let players = u32::try_from(args.at_once.max(1)).unwrap_or(u32::MAX);
    config.limits.rate = 1000.0 * f64::from(players);
    config.limits.burst = players.saturating_mul(1000);
    // Every simulated client connects from loopback (over WebSocket, each first
    // through the HTTP door and its per-address pace).
    config.limits.connections_per_address = usize::MAX;
    config.limits.http_connections_per_address = usize::MAX;
    config.limits.http_rate = 1e6;
    config.limits.http_burst = 1_000_000;
    // Arenas shorter than a minute, for quick runs.
    config.limits.shortest_arena = Duration::from_secs(1);
    Ok(config)
}

/// One server, or `--nodes` of one deployment (each with its own data directory).
async fn start_servers(args: &Args, config: &Config, data: &Path) -> anyhow::Result<Vec<Server>> {
    let mut servers = Vec::new();
    for node in 0..args.nodes.max(1) {
        let mut config = config.clone();
        if args.nodes > 1 {
            config.node = format!("bench-{node}");
            config.nats = args.nats.clone();
            config.data_dir = data.join(&config.node);
        }
        servers.push(Server::start(config).await?);
    }
    Ok(servers)
}

/// Register `accounts` accounts and open a session for each, written one a line to a
/// file the clients read. Accounts first: Argon2 hashing grows the allocator's arenas
/// (19 MiB a hash), and that memory belongs to logins, not to matches. The bots then
/// only log in. A few at a time: each registration hashes a password on the blocking
/// pool.
async fn write_sessions(hub: &Arc<Hub>, accounts: usize, data: &Path) -> anyhow::Result<PathBuf> {
    let mut sessions = String::new();
    let indices: Vec<usize> = (0..accounts).collect();
    for chunk in indices.chunks(8) {
        let opened = futures::future::join_all(chunk.iter().map(|index| {
            let store = hub.store.clone();
            async move {
                let account = store
                    .register(&format!("bench-{index}"), "bench-password")
                    .await?;
                store.open_session(account.id).await
            }
        }))
        .await;
        for session in opened {
            sessions.push_str(session?.reveal());
            sessions.push('\n');
        }
    }
    let sessions_file = data.join("sessions.txt");
    std::fs::write(&sessions_file, sessions)?;
    Ok(sessions_file)
}

/// The clients: this binary with `--play`, told every server's address.
fn spawn_clients(
    args: &Args,
    servers: &[Server],
    websocket: bool,
    tournament: Option<i64>,
    sessions_file: &Path,
) -> anyhow::Result<tokio::process::Child> {
    let addresses: Vec<String> = servers
        .iter()
        .map(|s| match websocket {
            true => format!("ws://{}/ws", s.http_addr),
            false => s.tcp_addr.to_string(),
        })
        .collect();
    let child = tokio::process::Command::new(std::env::current_exe()?)
        .args(["--play", &addresses.join(",")])
        .args(["--ruleset", &args.ruleset])
        .args(["--matches", &args.matches.to_string()])
        .args(["--games", &args.games.to_string()])
        .args(["--clients", &args.clients])
        .args(["--at-once", &args.at_once.to_string()])
        .args(["--think", &args.think])
        .args(
            args.duration
                .iter()
                .flat_map(|d| ["--duration", d.as_str()]),
        )
        .args(
            args.answer
                .iter()
                .flat_map(|answer| ["--answer", answer.as_str()]),
        )
        .args(
            args.arena
                .iter()
                .flat_map(|n| ["--arena".into(), n.to_string()]),
        )
        .args(args.unwatch.then_some("--unwatch"))
        .args(
            tournament
                .iter()
                .flat_map(|id| ["--tournament".into(), id.to_string()]),
        )
        .arg("--sessions")
        .arg(sessions_file)
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    Ok(child)
}

/// What the server side saw, sample by sample, while the clients played.
struct Samples {
    idle_rss: u64,
    idle_heap: u64,
    peak_rss: u64,
    peak_matches: usize,
    heap_at_peak_matches: u64,
    /// The window in which matches were running (registration and pairing excluded):
    /// the first and the last sample that saw one running (see `SAMPLE_EVERY`).
    first_running: Option<Instant>,
    last_running: Option<Instant>,
    /// Both processes' CPU over the same window: (at its start, at its latest tick).
    server_cpu: Option<(CpuReading, CpuReading)>,
    clients_cpu: Option<(CpuReading, CpuReading)>,
    machine_cpu: Option<(MachineReading, MachineReading)>,
}

impl Samples {
    fn new(idle_rss: u64, idle_heap: u64) -> Samples {
        Samples {
            idle_rss,
            idle_heap,
            peak_rss: idle_rss,
            peak_matches: 0,
            heap_at_peak_matches: idle_heap,
            first_running: None,
            last_running: None,
            server_cpu: None,
            clients_cpu: None,
            machine_cpu: None,
        }
    }

    /// One sample: the running matches, memory, and (while matches run) CPU.
    fn take(&mut self, hubs: &[Arc<Hub>], clients_pid: Option<&str>) -> anyhow::Result<()> {
        let rss = rss_kib()?;
        let running: usize = hubs.iter().map(|hub| hub.matches.count()).sum();
        if running > 0 {
            let now = Instant::now();
            self.first_running.get_or_insert(now);
            self.last_running = Some(now);
            for (window, now) in [
                (&mut self.server_cpu, CpuReading::of("self")),
                (&mut self.clients_cpu, clients_pid.and_then(CpuReading::of)),
            ] {
                if let Some(now) = now {
                    window.get_or_insert((now, now)).1 = now;
                }
            }
            if let Some(now) = MachineReading::now() {
                self.machine_cpu.get_or_insert((now, now)).1 = now;
            }
        }
        self.peak_rss = self.peak_rss.max(rss);
        // The most heap seen while the most matches ran: the last reading could fall
        // after the clients hung up (`--duration`), their connections' memory already
        // freed while their matches still ran.
        let heap = live_kib();
        if running > self.peak_matches {
            (self.peak_matches, self.heap_at_peak_matches) = (running, heap);
        } else if running == self.peak_matches {
            self.heap_at_peak_matches = self.heap_at_peak_matches.max(heap);
        }
        Ok(())
    }
}

/// The arena's own lines: its director's figures, the wait between games, and the
/// tournament state sent to the entrants.
async fn arena_lines(
    hub: &Arc<Hub>,
    id: i64,
    metrics: &anyhow::Result<String>,
    report: &Value,
    playing: Duration,
) -> Vec<String> {
    let mut lines = arena::report(hub, id, metrics).await;
    let wait = |key: &str| ms(&report[key]);
    lines.push(format!(
        "between games           p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms of {} waits (a client's outcome to its next match_started: the result recorded, a wave paired and written, the match started)",
        wait("wait_p50_us"),
        wait("wait_p99_us"),
        wait("wait_max_us"),
        report["waits"].as_u64().unwrap_or(0)
    ));
    let states = report["states"].as_u64().unwrap_or(0);
    let state_bytes = report["state_bytes"].as_u64().unwrap_or(0) as f64;
    lines.push(format!(
        "tournament state        {states} messages to the entrants, {:.0} MiB ({:.0} KiB each, {:.1} MiB/s of play)",
        state_bytes / (1024.0 * 1024.0),
        state_bytes / 1024.0 / states.max(1) as f64,
        state_bytes / (1024.0 * 1024.0) / playing.as_secs_f64()
    ));
    lines
}

/// Everything a run measured, for the printed report.
struct Measured {
    /// The clients' JSON line.
    report: Value,
    /// The first node's `/metrics` text.
    metrics: anyhow::Result<String>,
    arena_lines: Vec<String>,
    samples: Samples,
    commits: LogCommitTotals,
    nodes: usize,
    elapsed: Duration,
    playing: Duration,
}

impl Measured {
    fn print(self, args: &Args) {
        let Measured {
            report,
            metrics,
            arena_lines,
            samples,
            commits,
            nodes,
            elapsed,
            playing,
        } = self;
        let decisions = report["decisions"].as_u64().unwrap_or(0);
        let histogram = |name: &str| match &metrics {
            Ok(text) => scrape::Histogram::read(text, name),
            Err(error) => Err(anyhow::anyhow!("{error:#}")),
        };
        let Samples {
            idle_rss,
            idle_heap,
            peak_rss,
            peak_matches,
            heap_at_peak_matches,
            server_cpu,
            clients_cpu,
            machine_cpu,
            ..
        } = samples;
        let per_match =
            heap_at_peak_matches.saturating_sub(idle_heap) as f64 / peak_matches.max(1) as f64;
        println!("ruleset                 {}", args.ruleset);
        println!(
            "store                   {}",
            match &args.database {
                Some(url) => arbiter_server::config::redact_url(url),
                None => "SQLite (scratch file)".to_string(),
            }
        );
        println!("nodes                   {}", args.nodes.max(1));
        println!("clients' transport      {}", args.transport);
        match args.arena {
            Some(entrants) => println!(
                "matches (concurrent)    {} at most (an arena of {entrants}), {peak_matches} peak running",
                entrants / 2
            ),
            None => println!(
                "matches (concurrent)    {} asked, {} peak running",
                args.matches, peak_matches
            ),
        }
        println!(
            "games                   {}",
            report["seat_games"].as_u64().unwrap_or(0) / 2
        );
        println!(
            "moves                   {decisions} in {:.2} s of play ({:.2} s with logins and pairing)",
            playing.as_secs_f64(),
            elapsed.as_secs_f64()
        );
        println!(
            "moves per second        {:.0}",
            decisions as f64 / playing.as_secs_f64()
        );
        println!(
            "decision round trip     p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(&report["p50_us"]),
            ms(&report["p90_us"]),
            ms(&report["p99_us"]),
            ms(&report["max_us"])
        );
        for line in arena_lines {
            println!("{line}");
        }
        match histogram("arbiter_decision_seconds") {
            Ok(h) => println!(
                "server's share          p50 ≤ {:.2} ms, p99 ≤ {:.2} ms of {:.0} decisions (arbiter_decision_seconds)",
                h.quantile(0.5) * 1000.0,
                h.quantile(0.99) * 1000.0,
                h.count()
            ),
            Err(error) => println!("server's share          not read from /metrics: {error:#}"),
        }
        if let Ok(h) = histogram("arbiter_log_store_seconds") {
            println!(
                "log entry stored        p50 ≤ {:.2} ms, p99 ≤ {:.2} ms of {:.0} entries (arbiter_log_store_seconds)",
                h.quantile(0.5) * 1000.0,
                h.quantile(0.99) * 1000.0,
                h.count()
            );
        }
        let LogCommitTotals {
            commits,
            entries,
            folds,
            folded,
            busy,
            folding,
        } = commits;
        let committing = busy.saturating_sub(folding);
        println!(
            "log writer              {commits} commits of {:.1} entries, {:.3} ms each; {folds} folds of {:.0} entries, {:.3} ms each; busy {:.0}% of the play (per node: arbiter_log_busy_seconds)",
            entries as f64 / commits.max(1) as f64,
            committing.as_secs_f64() * 1000.0 / commits.max(1) as f64,
            folded as f64 / folds.max(1) as f64,
            folding.as_secs_f64() * 1000.0 / folds.max(1) as f64,
            100.0 * busy.as_secs_f64() / playing.as_secs_f64() / nodes.max(1) as f64
        );
        // Read at the ticks that bound `playing`, so over the same window as the moves.
        let window =
            |cpu: Option<(CpuReading, CpuReading)>| cpu.map(|(start, end)| end.since(start));
        for (name, cpu) in [
            ("server CPU", window(server_cpu)),
            ("clients' CPU", window(clients_cpu)),
        ] {
            match cpu {
                Some(cpu) => println!("{name:<24}{}", cpu.describe(playing, decisions)),
                None => println!("{name:<24}not read (no /proc, or the play was too short)"),
            }
        }
        match machine_cpu {
            Some((start, end)) => println!("machine CPU             {}", end.describe_since(start)),
            None => println!("machine CPU             not read (no /proc/stat)"),
        }
        println!(
            "server heap (live)      idle {idle_heap} KiB, {heap_at_peak_matches} KiB with {peak_matches} matches: {per_match:.0} KiB per running match"
        );
        println!("server RSS              idle {idle_rss} KiB, peak {peak_rss} KiB");
        println!(
            "answers refused         {}",
            report["rejected"].as_u64().unwrap_or(0)
        );
    }
}

//! Server settings from three layers: command-line flags, then `ARBITER_*` environment
//! variables (clap reads both), then a TOML file (`--config`), then defaults.
//!
//! Every flag is optional at the clap level so that a value missing from the command
//! line and the environment can still come from the file.

pub mod proxies;
pub mod qgame_port;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use arbiter_engine::DynGame;
use serde::Deserialize;

/// Each seat's time bank in queued matches unless configured.
pub const DEFAULT_TIME_BANK: Duration = Duration::from_secs(30);
/// How long a silent seat waits for its player before a house bot plays it: long
/// enough for a page reload or a dropped Wi-Fi, short enough that the others do not
/// sit idle.
pub const DEFAULT_STAND_IN_GRACE: Duration = Duration::from_secs(60);
/// Extra time for every seat's next decision when a match goes on after its server went
/// away (a restart, a stop, a takeover): the clients' time to come back.
pub const DEFAULT_RESUME_GRACE: Duration = Duration::from_secs(30);
/// A server's name unless configured: one server per database needs no other.
pub const DEFAULT_NODE: &str = "local";
/// How stale a node's heartbeat may be before the others end its matches.
pub const DEFAULT_NODE_LEASE: Duration = Duration::from_secs(30);

/// `arbiter serve` flags. Each also reads an `ARBITER_*` environment variable.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ServeArgs {
    /// A TOML file with any of the settings below (flags and environment win over it).
    #[arg(long, env = "ARBITER_CONFIG")]
    pub config: Option<PathBuf>,
    /// Data directory: the SQLite database lives here [default: ./arbiter-data].
    #[arg(long, env = "ARBITER_DATA")]
    pub data: Option<PathBuf>,
    /// HTTP + WebSocket + web pages address [default: 127.0.0.1:8080]; port 0 picks one.
    #[arg(long, env = "ARBITER_HTTP")]
    pub http: Option<String>,
    /// Where people reach the web pages (`https://arbiter.example.org`), for the links
    /// the server hands out, such as the spacegoo port's replay links; needed behind a
    /// proxy or on a wildcard address [default: http:// and the HTTP address].
    #[arg(long, env = "ARBITER_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Native protocol (JSON lines over TCP) address [default: 127.0.0.1:7000].
    #[arg(long, env = "ARBITER_TCP")]
    pub tcp: Option<String>,
    /// Spacegoo text-protocol port for the reference's bots [default: 127.0.0.1:6000];
    /// `off` disables it.
    #[arg(long, env = "ARBITER_SPACEGOO")]
    pub spacegoo: Option<String>,
    /// Q-Game course remote-protocol port for the course's clients
    /// [default: 127.0.0.1:45678]; `off` disables it.
    #[arg(long, env = "ARBITER_QGAME")]
    pub qgame: Option<String>,
    /// How long the Q-Game port waits for more players after the first signs up
    /// [default: 20s, the course's waiting period].
    #[arg(long, env = "ARBITER_QGAME_SIGNUP")]
    pub qgame_signup: Option<String>,
    /// Database URL: sqlite://FILE or postgres://… [default: the SQLite file in --data].
    #[arg(long, env = "ARBITER_DATABASE")]
    pub database: Option<String>,
    /// Deadline per decision for a ruleset, as RULESET=DURATION (`qgame=6s`,
    /// `tae=500ms`); `*=DURATION` sets every ruleset without its own. Repeatable.
    #[arg(long = "deadline", env = "ARBITER_DEADLINES", value_delimiter = ',')]
    pub deadlines: Vec<String>,
    /// Each seat's time bank in queued (rated) matches, drawn on when a decision runs
    /// past its deadline [default: 30s]. Tables set their own.
    #[arg(long, env = "ARBITER_TIME_BANK")]
    pub time_bank: Option<String>,
    /// How long a seat whose player went silent (disconnected while owing a decision)
    /// waits before a house bot plays it to the end; the player may take it back. `off`
    /// ejects silent seats instead, after the missed deadlines [default: 60s]. Tables
    /// set their own.
    #[arg(long, env = "ARBITER_STAND_IN_GRACE")]
    pub stand_in_grace: Option<String>,
    /// When a match goes on after its server went away (a restart, a stop, a node lost),
    /// the extra time every seat gets for its next decision, on top of the time it has,
    /// for its client to come back [default: 30s].
    #[arg(long, env = "ARBITER_RESUME_GRACE")]
    pub resume_grace: Option<String>,
    /// How often matchmaking pairs waiting players [default: 1s].
    #[arg(long, env = "ARBITER_PAIRING_INTERVAL")]
    pub pairing_interval: Option<String>,
    /// How long a match waits for a failing database (unreachable, locked, full) before
    /// it is aborted; it stands still meanwhile, its clocks stopped [default: 60s].
    #[arg(long, env = "ARBITER_STORE_PATIENCE")]
    pub store_patience: Option<String>,
    /// This server's name among the servers sharing one PostgreSQL database; each needs
    /// its own, kept across restarts [default: local].
    #[arg(long, env = "ARBITER_NODE")]
    pub node: Option<String>,
    /// How long a server sharing the database may go without a heartbeat before the
    /// others take over its running matches [default: 30s].
    #[arg(long, env = "ARBITER_NODE_LEASE")]
    pub node_lease: Option<String>,
    /// NATS server (`nats://host:4222`) joining the servers of one deployment, so that
    /// players and spectators on any of them reach every live match; needs a shared
    /// PostgreSQL database [default: none, a single server].
    #[arg(long, env = "ARBITER_NATS")]
    pub nats: Option<String>,
    /// Longest line (or WebSocket message) a client may send, in bytes [default: 65536].
    #[arg(long, env = "ARBITER_MAX_LINE")]
    pub max_line: Option<usize>,
    /// Messages per second a connection may send on average [default: 50].
    #[arg(long, env = "ARBITER_RATE")]
    pub rate: Option<f64>,
    /// Messages a connection may send in a burst above the average [default: 100].
    #[arg(long, env = "ARBITER_BURST")]
    pub burst: Option<u32>,
    /// Connections one client address may hold, native TCP, WebSocket and both
    /// compatibility ports counted together [default: 128]; raise it for many bots or
    /// people behind one address.
    #[arg(long, env = "ARBITER_CONNECTIONS_PER_ADDRESS")]
    pub connections_per_address: Option<usize>,
    /// Plain HTTP connections (pages, API) one client address may hold; a browser opens
    /// up to six to load a page [default: 1024].
    #[arg(long, env = "ARBITER_HTTP_CONNECTIONS_PER_ADDRESS")]
    pub http_connections_per_address: Option<usize>,
    /// HTTP requests per second one client address may send on average; faster ones
    /// are answered 429 with Retry-After [default: 100].
    #[arg(long, env = "ARBITER_HTTP_RATE")]
    pub http_rate: Option<f64>,
    /// HTTP requests one client address may send in a burst above the average
    /// [default: 200].
    #[arg(long, env = "ARBITER_HTTP_BURST")]
    pub http_burst: Option<u32>,
    /// Reverse proxies or load balancers in front of the HTTP port, comma-separated
    /// addresses or networks (`127.0.0.1,10.0.0.0/8`): a request from one of them is
    /// counted by the client address its `X-Forwarded-For` names [default: none].
    #[arg(long, env = "ARBITER_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Option<Vec<String>>,
}

/// One recurring tournament of the configuration (`[[house_tournaments]]`).
#[derive(Debug, Clone, PartialEq)]
pub struct HouseTournament {
    /// How often one starts; occurrences start at multiples of it since the epoch.
    pub every: Duration,
    /// Everything else a `create_tournament` gives, but the start, which is the slot's.
    pub settings: crate::protocol::messages::TournamentSettings,
}

impl HouseTournament {
    /// The name its occurrences carry (the settings' own, or one made from them).
    pub fn name(&self) -> String {
        match &self.settings.name {
            Some(name) => name.trim().to_string(),
            None => format!("{} {} (house)", self.settings.ruleset, self.settings.format),
        }
    }

    /// The first slot after `now_ms` (Unix milliseconds), with at least a second to go.
    pub(crate) fn next_start(&self, now_ms: u64) -> u64 {
        let period = u64::try_from(self.every.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        (now_ms / period + 1) * period
    }
}

/// One `[[house_tournaments]]` entry of the file.
#[derive(Debug, Deserialize)]
struct HouseTournamentFile {
    every: String,
    #[serde(flatten)]
    settings: crate::protocol::messages::TournamentSettings,
}

/// The shortest period of a house tournament.
pub const SHORTEST_HOUSE_PERIOD: Duration = Duration::from_secs(1);

/// The TOML file: the same settings, plus tables for deadlines.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    data: Option<PathBuf>,
    http: Option<String>,
    public_url: Option<String>,
    tcp: Option<String>,
    spacegoo: Option<String>,
    qgame: Option<String>,
    qgame_signup: Option<String>,
    database: Option<String>,
    /// `[deadlines]` table: `qgame = "6s"`, `"*" = "10s"`.
    #[serde(default)]
    deadlines: BTreeMap<String, String>,
    /// `[[house_tournaments]]`: recurring tournaments (`every`, then a tournament's
    /// settings as `create_tournament` takes them).
    #[serde(default)]
    house_tournaments: Vec<HouseTournamentFile>,
    time_bank: Option<String>,
    stand_in_grace: Option<String>,
    resume_grace: Option<String>,
    pairing_interval: Option<String>,
    store_patience: Option<String>,
    node: Option<String>,
    node_lease: Option<String>,
    nats: Option<String>,
    max_line: Option<usize>,
    rate: Option<f64>,
    burst: Option<u32>,
    connections_per_address: Option<usize>,
    http_connections_per_address: Option<usize>,
    http_rate: Option<f64>,
    http_burst: Option<u32>,
    trusted_proxies: Option<Vec<String>>,
}

/// Limits on what one client connection may send.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// Longest accepted line or WebSocket message, in bytes.
    pub max_line: usize,
    /// Token-bucket refill rate, messages per second.
    pub rate: f64,
    /// Token-bucket capacity.
    pub burst: u32,
    /// How long a started line may stay unterminated before the connection is closed.
    pub partial_line_timeout: Duration,
    /// Errors (bad JSON, rate violations, …) tolerated before the connection is closed.
    pub max_strikes: u32,
    /// Bytes of server messages queued for a client that does not read before it is
    /// dropped (it may reconnect and resume from a fresh view).
    pub outbox_bytes: usize,
    /// Connections one client address may hold: native TCP, WebSocket and the ports.
    pub connections_per_address: usize,
    /// Plain HTTP connections one client address may hold.
    pub http_connections_per_address: usize,
    /// HTTP requests per second one client address may send on average.
    pub http_rate: f64,
    /// HTTP requests one client address may send at once above the average.
    pub http_burst: u32,
    /// How long an HTTP client may take to send a request's headers.
    pub http_header_timeout: Duration,
    /// How often the server pings a WebSocket client. A client that has sent nothing,
    /// not even the pong every WebSocket client sends by itself, for two of these is
    /// closed: that is how a frame left half-sent is noticed.
    pub ws_heartbeat: Duration,
    /// The kernel's send buffer for each native-protocol TCP connection, in bytes. Set,
    /// not left to autotuning (which grows it to megabytes on a fast link), so that
    /// what a client that does not read can hold is this plus `outbox_bytes`.
    pub socket_send_buffer: usize,
    /// The shortest arena a tournament's creator may ask for (tests lower it).
    pub shortest_arena: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_line: 64 * 1024,
            rate: 50.0,
            burst: 100,
            partial_line_timeout: Duration::from_secs(30),
            max_strikes: 20,
            outbox_bytes: 1024 * 1024,
            connections_per_address: 128,
            http_connections_per_address: 1024,
            http_rate: 100.0,
            http_burst: 200,
            http_header_timeout: Duration::from_secs(10),
            ws_heartbeat: Duration::from_secs(30),
            socket_send_buffer: 256 * 1024,
            shortest_arena: Duration::from_secs(60),
        }
    }
}

/// The resolved settings the server runs with.
#[derive(Debug, Clone)]
pub struct Config {
    pub data_dir: PathBuf,
    pub http: String,
    /// Where people reach the web pages, without a trailing `/`; `None`: the HTTP
    /// address as bound.
    pub public_url: Option<String>,
    pub tcp: String,
    /// The spacegoo port's address; `None` when it is off.
    pub spacegoo: Option<String>,
    /// The Q-Game port's address; `None` when it is off.
    pub qgame: Option<String>,
    pub qgame_port: qgame_port::QgamePortOptions,
    pub database_url: String,
    /// Deadline per ruleset id; rulesets not listed use `default_deadline`.
    pub deadlines: BTreeMap<String, Duration>,
    /// The `*` entry, if configured; otherwise each ruleset's built-in default.
    pub default_deadline: Option<Duration>,
    /// Each seat's time bank in queued matches.
    pub time_bank: Duration,
    /// How long a silent seat waits for its player before a house bot plays it;
    /// `None`: no stand-in (silent seats are ejected after their missed deadlines).
    pub stand_in_grace: Option<Duration>,
    /// Extra time for every seat's next decision in a match that goes on after its
    /// server went away.
    pub resume_grace: Duration,
    pub pairing_interval: Duration,
    /// How long a match waits for a failing store before it is aborted.
    pub store_patience: Duration,
    /// This server's name in a deployment sharing one database.
    pub node: String,
    /// How stale a node's heartbeat may be before its running matches are taken over.
    pub node_lease: Duration,
    /// The NATS server that joins this node to the others of its deployment.
    pub nats: Option<String>,
    pub limits: Limits,
    /// Tournaments the house opens again and again (TOML `[[house_tournaments]]`).
    pub house_tournaments: Vec<HouseTournament>,
    /// Proxies whose `X-Forwarded-For` names the client an HTTP request is counted as.
    pub trusted_proxies: proxies::TrustedProxies,
}

impl Config {
    /// Settings for tests and embedding: loopback on free ports, SQLite in `data_dir`.
    pub fn for_data_dir(data_dir: impl Into<PathBuf>) -> Config {
        let data_dir = data_dir.into();
        Config {
            database_url: sqlite_url(&data_dir),
            data_dir,
            http: "127.0.0.1:0".to_string(),
            public_url: None,
            tcp: "127.0.0.1:0".to_string(),
            spacegoo: None,
            qgame: None,
            qgame_port: Default::default(),
            deadlines: BTreeMap::new(),
            default_deadline: None,
            time_bank: DEFAULT_TIME_BANK,
            stand_in_grace: Some(DEFAULT_STAND_IN_GRACE),
            resume_grace: DEFAULT_RESUME_GRACE,
            pairing_interval: Duration::from_secs(1),
            store_patience: arbiter_runner::DEFAULT_STORE_PATIENCE,
            node: DEFAULT_NODE.to_string(),
            node_lease: DEFAULT_NODE_LEASE,
            nats: None,
            limits: Limits::default(),
            house_tournaments: Vec::new(),
            trusted_proxies: Default::default(),
        }
    }

    /// The deadline per decision for `ruleset`: its own configured line, else the
    /// configured `*` line, else the ruleset's policy ([`Policy::default_deadline`]:
    /// the references' own values where they had one).
    ///
    /// [`Policy::default_deadline`]: arbiter_engine::Policy::default_deadline
    pub fn deadline(&self, ruleset: &dyn DynGame) -> Duration {
        self.deadlines
            .get(ruleset.id())
            .copied()
            .or(self.default_deadline)
            .unwrap_or_else(|| ruleset.policy().default_deadline)
    }

    /// Merge flags/environment over the TOML file (if any) over defaults.
    pub fn resolve(args: &ServeArgs) -> anyhow::Result<Config> {
        let file = match &args.config {
            Some(path) => read_file(path)?,
            None => FileConfig::default(),
        };
        Config::merge(args, file)
    }

    /// What a configuration file holding `text` gives under `args`' flags (the file
    /// named in `args` is not read): the door the fuzz target goes through.
    pub fn from_toml(args: &ServeArgs, text: &str) -> anyhow::Result<Config> {
        let file = toml::from_str(text).context("not a valid configuration")?;
        Config::merge(args, file)
    }

    /// Flags over `file` over defaults.
    fn merge(args: &ServeArgs, file: FileConfig) -> anyhow::Result<Config> {
        let mut config = Config::addressed(args, &file)?;
        config.set_clocks(args, &file)?;
        config.set_deployment(args, &file)?;
        config.set_limits(args, &file)?;
        config.house_tournaments = house_tournaments(file.house_tournaments)?;
        Ok(config)
    }

    /// Where the server listens and keeps its data, everything else at its default.
    fn addressed(args: &ServeArgs, file: &FileConfig) -> anyhow::Result<Config> {
        let data_dir = args
            .data
            .clone()
            .or(file.data.clone())
            .unwrap_or_else(|| PathBuf::from("./arbiter-data"));
        let database_url = args
            .database
            .clone()
            .or(file.database.clone())
            .unwrap_or_else(|| sqlite_url(&data_dir));
        Ok(Config {
            http: args
                .http
                .clone()
                .or(file.http.clone())
                .unwrap_or_else(|| "127.0.0.1:8080".to_string()),
            public_url: public_url(args.public_url.clone().or(file.public_url.clone()))?,
            tcp: args
                .tcp
                .clone()
                .or(file.tcp.clone())
                .unwrap_or_else(|| "127.0.0.1:7000".to_string()),
            spacegoo: optional_address(
                args.spacegoo.clone().or(file.spacegoo.clone()),
                arbiter_spacegoo_port::DEFAULT_ADDRESS,
            ),
            qgame: optional_address(
                args.qgame.clone().or(file.qgame.clone()),
                qgame_port::DEFAULT_ADDRESS,
            ),
            database_url,
            ..Config::for_data_dir(data_dir)
        })
    }

    /// Time: the bank, the graces, each ruleset's deadline, the matchmaker's interval,
    /// the store's patience and the Q-Game port's sign-up period.
    fn set_clocks(&mut self, args: &ServeArgs, file: &FileConfig) -> anyhow::Result<()> {
        let config = self;
        if let Some(text) = args.time_bank.as_ref().or(file.time_bank.as_ref()) {
            config.time_bank = parse_duration(text)
                .with_context(|| format!("the time bank {text:?} is not a duration"))?;
        }
        if let Some(text) = args
            .stand_in_grace
            .as_ref()
            .or(file.stand_in_grace.as_ref())
        {
            config.stand_in_grace = match text.trim() {
                "off" => None,
                text => Some(parse_duration(text).with_context(|| {
                    format!("the stand-in grace {text:?} is not a duration or off")
                })?),
            };
        }
        if let Some(text) = args.resume_grace.as_ref().or(file.resume_grace.as_ref()) {
            config.resume_grace = parse_duration(text)
                .with_context(|| format!("the resume grace {text:?} is not a duration"))?;
        }
        // File deadlines first, then flags over them, entry by entry.
        for (ruleset, text) in &file.deadlines {
            config.set_deadline(ruleset, text)?;
        }
        for entry in &args.deadlines {
            let (ruleset, text) = entry
                .split_once('=')
                .ok_or_else(|| anyhow!("--deadline wants RULESET=DURATION, got {entry:?}"))?;
            config.set_deadline(ruleset.trim(), text.trim())?;
        }
        if let Some(text) = args
            .pairing_interval
            .as_ref()
            .or(file.pairing_interval.as_ref())
        {
            config.pairing_interval = parse_duration(text)?;
            if config.pairing_interval.is_zero() {
                bail!("the pairing interval must be positive");
            }
        }
        if let Some(text) = args
            .store_patience
            .as_ref()
            .or(file.store_patience.as_ref())
        {
            config.store_patience = parse_duration(text)
                .with_context(|| format!("the store patience {text:?} is not a duration"))?;
        }
        if let Some(text) = args.qgame_signup.as_ref().or(file.qgame_signup.as_ref()) {
            config.qgame_port.signup_period = parse_duration(text)?;
            if config.qgame_port.signup_period.is_zero() {
                bail!("the Q-Game sign-up period must be positive");
            }
        }
        Ok(())
    }

    /// This node's place in a deployment: its name, NATS and the lease.
    fn set_deployment(&mut self, args: &ServeArgs, file: &FileConfig) -> anyhow::Result<()> {
        let config = self;
        if let Some(node) = args.node.as_ref().or(file.node.as_ref()) {
            let node = node.trim();
            if node.is_empty()
                || node.len() > 64
                || !node
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                bail!(
                    "the node name must be 1 to 64 letters, digits, '-' or '_' (it names \
                     the node's subjects in NATS), got {node:?}"
                );
            }
            config.node = node.to_string();
        }
        if let Some(url) = args.nats.as_ref().or(file.nats.as_ref()) {
            if !config.database_url.starts_with("postgres") {
                bail!(
                    "--nats joins servers that share one PostgreSQL database; give \
                     --database postgres://… too"
                );
            }
            config.nats = Some(url.trim().to_string());
        }
        if let Some(text) = args.node_lease.as_ref().or(file.node_lease.as_ref()) {
            config.node_lease = parse_duration(text)
                .with_context(|| format!("the node lease {text:?} is not a duration"))?;
            if config.node_lease < Duration::from_secs(1) {
                bail!("the node lease must be at least 1s");
            }
        }
        Ok(())
    }

    /// What any one client may take: line length, rates and bursts, connections per
    /// address, and whose forwarded addresses are believed.
    fn set_limits(&mut self, args: &ServeArgs, file: &FileConfig) -> anyhow::Result<()> {
        let config = self;
        if let Some(max_line) = args.max_line.or(file.max_line) {
            if max_line < 256 {
                bail!("max_line must be at least 256 bytes, got {max_line}");
            }
            config.limits.max_line = max_line;
        }
        let rates = [
            (
                "rate",
                "messages",
                args.rate.or(file.rate),
                &mut config.limits.rate,
            ),
            (
                "http_rate",
                "requests",
                args.http_rate.or(file.http_rate),
                &mut config.limits.http_rate,
            ),
        ];
        for (name, what, given, limit) in rates {
            if let Some(rate) = given {
                if !(rate.is_finite() && rate > 0.0) {
                    bail!("{name} must be a positive number of {what} per second, got {rate}");
                }
                *limit = rate;
            }
        }
        let counts = [
            ("burst", args.burst.or(file.burst), &mut config.limits.burst),
            (
                "http_burst",
                args.http_burst.or(file.http_burst),
                &mut config.limits.http_burst,
            ),
        ];
        for (name, given, limit) in counts {
            if let Some(count) = given {
                if count == 0 {
                    bail!("{name} must be at least 1");
                }
                *limit = count;
            }
        }
        if let Some(proxies) = args
            .trusted_proxies
            .as_ref()
            .or(file.trusted_proxies.as_ref())
        {
            config.trusted_proxies =
                proxies::TrustedProxies::parse(proxies.iter().map(String::as_str))
                    .map_err(anyhow::Error::msg)?;
        }
        let caps = [
            (
                "connections_per_address",
                args.connections_per_address
                    .or(file.connections_per_address),
                &mut config.limits.connections_per_address,
            ),
            (
                "http_connections_per_address",
                args.http_connections_per_address
                    .or(file.http_connections_per_address),
                &mut config.limits.http_connections_per_address,
            ),
        ];
        for (name, given, limit) in caps {
            if let Some(cap) = given {
                if cap == 0 {
                    bail!("{name} must be at least 1");
                }
                *limit = cap;
            }
        }
        Ok(())
    }

    fn set_deadline(&mut self, ruleset: &str, text: &str) -> anyhow::Result<()> {
        let duration = parse_duration(text)
            .with_context(|| format!("the deadline for {ruleset:?} is not a duration"))?;
        if duration.is_zero() {
            bail!("the deadline for {ruleset:?} must be positive");
        }
        if ruleset == "*" {
            self.default_deadline = Some(duration);
        } else if arbiter_rulesets::find(ruleset).is_none() {
            bail!("a deadline names an unknown ruleset {ruleset:?}");
        } else {
            self.deadlines.insert(ruleset.to_string(), duration);
        }
        Ok(())
    }
}

/// A public URL as given, checked (an absolute http or https URL) and without its
/// trailing `/`, so that paths can be appended.
fn public_url(given: Option<String>) -> anyhow::Result<Option<String>> {
    let Some(url) = given else {
        return Ok(None);
    };
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(host)
            if !host.trim_end_matches('/').is_empty() && !host.contains(char::is_whitespace) =>
        {
            Ok(Some(url.trim_end_matches('/').to_string()))
        }
        _ => bail!("public_url must be an http:// or https:// address, not {url:?}"),
    }
}

/// A port's address: the default when unset, `None` when set to `off`.
fn optional_address(value: Option<String>, default: &str) -> Option<String> {
    match value {
        None => Some(default.to_string()),
        Some(text) if matches!(text.trim(), "off" | "none" | "") => None,
        Some(text) => Some(text),
    }
}

fn read_file(path: &Path) -> anyhow::Result<FileConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the configuration file {}", path.display()))?;
    toml::from_str(&text)
        .with_context(|| format!("{} is not a valid configuration", path.display()))
}

/// The embedded database: one SQLite file in the data directory.
pub fn sqlite_url(data_dir: &Path) -> String {
    format!("sqlite://{}", data_dir.join("arbiter.db").display())
}

/// A database URL without its password, for messages and logs.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => match url[scheme + 3..at].split_once(':') {
            Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
            None => url.to_string(),
        },
        _ => url.to_string(),
    }
}

/// The house's recurring tournaments, each checked.
fn house_tournaments(
    house_tournaments: Vec<HouseTournamentFile>,
) -> anyhow::Result<Vec<HouseTournament>> {
    let mut out = Vec::with_capacity(house_tournaments.len());
    for house in house_tournaments {
        let every = parse_duration(&house.every).with_context(|| {
            format!(
                "house tournament: every = {:?} is not a duration",
                house.every
            )
        })?;
        if every < SHORTEST_HOUSE_PERIOD {
            bail!("house tournament: every must be at least 1s");
        }
        if house.settings.starts_at.is_some() {
            bail!("house tournament: starts_at is each occurrence's own (set every instead)");
        }
        out.push(HouseTournament {
            every,
            settings: house.settings,
        });
    }
    Ok(out)
}

/// A duration as `humantime` reads it (`250ms`, `3s`, `2m`, `1h 30m`), or a bare
/// number of seconds (`1.5`), as earlier config files wrote them; at most a day.
pub fn parse_duration(text: &str) -> anyhow::Result<Duration> {
    let text = text.trim();
    let duration = match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && (0.0..=MAX_DURATION_SECS).contains(&seconds) => {
            Duration::from_secs_f64(seconds)
        }
        Ok(_) => bail!("{text:?} is out of range"),
        Err(_) => humantime::parse_duration(text)
            .map_err(|e| anyhow!("{text:?} is not a duration ({e}; try 500ms, 3s, 2m)"))?,
    };
    if duration.as_secs_f64() > MAX_DURATION_SECS {
        bail!("{text:?} is out of range (a day at most)");
    }
    Ok(duration)
}

/// The longest duration a config option takes: a day.
const MAX_DURATION_SECS: f64 = 86_400.0;

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str) -> std::sync::Arc<dyn DynGame> {
        arbiter_rulesets::find(id).expect("a shipped ruleset").game
    }

    #[test]
    fn house_tournaments_and_the_stand_in_grace_come_from_the_file() {
        let args = ServeArgs::default();
        let text = r#"
            stand_in_grace = "off"
            [[house_tournaments]]
            every = "1h"
            name = "Hourly T&E arena"
            ruleset = "tae"
            format = "arena"
            duration_ms = 1800000
            entry = "bots"
        "#;
        let config = Config::from_toml(&args, text).expect("a valid file");
        assert_eq!(config.stand_in_grace, None);
        let [house] = config.house_tournaments.as_slice() else {
            panic!("one house tournament: {:?}", config.house_tournaments);
        };
        assert_eq!(house.every, Duration::from_secs(3600));
        assert_eq!(house.name(), "Hourly T&E arena");
        assert_eq!(house.settings.duration_ms, Some(1_800_000));
        assert_eq!(house.settings.entry.as_deref(), Some("bots"));
        let default = Config::from_toml(&args, "").expect("an empty file");
        assert_eq!(default.stand_in_grace, Some(DEFAULT_STAND_IN_GRACE));
        for bad in [
            "[[house_tournaments]]\nevery = \"0s\"\nruleset = \"tae\"\nformat = \"arena\"",
            "[[house_tournaments]]\nevery = \"soon\"\nruleset = \"tae\"\nformat = \"arena\"",
            "[[house_tournaments]]\nevery = \"1h\"\nstarts_at = \"2030-01-01T00:00:00Z\"\nruleset = \"tae\"\nformat = \"arena\"",
            "stand_in_grace = \"later\"",
        ] {
            assert!(Config::from_toml(&args, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("3s").unwrap(), Duration::from_secs(3));
        assert_eq!(parse_duration("1.5").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("fast").is_err());
        assert_eq!(parse_duration("3h").unwrap(), Duration::from_secs(3 * 3600));
        assert!(parse_duration("3d").is_err());
        assert_eq!(parse_duration("1h 30m").unwrap(), Duration::from_secs(5400));
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("25h").is_err(), "a day at most");
    }

    #[test]
    fn passwords_are_not_printed() {
        assert_eq!(
            redact_url("postgres://u:secret@h/db"),
            "postgres://u:***@h/db"
        );
        assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact_url("sqlite://./a.db"), "sqlite://./a.db");
    }

    #[test]
    fn defaults_without_flags_or_file() {
        let config = Config::resolve(&ServeArgs::default()).unwrap();
        assert_eq!(config.data_dir, PathBuf::from("./arbiter-data"));
        assert_eq!(config.http, "127.0.0.1:8080");
        assert_eq!(config.tcp, "127.0.0.1:7000");
        assert_eq!(config.spacegoo.as_deref(), Some("127.0.0.1:6000"));
        let off = ServeArgs {
            spacegoo: Some("off".to_string()),
            ..ServeArgs::default()
        };
        assert_eq!(Config::resolve(&off).unwrap().spacegoo, None);
        assert_eq!(config.qgame.as_deref(), Some("127.0.0.1:45678"));
        assert_eq!(config.qgame_port.signup_period, Duration::from_secs(20));
        assert_eq!(config.database_url, "sqlite://./arbiter-data/arbiter.db");
        assert_eq!(
            config.deadline(game("spacegoo").as_ref()),
            Duration::from_secs(3)
        );
        assert_eq!(
            config.deadline(game("tae").as_ref()),
            Duration::from_secs(60)
        );
        assert_eq!(
            config.deadline(game("qgame").as_ref()),
            Duration::from_secs(6)
        );
        assert_eq!(
            config.deadline(game("spacecrack").as_ref()),
            Duration::from_secs(120)
        );
    }

    #[test]
    fn flags_win_over_the_file_and_the_file_over_defaults() {
        let path = std::env::temp_dir().join(format!("arbiter-config-{}.toml", std::process::id()));
        std::fs::write(
            &path,
            "data = \"/srv/arbiter\"\nhttp = \"0.0.0.0:80\"\nrate = 5.0\nstore_patience = \"5s\"\nnode = \"east\"\nnode_lease = \"10s\"\nconnections_per_address = 512\nhttp_rate = 20.0\ntrusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\"]\n[deadlines]\nqgame = \"2s\"\ntae = \"9s\"\n\"*\" = \"4s\"\n",
        )
        .unwrap();
        let args = ServeArgs {
            config: Some(path.clone()),
            http: Some("127.0.0.1:0".into()),
            deadlines: vec!["tae=150ms".into()],
            ..ServeArgs::default()
        };
        let config = Config::resolve(&args).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(config.data_dir, PathBuf::from("/srv/arbiter"));
        assert_eq!(config.database_url, "sqlite:///srv/arbiter/arbiter.db");
        assert_eq!(config.http, "127.0.0.1:0");
        assert_eq!(config.limits.rate, 5.0);
        assert_eq!(config.store_patience, Duration::from_secs(5));
        assert_eq!(config.node, "east");
        assert_eq!(config.node_lease, Duration::from_secs(10));
        assert_eq!(config.limits.connections_per_address, 512);
        assert_eq!(config.limits.http_rate, 20.0);
        assert_eq!(
            config.limits.http_burst, 200,
            "the default where neither says"
        );
        assert_eq!(
            config.deadline(game("qgame").as_ref()),
            Duration::from_secs(2)
        );
        assert_eq!(
            config.deadline(game("tae").as_ref()),
            Duration::from_millis(150)
        );
        assert_eq!(
            config.deadline(game("spacegoo").as_ref()),
            Duration::from_secs(4)
        );
    }

    /// The README's example file is a real one: every key it shows is read.
    #[test]
    fn the_readmes_configuration_file_is_accepted() {
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
                .unwrap();
        let start = readme.find("```toml\n").expect("a TOML example") + "```toml\n".len();
        let example = &readme[start..];
        let example = &example[..example.find("```").unwrap()];
        let path = std::env::temp_dir().join(format!("arbiter-readme-{}.toml", std::process::id()));
        std::fs::write(&path, example).unwrap();
        let args = ServeArgs {
            config: Some(path.clone()),
            ..ServeArgs::default()
        };
        let config = Config::resolve(&args);
        std::fs::remove_file(&path).unwrap();
        let config = config.unwrap();
        assert_eq!(config.time_bank, Duration::from_secs(30));
        assert_eq!(
            config.deadline(game("qgame").as_ref()),
            Duration::from_secs(6)
        );
        assert_eq!(
            config.deadline(game("tae").as_ref()),
            Duration::from_secs(30)
        );
        assert_eq!(config.limits.rate, 50.0);
        assert_eq!(config.qgame, None);
        assert_eq!(config.store_patience, Duration::from_secs(60));
        assert_eq!(
            (config.node.as_str(), config.node_lease),
            ("local", Duration::from_secs(30))
        );
        assert_eq!(config.limits.connections_per_address, 128);
        assert_eq!(config.nats.as_deref(), Some("nats://127.0.0.1:4222"));
        assert_eq!(
            config.public_url.as_deref(),
            Some("https://arbiter.example.org")
        );
    }

    #[test]
    fn a_public_url_is_checked_and_loses_its_trailing_slash() {
        let given = |url: &str| public_url(Some(url.to_string()));
        assert_eq!(
            given("https://games.example.org/").unwrap().as_deref(),
            Some("https://games.example.org")
        );
        assert_eq!(
            given("http://10.0.0.5:8080").unwrap().as_deref(),
            Some("http://10.0.0.5:8080")
        );
        for bad in ["games.example.org", "ftp://x", "https://", "https://a b"] {
            assert!(given(bad).is_err(), "{bad}");
        }
        assert_eq!(public_url(None).unwrap(), None);
    }

    /// A node of a deployment needs the shared database, and a name NATS subjects can
    /// carry.
    #[test]
    fn a_deployments_node_is_checked() {
        let nats = Some("nats://127.0.0.1:4222".to_string());
        let alone = ServeArgs {
            nats: nats.clone(),
            ..ServeArgs::default()
        };
        let error = Config::resolve(&alone).unwrap_err();
        assert!(format!("{error:#}").contains("PostgreSQL"), "{error:#}");
        for bad in ["east.1", "a b", "*", ">", ""] {
            let args = ServeArgs {
                node: Some(bad.to_string()),
                ..ServeArgs::default()
            };
            assert!(Config::resolve(&args).is_err(), "{bad:?}");
        }
        let joined = ServeArgs {
            nats,
            node: Some("east-1".to_string()),
            database: Some("postgres://postgres@127.0.0.1/arbiter".to_string()),
            ..ServeArgs::default()
        };
        let config = Config::resolve(&joined).unwrap();
        assert_eq!(config.node, "east-1");
        assert!(config.nats.is_some());
    }

    #[test]
    fn bad_settings_are_refused_with_a_reason() {
        for deadlines in [
            vec!["chess=1s"],
            vec!["qgame"],
            vec!["qgame=0s"],
            vec!["tae=soon"],
        ] {
            let args = ServeArgs {
                deadlines: deadlines.iter().map(|s| s.to_string()).collect(),
                ..ServeArgs::default()
            };
            assert!(Config::resolve(&args).is_err(), "{deadlines:?}");
        }
        let path = std::env::temp_dir().join(format!("arbiter-bad-{}.toml", std::process::id()));
        std::fs::write(&path, "colour = \"blue\"\n").unwrap();
        let args = ServeArgs {
            config: Some(path.clone()),
            ..ServeArgs::default()
        };
        let error = Config::resolve(&args).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(format!("{error:#}").contains("colour"), "{error:#}");
    }
}

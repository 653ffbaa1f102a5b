//! Counters, gauges and latency histograms for `/metrics`, kept and rendered by the
//! Prometheus project's client library (`prometheus-client`, OpenMetrics text). Every
//! metric is an atomic: an update on the hot path costs one uncontended add.

use std::sync::Arc;
use std::time::Duration;

use arbiter_store::LogCommits;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::{
    DescriptorEncoder, EncodeCounterValue, EncodeLabelSet, EncodeMetric,
};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Transport {
    transport: &'static str,
}

/// A door a client connects through, for refused connections.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Door {
    door: &'static str,
}

/// The doors, as `connection_refused` names them.
pub const DOORS: [&str; 5] = ["tcp", "ws", "http", "spacegoo", "qgame"];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Ending {
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SignupResult {
    result: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReplaySource {
    source: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorCode {
    code: String,
}

pub struct Metrics {
    registry: Registry,
    connections: Family<Transport, Counter>,
    open: Family<Transport, Gauge>,
    refused: Family<Door, Counter>,
    messages_received: Counter,
    actions_received: Counter,
    matches_started: Counter,
    matches_ended: Family<Ending, Counter>,
    store_failures: Counter,
    errors: Family<ErrorCode, Counter>,
    qgame_signup_results: Family<SignupResult, Counter>,
    replays_served: Family<ReplaySource, Counter>,
    /// Sign-ups the Q-Game port has decided (accepted or refused). A watch as well as
    /// the counter, so a caller can wait for the n-th instead of guessing how long.
    qgame_signups: tokio::sync::watch::Sender<u64>,
    decision_seconds: Histogram,
    log_store_seconds: Histogram,
    /// One pairing of a tournament's free entrants (an arena's wave): the time the
    /// pairing itself takes, without its store write.
    tournament_pairing_seconds: Histogram,
    matches_running: Gauge,
    players_waiting: Gauge,
    tables_open: Gauge,
    tunnels_open: Gauge,
}

/// Gauges read at scrape time from the live state.
pub struct Gauges {
    pub matches_running: usize,
    pub players_waiting: usize,
    pub tables_open: usize,
    /// Ends of port connections carried between this node and another
    /// (`mesh/tunnels.rs`).
    pub tunnels_open: usize,
}

/// Latency buckets from 50 µs to about 1.6 s, doubling: a turn-based server's work
/// ranges from microseconds (a move in memory) to a slow disk's commit.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.000_05, 2.0, 16))
}

impl Default for Metrics {
    /// Metrics of a server whose log writer has written nothing (for tests).
    fn default() -> Self {
        Metrics::new(Arc::default())
    }
}

impl Metrics {
    /// The metrics of a server whose store's log writer keeps `log_commits`.
    pub fn new(log_commits: Arc<LogCommits>) -> Self {
        let mut metrics = Metrics {
            registry: Registry::default(),
            connections: Family::default(),
            open: Family::default(),
            refused: Family::default(),
            messages_received: Counter::default(),
            actions_received: Counter::default(),
            matches_started: Counter::default(),
            matches_ended: Family::default(),
            store_failures: Counter::default(),
            errors: Family::default(),
            qgame_signup_results: Family::default(),
            replays_served: Family::default(),
            qgame_signups: tokio::sync::watch::channel(0).0,
            decision_seconds: latency_histogram(),
            log_store_seconds: latency_histogram(),
            tournament_pairing_seconds: Histogram::new(exponential_buckets(0.000_001, 2.0, 20)),
            matches_running: Gauge::default(),
            players_waiting: Gauge::default(),
            tables_open: Gauge::default(),
            tunnels_open: Gauge::default(),
        };
        // Both labels of a pair show from the start, so a scrape can tell 0 from absent.
        for transport in ["tcp", "ws"] {
            let _ = metrics.connections.get_or_create(&Transport { transport });
            let _ = metrics.open.get_or_create(&Transport { transport });
        }
        for door in DOORS {
            let _ = metrics.refused.get_or_create(&Door { door });
        }
        for status in ["finished", "aborted"] {
            let _ = metrics.matches_ended.get_or_create(&Ending { status });
        }
        for result in ["accepted", "refused"] {
            let _ = metrics
                .qgame_signup_results
                .get_or_create(&SignupResult { result });
        }
        for source in ["cache", "rebuilt"] {
            let _ = metrics
                .replays_served
                .get_or_create(&ReplaySource { source });
        }
        metrics.register();
        metrics
            .registry
            .register_collector(Box::new(LogWriter(log_commits)));
        metrics
    }

    /// Name every metric once, in the registry that renders them. A counter's
    /// exposition name gains `_total`.
    fn register(&mut self) {
        let r = &mut self.registry;
        r.register(
            "arbiter_connections",
            "Client connections accepted",
            self.connections.clone(),
        );
        r.register(
            "arbiter_connections_open",
            "Client connections open now",
            self.open.clone(),
        );
        r.register(
            "arbiter_connections_refused",
            "Connections refused because their address held its share (connections_per_address, http_connections_per_address), by door",
            self.refused.clone(),
        );
        r.register(
            "arbiter_messages_received",
            "Protocol messages received from clients",
            self.messages_received.clone(),
        );
        r.register(
            "arbiter_actions_received",
            "Actions forwarded to referees",
            self.actions_received.clone(),
        );
        r.register(
            "arbiter_matches_started",
            "Matches started",
            self.matches_started.clone(),
        );
        r.register(
            "arbiter_matches_ended",
            "Matches ended, by how",
            self.matches_ended.clone(),
        );
        r.register(
            "arbiter_store_failures",
            "Database writes that failed (log entries, outcomes, aborts)",
            self.store_failures.clone(),
        );
        r.register(
            "arbiter_qgame_signups",
            "Sign-ups on the Q-Game port, by result",
            self.qgame_signup_results.clone(),
        );
        r.register(
            "arbiter_replays_served",
            "Replays served over the API, by whether the cache held them or they were rebuilt from the store",
            self.replays_served.clone(),
        );
        r.register(
            "arbiter_errors_sent",
            "Error messages sent to clients, by code",
            self.errors.clone(),
        );
        r.register(
            "arbiter_decision_seconds",
            "From a remote seat's answer reaching its match to everything that follows from it leaving (log entry stored first, views, prompts, events): the server's share of a decision round trip",
            self.decision_seconds.clone(),
        );
        r.register(
            "arbiter_log_store_seconds",
            "Time to store one log entry, its commit included",
            self.log_store_seconds.clone(),
        );
        r.register(
            "arbiter_tournament_pairing_seconds",
            "Time to pair a tournament's free entrants once (an arena's wave), without writing the pairing",
            self.tournament_pairing_seconds.clone(),
        );
        r.register(
            "arbiter_matches_running",
            "Matches being played now",
            self.matches_running.clone(),
        );
        r.register(
            "arbiter_players_waiting",
            "Players waiting in matchmaking queues",
            self.players_waiting.clone(),
        );
        r.register(
            "arbiter_tables_open",
            "Tables waiting for players",
            self.tables_open.clone(),
        );
        r.register(
            "arbiter_tunnels_open",
            "Port connections carried between this node and the node holding the lobby (one end here)",
            self.tunnels_open.clone(),
        );
    }

    fn transport(transport: &str) -> Transport {
        Transport {
            transport: if transport == "ws" { "ws" } else { "tcp" },
        }
    }

    /// A connection through `door` (one of [`DOORS`]) refused for its address's share.
    /// Counted rather than logged one line each: a flood of connections must not
    /// flood the log.
    pub fn connection_refused(&self, door: &str) {
        let door = Metrics::door(door).unwrap_or(Door { door: "tcp" });
        self.refused.get_or_create(&door).inc();
    }

    /// The label of one of [`DOORS`].
    fn door(door: &str) -> Option<Door> {
        DOORS
            .into_iter()
            .find(|&d| d == door)
            .map(|door| Door { door })
    }

    pub fn connection_opened(&self, transport: &str) {
        let label = Metrics::transport(transport);
        self.connections.get_or_create(&label).inc();
        self.open.get_or_create(&label).inc();
    }

    pub fn connection_closed(&self, transport: &str) {
        self.open
            .get_or_create(&Metrics::transport(transport))
            .dec();
    }

    pub fn message_received(&self) {
        self.messages_received.inc();
    }

    pub fn action_received(&self) {
        self.actions_received.inc();
    }

    /// A tournament paired `waiting` free entrants in `took`.
    pub fn tournament_paired(&self, took: std::time::Duration, waiting: usize) {
        if waiting > 1 {
            self.tournament_pairing_seconds.observe(took.as_secs_f64());
        }
    }

    pub fn match_started(&self) {
        self.matches_started.inc();
    }

    pub fn match_ended(&self, finished: bool) {
        let status = if finished { "finished" } else { "aborted" };
        self.matches_ended.get_or_create(&Ending { status }).inc();
    }

    pub fn store_failure(&self) {
        self.store_failures.inc();
    }

    /// The Q-Game port took a name (`accepted`) or turned a connection away.
    pub fn qgame_signup(&self, accepted: bool) {
        let result = if accepted { "accepted" } else { "refused" };
        self.qgame_signup_results
            .get_or_create(&SignupResult { result })
            .inc();
        self.qgame_signups.send_modify(|n| *n += 1);
    }

    /// A replay served: from the cache of ended matches, or rebuilt from the store.
    pub fn replay_served(&self, from_cache: bool) {
        self.replays_from(from_cache).inc();
    }

    /// Replays served so far from the cache (`true`) or rebuilt (`false`).
    pub fn replays_served(&self, from_cache: bool) -> u64 {
        self.replays_from(from_cache).get()
    }

    fn replays_from(&self, from_cache: bool) -> Counter {
        let source = if from_cache { "cache" } else { "rebuilt" };
        self.replays_served
            .get_or_create(&ReplaySource { source })
            .clone()
    }

    /// Follows the number of Q-Game sign-ups decided so far, accepted or refused.
    pub fn qgame_signups(&self) -> tokio::sync::watch::Receiver<u64> {
        self.qgame_signups.subscribe()
    }

    pub fn error_sent(&self, code: &str) {
        let label = ErrorCode {
            code: code.to_string(),
        };
        self.errors.get_or_create(&label).inc();
    }

    /// Errors sent with `code` so far (reading creates no series).
    pub fn errors_sent(&self, code: &str) -> u64 {
        let label = ErrorCode {
            code: code.to_string(),
        };
        self.errors.get(&label).map_or(0, |counter| counter.get())
    }

    /// Connections refused through `door` so far.
    pub fn connections_refused(&self, door: &str) -> u64 {
        Metrics::door(door)
            .and_then(|door| self.refused.get(&door).map(|c| c.get()))
            .unwrap_or(0)
    }

    /// The exposition text (OpenMetrics), with the gauges read now.
    pub fn render(&self, gauges: &Gauges) -> String {
        let as_gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        self.matches_running.set(as_gauge(gauges.matches_running));
        self.players_waiting.set(as_gauge(gauges.players_waiting));
        self.tables_open.set(as_gauge(gauges.tables_open));
        self.tunnels_open.set(as_gauge(gauges.tunnels_open));
        let mut out = String::new();
        if let Err(error) = encode(&mut out, &self.registry) {
            tracing::error!(%error, "cannot render the metrics");
        }
        out
    }
}

/// The matches' timings and store failures, as the runner reports them.
impl arbiter_runner::MatchInstruments for Metrics {
    fn decision_handled(&self, took: Duration) {
        self.decision_seconds.observe(took.as_secs_f64());
    }

    fn log_stored(&self, took: Duration) {
        self.log_store_seconds.observe(took.as_secs_f64());
    }

    fn store_failed(&self) {
        self.store_failure();
    }
}

/// The store's log writer, read at each scrape: its totals are kept by the store
/// (`arbiter_store::LogCommits`), so they are rendered from there rather than copied.
#[derive(Debug)]
struct LogWriter(Arc<LogCommits>);

impl Collector for LogWriter {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let totals = self.0.totals();
        counter(
            &mut encoder,
            "arbiter_log_commits",
            "Statements the log writer ran; each commits the waiting log entries of many matches together",
            totals.commits,
        )?;
        counter(
            &mut encoder,
            "arbiter_log_entries_committed",
            "Log entries those statements stored (entries over commits: the group commit's batch size)",
            totals.entries,
        )?;
        counter(
            &mut encoder,
            "arbiter_log_folds",
            "Times SQLite's log tail (entries in arrival order) was folded into the log kept by match",
            totals.folds,
        )?;
        counter(
            &mut encoder,
            "arbiter_log_folded_entries",
            "Log entries those folds moved (over the folds: how many entries shared each match's page write)",
            totals.folded,
        )?;
        counter(
            &mut encoder,
            "arbiter_log_busy_seconds",
            "Time the log writer spent committing and folding, summed over its statements. Every move waits for one of its commits: near one second a second on SQLite (one statement at a time), or two on PostgreSQL (two at once), it is the server's ceiling",
            totals.busy.as_secs_f64(),
        )?;
        counter(
            &mut encoder,
            "arbiter_log_fold_seconds",
            "The part of arbiter_log_busy_seconds spent folding SQLite's log tail; appends arriving during a fold wait for it",
            totals.folding.as_secs_f64(),
        )
    }
}

/// One counter whose value is read, not kept, here.
fn counter<N: EncodeCounterValue>(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: N,
) -> Result<(), std::fmt::Error> {
    let counter = ConstCounter::new(value);
    let metric = encoder.encode_descriptor(name, help, None, counter.metric_type())?;
    counter.encode(metric)
}

/// The content type of [`Metrics::render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_runner::MatchInstruments;

    #[test]
    fn renders_openmetrics_text() {
        let metrics = Metrics::default();
        metrics.connection_opened("tcp");
        metrics.connection_opened("ws");
        metrics.connection_closed("ws");
        metrics.error_sent("bad_json");
        metrics.error_sent("bad_json");
        metrics.connection_refused("spacegoo");
        metrics.decision_handled(Duration::from_micros(70));
        metrics.decision_handled(Duration::from_millis(3));
        let text = metrics.render(&Gauges {
            matches_running: 3,
            players_waiting: 1,
            tables_open: 0,
            tunnels_open: 2,
        });
        for line in [
            "arbiter_connections_total{transport=\"tcp\"} 1\n",
            "arbiter_connections_open{transport=\"ws\"} 0\n",
            "arbiter_matches_running 3\n",
            "arbiter_tunnels_open 2\n",
            "arbiter_connections_refused_total{door=\"spacegoo\"} 1\n",
            "arbiter_connections_refused_total{door=\"qgame\"} 0\n",
            "arbiter_store_failures_total 0\n",
            "arbiter_errors_sent_total{code=\"bad_json\"} 2\n",
            "arbiter_matches_ended_total{status=\"aborted\"} 0\n",
            "# TYPE arbiter_matches_started counter\n",
            "# TYPE arbiter_decision_seconds histogram\n",
            "arbiter_decision_seconds_count 2\n",
            // 70 µs falls in the second bucket (≤ 100 µs), 3 ms by 3.2 ms.
            "arbiter_decision_seconds_bucket{le=\"0.0001\"} 1\n",
            "arbiter_decision_seconds_bucket{le=\"0.0032\"} 2\n",
            "arbiter_log_store_seconds_count 0\n",
            "# TYPE arbiter_log_commits counter\n",
            "arbiter_log_commits_total 0\n",
            "arbiter_log_entries_committed_total 0\n",
            "arbiter_log_folds_total 0\n",
            "arbiter_log_folded_entries_total 0\n",
            "arbiter_log_busy_seconds_total 0.0\n",
            "arbiter_log_fold_seconds_total 0.0\n",
            "# EOF\n",
        ] {
            assert!(text.contains(line), "{line:?} missing from:\n{text}");
        }
        assert_eq!(metrics.errors_sent("bad_json"), 2);
    }
}

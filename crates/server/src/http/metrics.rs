//! Counters and gauges for `/metrics`, in the Prometheus text format. Plain atomics: a
//! counter bump on the hot path costs one uncontended add.

use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Default)]
pub struct Metrics {
    connections_tcp: AtomicU64,
    connections_ws: AtomicU64,
    open_tcp: AtomicU64,
    open_ws: AtomicU64,
    messages_received: AtomicU64,
    actions_received: AtomicU64,
    matches_started: AtomicU64,
    matches_finished: AtomicU64,
    matches_aborted: AtomicU64,
    store_failures: AtomicU64,
    errors: Mutex<BTreeMap<String, u64>>,
    qgame_signups_refused: AtomicU64,
    /// Sign-ups the Q-Game port has decided (accepted or refused). A watch, not an
    /// atomic, so a caller can wait for the n-th instead of guessing how long it takes.
    qgame_signups: tokio::sync::watch::Sender<u64>,
}

/// Gauges read at scrape time from the live state.
pub struct Gauges {
    pub matches_running: usize,
    pub players_waiting: usize,
    pub tables_open: usize,
}

impl Metrics {
    pub fn connection_opened(&self, transport: &str) {
        let (total, open) = self.transport(transport);
        total.fetch_add(1, Ordering::Relaxed);
        open.fetch_add(1, Ordering::Relaxed);
    }

    pub fn connection_closed(&self, transport: &str) {
        let (_, open) = self.transport(transport);
        open.fetch_sub(1, Ordering::Relaxed);
    }

    fn transport(&self, transport: &str) -> (&AtomicU64, &AtomicU64) {
        if transport == "ws" {
            (&self.connections_ws, &self.open_ws)
        } else {
            (&self.connections_tcp, &self.open_tcp)
        }
    }

    pub fn message_received(&self) {
        self.messages_received.fetch_add(1, Ordering::Relaxed);
    }

    pub fn action_received(&self) {
        self.actions_received.fetch_add(1, Ordering::Relaxed);
    }

    pub fn match_started(&self) {
        self.matches_started.fetch_add(1, Ordering::Relaxed);
    }

    pub fn match_ended(&self, finished: bool) {
        if finished {
            self.matches_finished.fetch_add(1, Ordering::Relaxed);
        } else {
            self.matches_aborted.fetch_add(1, Ordering::Relaxed);
        }
    }

    pub fn store_failure(&self) {
        self.store_failures.fetch_add(1, Ordering::Relaxed);
    }

    /// The Q-Game port took a name (`accepted`) or turned a connection away.
    pub fn qgame_signup(&self, accepted: bool) {
        if !accepted {
            self.qgame_signups_refused.fetch_add(1, Ordering::Relaxed);
        }
        self.qgame_signups.send_modify(|n| *n += 1);
    }

    /// Follows the number of Q-Game sign-ups decided so far, accepted or refused.
    pub fn qgame_signups(&self) -> tokio::sync::watch::Receiver<u64> {
        self.qgame_signups.subscribe()
    }

    pub fn error_sent(&self, code: &str) {
        let mut errors = self.errors.lock();
        *errors.entry(code.to_string()).or_default() += 1;
    }

    pub fn errors_sent(&self, code: &str) -> u64 {
        let errors = self.errors.lock();
        errors.get(code).copied().unwrap_or(0)
    }

    /// The exposition text.
    pub fn render(&self, gauges: &Gauges) -> String {
        let mut out = String::new();
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        metric(
            &mut out,
            "arbiter_connections_total",
            "counter",
            "Client connections accepted.",
            &[
                ("transport=\"tcp\"", get(&self.connections_tcp)),
                ("transport=\"ws\"", get(&self.connections_ws)),
            ],
        );
        metric(
            &mut out,
            "arbiter_connections_open",
            "gauge",
            "Client connections open now.",
            &[
                ("transport=\"tcp\"", get(&self.open_tcp)),
                ("transport=\"ws\"", get(&self.open_ws)),
            ],
        );
        metric(
            &mut out,
            "arbiter_messages_received_total",
            "counter",
            "Protocol messages received from clients.",
            &[("", get(&self.messages_received))],
        );
        metric(
            &mut out,
            "arbiter_actions_received_total",
            "counter",
            "Actions forwarded to referees.",
            &[("", get(&self.actions_received))],
        );
        metric(
            &mut out,
            "arbiter_matches_started_total",
            "counter",
            "Matches started.",
            &[("", get(&self.matches_started))],
        );
        metric(
            &mut out,
            "arbiter_matches_ended_total",
            "counter",
            "Matches ended, by how.",
            &[
                ("status=\"finished\"", get(&self.matches_finished)),
                ("status=\"aborted\"", get(&self.matches_aborted)),
            ],
        );
        metric(
            &mut out,
            "arbiter_store_failures_total",
            "counter",
            "Database writes that failed (log entries, outcomes, aborts).",
            &[("", get(&self.store_failures))],
        );
        metric(
            &mut out,
            "arbiter_qgame_signups_total",
            "counter",
            "Sign-ups on the Q-Game port, by result.",
            &[
                (
                    "result=\"accepted\"",
                    *self.qgame_signups.borrow() - get(&self.qgame_signups_refused),
                ),
                ("result=\"refused\"", get(&self.qgame_signups_refused)),
            ],
        );
        metric(
            &mut out,
            "arbiter_matches_running",
            "gauge",
            "Matches being played now.",
            &[("", gauges.matches_running as u64)],
        );
        metric(
            &mut out,
            "arbiter_players_waiting",
            "gauge",
            "Players waiting in matchmaking queues.",
            &[("", gauges.players_waiting as u64)],
        );
        metric(
            &mut out,
            "arbiter_tables_open",
            "gauge",
            "Tables waiting for players.",
            &[("", gauges.tables_open as u64)],
        );
        let errors: Vec<(String, u64)> = {
            let errors = self.errors.lock();
            errors
                .iter()
                .map(|(code, n)| (format!("code=\"{code}\""), *n))
                .collect()
        };
        let errors: Vec<(&str, u64)> = errors.iter().map(|(l, n)| (l.as_str(), *n)).collect();
        metric(
            &mut out,
            "arbiter_errors_sent_total",
            "counter",
            "Error messages sent to clients, by code.",
            &errors,
        );
        out
    }
}

fn metric(out: &mut String, name: &str, kind: &str, help: &str, samples: &[(&str, u64)]) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
    for (labels, value) in samples {
        if labels.is_empty() {
            let _ = writeln!(out, "{name} {value}");
        } else {
            let _ = writeln!(out, "{name}{{{labels}}} {value}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_prometheus_text() {
        let metrics = Metrics::default();
        metrics.connection_opened("tcp");
        metrics.connection_opened("ws");
        metrics.connection_closed("ws");
        metrics.error_sent("bad_json");
        metrics.error_sent("bad_json");
        let text = metrics.render(&Gauges {
            matches_running: 3,
            players_waiting: 1,
            tables_open: 0,
        });
        assert!(
            text.contains("arbiter_connections_total{transport=\"tcp\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("arbiter_connections_open{transport=\"ws\"} 0\n"),
            "{text}"
        );
        assert!(text.contains("arbiter_matches_running 3\n"), "{text}");
        assert!(text.contains("arbiter_store_failures_total 0\n"), "{text}");
        assert!(
            text.contains("arbiter_errors_sent_total{code=\"bad_json\"} 2\n"),
            "{text}"
        );
        assert!(text.contains("# TYPE arbiter_matches_started_total counter\n"));
        assert_eq!(metrics.errors_sent("bad_json"), 2);
    }
}

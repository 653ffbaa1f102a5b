//! What a running match reports for the server's metrics: the referee's timings, and
//! its store writer's.

use std::sync::Arc;
use std::time::Duration;

/// Receives the timings and failures of the matches a runner launches. Called on the
/// matches' tasks: keep it cheap and never blocking.
pub trait MatchInstruments: Send + Sync {
    /// See [`arbiter_referee::Instruments::decision_handled`].
    fn decision_handled(&self, took: Duration);
    /// One log entry was stored (its commit included).
    fn log_stored(&self, took: Duration);
    /// A write failed (each attempt counts; the writer retries store faults for a
    /// while, and the failure is logged).
    fn store_failed(&self);
}

/// The referee's share of a [`MatchInstruments`].
pub(crate) struct RefereeInstruments(pub Arc<dyn MatchInstruments>);

impl arbiter_referee::Instruments for RefereeInstruments {
    fn decision_handled(&self, took: Duration) {
        self.0.decision_handled(took);
    }
}

//! How long a match's work takes, reported to whoever runs the referee (the server's
//! `/metrics` histograms). The referee only measures; it keeps no statistics itself.

use std::time::Duration;

/// Receives a match's timings. Called on the match's task: keep it cheap (a histogram
/// observation), never blocking.
pub trait Instruments: Send + Sync {
    /// A remote seat's answer reached the match, and everything that follows from it
    /// (the log entry stored first, then views, prompts and events queued to every
    /// connection) has left: the server's share of a decision's round trip.
    fn decision_handled(&self, took: Duration);
}

//! Running totals of the log's group commits, for `/metrics`.
//!
//! Why: every move of every match waits for its log entry's commit, and the commits are
//! one after another (SQLite has one writer; the log has one batching task; PostgreSQL
//! runs two statements at once, no more). So the log writer is the one stage of a move
//! that cannot spread over cores: once it is busy all the time, more matches only make
//! the batches bigger and every move slower.
//! The time it spends writing, against the time passed, says how close a server is to
//! that ceiling; entries over commits is the batch size that the group commit reached.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Totals since the store was opened. Updated once per commit (three relaxed adds).
#[derive(Debug, Default)]
pub struct LogCommits {
    commits: AtomicU64,
    entries: AtomicU64,
    folds: AtomicU64,
    folded: AtomicU64,
    busy_nanos: AtomicU64,
    fold_nanos: AtomicU64,
}

/// One reading of [`LogCommits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LogCommitTotals {
    /// Statements the log writer ran (a batch that fell back to one statement per
    /// entry counts each).
    pub commits: u64,
    /// Entries those statements stored.
    pub entries: u64,
    /// Times SQLite's log tail was folded into the keyed log (see `log_tail`).
    pub folds: u64,
    /// Entries those folds moved (over `folds`: how many shared each match's page
    /// write, which is what a fold is for).
    pub folded: u64,
    /// Time the log writer spent in its statements and folds, from handing a statement
    /// to the database to its answer, summed over statements: on PostgreSQL, which has
    /// two running at once, up to twice the time passed.
    pub busy: Duration,
    /// The part of `busy` spent folding. A fold holds SQLite's one writer, so every
    /// append that arrives meanwhile waits for it: their length, not only their
    /// number, says what folds add to a move's wait.
    pub folding: Duration,
}

impl LogCommits {
    /// Count one statement that stored `entries` entries in `took`.
    pub(crate) fn record(&self, entries: usize, took: Duration) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.entries.fetch_add(entries as u64, Ordering::Relaxed);
        self.add_busy(took);
    }

    /// Count the time a fold of the log tail took, and the fold itself and the entries
    /// it `moved` if there were any.
    pub(crate) fn record_fold(&self, moved: u64, took: Duration) {
        if moved > 0 {
            self.folds.fetch_add(1, Ordering::Relaxed);
            self.folded.fetch_add(moved, Ordering::Relaxed);
        }
        self.fold_nanos.fetch_add(nanos(took), Ordering::Relaxed);
        self.add_busy(took);
    }

    fn add_busy(&self, took: Duration) {
        self.busy_nanos.fetch_add(nanos(took), Ordering::Relaxed);
    }

    pub fn totals(&self) -> LogCommitTotals {
        LogCommitTotals {
            commits: self.commits.load(Ordering::Relaxed),
            entries: self.entries.load(Ordering::Relaxed),
            folds: self.folds.load(Ordering::Relaxed),
            folded: self.folded.load(Ordering::Relaxed),
            busy: Duration::from_nanos(self.busy_nanos.load(Ordering::Relaxed)),
            folding: Duration::from_nanos(self.fold_nanos.load(Ordering::Relaxed)),
        }
    }
}

fn nanos(took: Duration) -> u64 {
    u64::try_from(took.as_nanos()).unwrap_or(u64::MAX)
}

impl LogCommitTotals {
    /// What was added between `earlier` and this reading.
    pub fn since(self, earlier: LogCommitTotals) -> LogCommitTotals {
        LogCommitTotals {
            commits: self.commits.saturating_sub(earlier.commits),
            entries: self.entries.saturating_sub(earlier.entries),
            folds: self.folds.saturating_sub(earlier.folds),
            folded: self.folded.saturating_sub(earlier.folded),
            busy: self.busy.saturating_sub(earlier.busy),
            folding: self.folding.saturating_sub(earlier.folding),
        }
    }
}

/// Readings of several stores (the nodes of one deployment), added together.
impl std::ops::Add for LogCommitTotals {
    type Output = LogCommitTotals;

    fn add(self, other: LogCommitTotals) -> LogCommitTotals {
        LogCommitTotals {
            commits: self.commits + other.commits,
            entries: self.entries + other.entries,
            folds: self.folds + other.folds,
            folded: self.folded + other.folded,
            busy: self.busy + other.busy,
            folding: self.folding + other.folding,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_is_counted_apart_within_the_busy_time() {
        let commits = LogCommits::default();
        commits.record(3, Duration::from_millis(2));
        let before = commits.totals();
        commits.record_fold(40, Duration::from_millis(5));
        commits.record_fold(0, Duration::from_millis(1));
        commits.record(1, Duration::from_millis(1));
        let totals = commits.totals();
        assert_eq!(totals.busy, Duration::from_millis(9));
        assert_eq!(totals.folding, Duration::from_millis(6));
        assert_eq!(totals.folds, 1, "a fold that moved nothing is not a fold");
        assert_eq!(totals.folded, 40);
        let since = totals.since(before);
        assert_eq!((since.commits, since.entries, since.folds), (1, 1, 1));
        assert_eq!(since.folded, 40);
        assert_eq!(since.busy, Duration::from_millis(7));
        assert_eq!(since.folding, Duration::from_millis(6));
    }
}

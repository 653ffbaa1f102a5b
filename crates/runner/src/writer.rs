//! The match's store writer: every log entry the moment the referee accepts it (so a
//! killed server keeps it), then the outcome with its rating changes, or the abort. One
//! task per match keeps the entries in order and signals each event once written.
//!
//! A store fault (the database unreachable or restarting, locked, its disk full) is
//! retried, more slowly each time, for up to the match's patience; the referee tells
//! nobody anything meanwhile, and its clocks stand still. A store that comes back in
//! time costs the match only the wait. One that does not makes the writer give up:
//! the referee ends the match as aborted, told to everyone, and the log keeps the
//! entries stored before (never one past a gap). Marking the match aborted is retried
//! in the background for as long as the store stays down (the match itself is over at
//! once), so a store that comes back later holds the match as aborted without a
//! restart; a restart marks it so in any case.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_referee::{PendingEvent, RecordEvent, Unstored};
use arbiter_store::{FinishedMatch, Store, StoreError};
use tokio::sync::mpsc;

use crate::instruments::MatchInstruments;

/// How long a match waits for a failing store before it is given up (aborted):
/// longer than a database restart takes, shorter than players wait for a stuck game.
pub const DEFAULT_STORE_PATIENCE: Duration = Duration::from_secs(60);

/// The first wait before trying a failed write again; each retry waits twice as long,
/// up to [`LONGEST_RETRY_WAIT`].
const FIRST_RETRY_WAIT: Duration = Duration::from_millis(50);
const LONGEST_RETRY_WAIT: Duration = Duration::from_secs(2);

/// How the match ended, as the store took it.
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    /// Finished, outcome stored; the rating changes of a rated match.
    Finished(FinishedMatch),
    /// Finished, but the store refused the outcome; the ratings did not move.
    Unrecorded { why: String },
    /// Stopped without an outcome (marked aborted, its log kept).
    Aborted { reason: String },
}

/// The sink a referee writes to, and the task that stores what arrives. The task ends
/// with the match's end as stored.
pub(crate) fn spawn(
    store: Store,
    patience: Duration,
    instruments: Option<Arc<dyn MatchInstruments>>,
) -> (
    mpsc::UnboundedSender<PendingEvent>,
    tokio::task::JoinHandle<Recorded>,
) {
    let (sender, mut events) = mpsc::unbounded_channel::<PendingEvent>();
    let task = tokio::spawn(async move {
        let mut writer = Writer {
            store,
            patience,
            instruments,
            given_up: None,
        };
        let mut ended = None;
        while let Some((event, stored)) = events.recv().await {
            let started = Instant::now();
            let entry = matches!(event, RecordEvent::Entry { .. });
            let (result, end) = writer.persist(event).await;
            if let Some(end) = end {
                ended = Some(end);
            }
            if let (true, Ok(()), Some(instruments)) = (entry, &result, &writer.instruments) {
                instruments.log_stored(started.elapsed());
            }
            // Written, or given up (the referee then aborts the match): it may go on.
            let _ = stored.send(result);
        }
        ended.unwrap_or_else(|| Recorded::Aborted {
            reason: "the referee stopped without a result".to_string(),
        })
    });
    (sender, task)
}

#[derive(Clone)]
struct Writer {
    store: Store,
    patience: Duration,
    instruments: Option<Arc<dyn MatchInstruments>>,
    /// Why an event was given up: every later entry or outcome is refused with it
    /// unwritten, so the stored log never skips an entry.
    given_up: Option<Unstored>,
}

impl Writer {
    /// Store one event: whether it was stored, and the match's end when it is one.
    async fn persist(&mut self, event: RecordEvent) -> (Result<(), Unstored>, Option<Recorded>) {
        match event {
            // The match row was created before the referee started (its id is the match id).
            RecordEvent::Started { .. } => (Ok(()), None),
            RecordEvent::Entry {
                match_id,
                index,
                entry,
            } => {
                if let Some(unstored) = &self.given_up {
                    return (Err(unstored.clone()), None);
                }
                let (store, entry) = (&self.store, &entry);
                let written = self
                    .retrying(
                        match_id,
                        "a log entry",
                        Some(self.patience),
                        |retry| async move {
                            match store.append_log(match_id, index, entry).await {
                                // A retry finds its own entry stored: the earlier attempt
                                // committed but its answer was lost with the connection
                                // (one writer per match, so the entry there is this one).
                                Err(StoreError::LogOutOfOrder { expected, .. })
                                    if retry && expected == index as u64 + 1 =>
                                {
                                    Ok(())
                                }
                                other => other,
                            }
                        },
                    )
                    .await;
                (self.give_up_on(written), None)
            }
            RecordEvent::Finished { match_id, record } => {
                if let Some(unstored) = &self.given_up {
                    return (Err(unstored.clone()), None);
                }
                let Some(outcome) = record.outcome.as_ref() else {
                    self.failed();
                    tracing::error!(match_id, "a finished match came without an outcome");
                    let why = "the record has no outcome".to_string();
                    return (
                        Err(Unstored(why.clone())),
                        Some(Recorded::Unrecorded { why }),
                    );
                };
                let store = &self.store;
                let finished = self
                    .retrying(match_id, "the outcome", Some(self.patience), |_| {
                        store.finish_match(match_id, outcome, record.log.len())
                    })
                    .await;
                match finished {
                    Ok(finished) => {
                        tracing::info!(
                            match_id,
                            summary = %outcome.summary,
                            moves = record.log.len(),
                            rating_changes = finished.rating_changes.len(),
                            "match finished"
                        );
                        (Ok(()), Some(Recorded::Finished(finished)))
                    }
                    Err(error) => {
                        let why = error.to_string();
                        // Not stored, so not told: the referee aborts the match instead,
                        // and its `Aborted` event says how it ended.
                        (
                            self.give_up_on::<()>(Err(error)),
                            Some(Recorded::Unrecorded { why }),
                        )
                    }
                }
            }
            RecordEvent::Aborted { match_id, reason } => {
                let marked = match self.store.abort_match(match_id, &reason).await {
                    Err(error) if error.is_transient() => {
                        // The match is over either way: the players are told now, and
                        // the mark follows whenever the store comes back.
                        self.failed();
                        tracing::warn!(match_id, %error, "cannot mark a match aborted yet; trying again in the background");
                        let writer = self.clone();
                        let later = reason.clone();
                        tokio::spawn(async move {
                            let store = &writer.store;
                            let later = &later;
                            let _ = writer
                                .retrying(match_id, "the abort", None, |_| {
                                    store.abort_match(match_id, later)
                                })
                                .await;
                        });
                        Err(Unstored(describe(&error)))
                    }
                    Err(error) => {
                        self.failed();
                        tracing::error!(match_id, %error, "cannot mark a match aborted");
                        Err(Unstored(describe(&error)))
                    }
                    Ok(()) => Ok(()),
                };
                (marked, Some(Recorded::Aborted { reason }))
            }
        }
    }

    /// `attempt` until it succeeds, fails for a reason retrying cannot mend, or
    /// `patience` (from the first failure; `None`: for ever) runs out. `attempt` is told
    /// whether it is a retry.
    async fn retrying<T, F, Fut>(
        &self,
        match_id: i64,
        what: &str,
        patience: Option<Duration>,
        mut attempt: F,
    ) -> Result<T, StoreError>
    where
        F: FnMut(bool) -> Fut,
        Fut: Future<Output = Result<T, StoreError>>,
    {
        let first_failure = Instant::now();
        let mut wait = FIRST_RETRY_WAIT;
        let mut retries = 0u32;
        loop {
            let error = match attempt(retries > 0).await {
                Ok(done) => {
                    if retries > 0 {
                        tracing::info!(match_id, retries, "the store took {what} after all");
                    }
                    return Ok(done);
                }
                Err(error) => error,
            };
            self.failed();
            let out_of_patience = patience.is_some_and(|p| first_failure.elapsed() >= p);
            if !error.is_transient() || out_of_patience {
                tracing::error!(match_id, retries, %error, "cannot store {what}");
                return Err(error);
            }
            if retries == 0 {
                tracing::warn!(match_id, %error, "cannot store {what}; trying again");
            }
            retries += 1;
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(LONGEST_RETRY_WAIT);
        }
    }

    /// Remember a write given up on, so nothing is written past it.
    fn give_up_on<T>(&mut self, written: Result<T, StoreError>) -> Result<(), Unstored> {
        match written {
            Ok(_) => Ok(()),
            Err(error) => {
                let unstored = Unstored(describe(&error));
                self.given_up = Some(unstored.clone());
                Err(unstored)
            }
        }
    }

    fn failed(&self) {
        if let Some(instruments) = &self.instruments {
            instruments.store_failed();
        }
    }
}

/// What players are told of a store failure: its kind, not the database's own words
/// (which may name tables, files or addresses).
fn describe(error: &StoreError) -> String {
    if error.is_transient() {
        "the server's database stayed unavailable".to_string()
    } else {
        "the server's database refused it".to_string()
    }
}

//! The match's store writer: every log entry the moment the referee accepts it (so a
//! killed server keeps it), then the outcome with its rating changes, or the abort. One
//! task per match keeps the entries in order and signals each event once written.
//!
//! Entries are queued in the store as they come, without waiting for the one before to
//! be committed (the store writes one caller's entries in order, and never one past an
//! entry that did not go in): the entries of a sealed round, which the referee takes
//! one after the other without telling anyone anything in between, then share one
//! commit instead of waiting for one each. The outcome and the abort wait for every
//! entry before them.
//!
//! A store fault (the database unreachable or restarting, locked, its disk full) is
//! retried, more slowly each time, for up to the match's patience; the referee tells
//! nobody anything meanwhile, and its clocks stand still. A store that comes back in
//! time costs the match only the wait. One that does not makes the writer give up:
//! the referee ends the match as aborted, told to everyone, and the log keeps the
//! entries stored before (never one past a gap). Marking the match aborted is retried
//! in the background for as long as the store stays down (the match itself is over at
//! once), so a store that comes back later holds the match as aborted without a
//! restart. If it never could, the match is still `running` in the store, and the next
//! start of its node goes on with it from its log.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arbiter_engine::LogEntry;
use arbiter_referee::{PendingEvent, RecordEvent, StoredSignal, Unstored};
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
        let mut in_flight = VecDeque::new();
        loop {
            let (event, stored) = tokio::select! {
                biased;
                committed = oldest(&mut in_flight) => {
                    writer.settle_oldest(&mut in_flight, committed).await;
                    continue;
                }
                event = events.recv() => match event {
                    Some(event) => *event,
                    None => break,
                },
            };
            let (event, stored) = match writer.queue(event, stored).await {
                Ok(queued) => {
                    in_flight.push_back(queued);
                    continue;
                }
                Err(not_an_entry) => not_an_entry,
            };
            // The outcome or the abort: every entry before it first.
            writer.settle_all(&mut in_flight).await;
            let (result, end) = writer.persist(event).await;
            if let Some(end) = end {
                ended = Some(end);
            }
            // Written, or given up (the referee then aborts the match): it may go on.
            let _ = stored.send(result);
        }
        writer.settle_all(&mut in_flight).await;
        ended.unwrap_or_else(|| Recorded::Aborted {
            reason: "the referee stopped without a result".to_string(),
        })
    });
    (sender, task)
}

/// A log entry queued in the store whose commit is not yet known.
struct InFlight {
    match_id: i64,
    index: usize,
    entry: LogEntry,
    committed: Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send>>,
    received: Instant,
    stored: StoredSignal,
}

/// The oldest entry's commit (never, while none is in flight).
async fn oldest(in_flight: &mut VecDeque<InFlight>) -> Result<(), StoreError> {
    match in_flight.front_mut() {
        Some(entry) => entry.committed.as_mut().await,
        None => std::future::pending().await,
    }
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
    /// Queue a log entry in the store (not waiting for its commit); any other event,
    /// or an entry after one given up on, comes back to be handled in order.
    async fn queue(
        &mut self,
        event: RecordEvent,
        stored: StoredSignal,
    ) -> Result<InFlight, (RecordEvent, StoredSignal)> {
        let (match_id, index, entry) = match event {
            RecordEvent::Entry {
                match_id,
                index,
                entry,
            } if self.given_up.is_none() => (match_id, index, entry),
            other => return Err((other, stored)),
        };
        let committed: Pin<Box<dyn Future<Output = Result<(), StoreError>> + Send>> =
            match self.store.queue_log(match_id, index, &entry).await {
                Ok(queued) => Box::pin(queued.stored()),
                // Not even queued (the store is closing, the entry unwritable): the
                // error is settled, with retries, as a failed commit is.
                Err(error) => Box::pin(std::future::ready(Err(error))),
            };
        Ok(InFlight {
            match_id,
            index,
            entry,
            committed,
            received: Instant::now(),
            stored,
        })
    }

    /// The oldest entry in flight was `committed` (or not): signal it. If it failed,
    /// every later one in flight failed with it (the store writes nothing past a gap),
    /// and all are settled in order, retrying.
    async fn settle_oldest(
        &mut self,
        in_flight: &mut VecDeque<InFlight>,
        committed: Result<(), StoreError>,
    ) {
        let Some(entry) = in_flight.pop_front() else {
            return;
        };
        match committed {
            Ok(()) => self.signal_stored(entry),
            Err(error) => {
                self.failed();
                tracing::warn!(match_id = entry.match_id, %error, "cannot store a log entry; trying again");
                self.settle_retrying(entry, error.is_transient()).await;
                while let Some(mut later) = in_flight.pop_front() {
                    match later.committed.as_mut().await {
                        Ok(()) => self.signal_stored(later),
                        Err(error) => self.settle_retrying(later, error.is_transient()).await,
                    }
                }
            }
        }
    }

    /// Wait for every entry in flight, in order.
    async fn settle_all(&mut self, in_flight: &mut VecDeque<InFlight>) {
        while !in_flight.is_empty() {
            let committed = oldest(in_flight).await;
            self.settle_oldest(in_flight, committed).await;
        }
    }

    fn signal_stored(&self, entry: InFlight) {
        if let Some(instruments) = &self.instruments {
            instruments.log_stored(entry.received.elapsed());
        }
        let _ = entry.stored.send(Ok(()));
    }

    /// An entry whose queued write did not go in: append it again, with the usual
    /// patience, unless an earlier one was given up on. `maybe_written`: its write
    /// failed in a way that may have committed it all the same (a lost answer).
    async fn settle_retrying(&mut self, entry: InFlight, maybe_written: bool) {
        let result = self
            .append_entry(entry.match_id, entry.index, &entry.entry, maybe_written)
            .await;
        match result {
            Ok(()) => self.signal_stored(entry),
            Err(unstored) => {
                let _ = entry.stored.send(Err(unstored));
            }
        }
    }

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
                let appended = self.append_entry(match_id, index, &entry, false).await;
                (appended, None)
            }
            RecordEvent::StandIn {
                match_id,
                seat,
                step,
                bot,
            } => {
                if let Some(unstored) = &self.given_up {
                    return (Err(unstored.clone()), None);
                }
                let store = &self.store;
                let bot = bot.as_deref();
                let written = self
                    .retrying(
                        match_id,
                        "a stand-in",
                        Some(self.patience),
                        |_| async move {
                            match bot {
                                Some(bot) => store.stand_in_began(match_id, seat, bot, step).await,
                                None => store.stand_in_ended(match_id, seat, step).await,
                            }
                        },
                    )
                    .await;
                (self.give_up_on(written), None)
            }
            RecordEvent::Finished {
                match_id,
                outcome,
                entries,
            } => {
                if let Some(unstored) = &self.given_up {
                    return (Err(unstored.clone()), None);
                }
                let Some(outcome) = outcome.as_ref() else {
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
                        store.finish_match(match_id, outcome, entries)
                    })
                    .await;
                match finished {
                    Ok(finished) => {
                        tracing::info!(
                            match_id,
                            summary = %outcome.summary,
                            moves = entries,
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

    /// Append log entry `index`, retrying with the match's patience. `tried`: a write of
    /// it was made before and may have committed though it did not say so.
    async fn append_entry(
        &mut self,
        match_id: i64,
        index: usize,
        entry: &LogEntry,
        tried: bool,
    ) -> Result<(), Unstored> {
        if let Some(unstored) = &self.given_up {
            return Err(unstored.clone());
        }
        let store = &self.store;
        let written = self
            .retrying(
                match_id,
                "a log entry",
                Some(self.patience),
                |retry| async move {
                    match store.append_log(match_id, index, entry).await {
                        // A retry finds its own entry stored: the earlier attempt
                        // committed but its answer was lost with the connection (one
                        // writer per match, so the entry there is this one, and any
                        // after it are its own later ones).
                        Err(StoreError::LogOutOfOrder { expected, .. })
                            if (retry || tried) && expected > index as u64 =>
                        {
                            Ok(())
                        }
                        other => other,
                    }
                },
            )
            .await;
        self.give_up_on(written)
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

#[cfg(test)]
mod tests {
    use arbiter_store::{NewMatch, SeatRecord};
    use serde_json::json;
    use tokio::sync::oneshot;

    use super::*;

    async fn store_with_a_match() -> (tempfile::TempDir, Store, i64) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open_data_dir(dir.path()).await.expect("open");
        let seat = |name: &str| SeatRecord {
            name: name.to_string(),
            account_id: None,
            bot: None,
        };
        let new = NewMatch {
            ruleset: "nim".to_string(),
            config: json!({}),
            seed: 1,
            initial_digest: String::new(),
            seats: vec![seat("ann"), seat("bob")],
            rating: None,
            terms: None,
            tournament_game: None,
        };
        let id = store.create_match(&new).await.expect("create");
        (dir, store, id)
    }

    fn entry(i: usize) -> LogEntry {
        LogEntry::Act {
            seat: i % 2,
            action: json!(i),
            digest: String::new(),
        }
    }

    /// Hand the writer entries `indices` of match `id` at once, before any is stored;
    /// their answers in order.
    async fn hand_over(
        sink: &mpsc::UnboundedSender<PendingEvent>,
        id: i64,
        indices: &[usize],
    ) -> Vec<Result<(), Unstored>> {
        let mut answers = Vec::new();
        for &index in indices {
            let (done, answer) = oneshot::channel();
            let event = RecordEvent::Entry {
                match_id: id,
                index,
                entry: entry(index),
            };
            sink.send(Box::new((event, done))).expect("the writer runs");
            answers.push(answer);
        }
        let mut results = Vec::new();
        for answer in answers {
            results.push(answer.await.expect("answered"));
        }
        results
    }

    async fn stored_log(store: &Store, id: i64) -> Vec<LogEntry> {
        store
            .match_record(id)
            .await
            .expect("read")
            .expect("exists")
            .log
    }

    #[tokio::test]
    async fn entries_handed_over_at_once_are_stored_in_order() {
        let (_dir, store, id) = store_with_a_match().await;
        let (sink, recorded) = spawn(store.clone(), DEFAULT_STORE_PATIENCE, None);
        let results = hand_over(&sink, id, &[0, 1, 2, 3, 4]).await;
        assert!(results.iter().all(Result::is_ok), "{results:?}");
        let expected: Vec<LogEntry> = (0..5).map(entry).collect();
        assert_eq!(stored_log(&store, id).await, expected);
        drop(sink);
        assert!(matches!(
            recorded.await.expect("the writer ends"),
            Recorded::Aborted { .. }
        ));
        store.close().await;
    }

    /// An entry the store refuses is given up on, and so is every entry handed over
    /// after it, though they were queued before the refusal was known: the stored log
    /// never has a gap or an entry past one.
    #[tokio::test]
    async fn entries_after_a_refused_one_are_given_up_too() {
        let (_dir, store, id) = store_with_a_match().await;
        let (sink, _recorded) = spawn(store.clone(), DEFAULT_STORE_PATIENCE, None);
        let results = hand_over(&sink, id, &[0, 1, 3, 4]).await;
        assert!(results[0].is_ok() && results[1].is_ok(), "{results:?}");
        assert!(results[2].is_err() && results[3].is_err(), "{results:?}");
        assert_eq!(stored_log(&store, id).await, vec![entry(0), entry(1)]);
        // Given up for good: a later entry, even the right one, is refused unwritten.
        assert!(hand_over(&sink, id, &[2]).await[0].is_err());
        assert_eq!(stored_log(&store, id).await.len(), 2);
        store.close().await;
    }
}

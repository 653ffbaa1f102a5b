//! The match's store writer: every log entry the moment the referee accepts it (so a
//! killed server keeps it), then the outcome with its rating changes, or the abort. One
//! task per match keeps the entries in order and signals each event once written.

use std::sync::Arc;
use std::time::Instant;

use arbiter_referee::{PendingEvent, RecordEvent};
use arbiter_store::{FinishedMatch, Store};
use tokio::sync::mpsc;

use crate::instruments::MatchInstruments;

/// How the match ended, as the store took it.
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    /// Finished, outcome stored; the rating changes of a rated match.
    Finished(FinishedMatch),
    /// Finished, but the store could not take the outcome; the ratings did not move.
    Unrecorded { why: String },
    /// Stopped without an outcome (marked aborted, its log kept).
    Aborted { reason: String },
}

/// The sink a referee writes to, and the task that stores what arrives. The task ends
/// with the match's end as stored.
pub(crate) fn spawn(
    store: Store,
    instruments: Option<Arc<dyn MatchInstruments>>,
) -> (
    mpsc::UnboundedSender<PendingEvent>,
    tokio::task::JoinHandle<Recorded>,
) {
    let (sender, mut events) = mpsc::unbounded_channel::<PendingEvent>();
    let task = tokio::spawn(async move {
        let failed = || {
            if let Some(instruments) = &instruments {
                instruments.store_failed();
            }
        };
        let mut ended = None;
        while let Some((event, stored)) = events.recv().await {
            let started = Instant::now();
            let entry = matches!(event, RecordEvent::Entry { .. });
            if let Some(end) = persist(&store, &failed, event).await {
                ended = Some(end);
            }
            if let (true, Some(instruments)) = (entry, &instruments) {
                instruments.log_stored(started.elapsed());
            }
            // Written (or its failure logged and counted): the referee may announce it.
            let _ = stored.send(());
        }
        ended.unwrap_or_else(|| Recorded::Aborted {
            reason: "the referee stopped without a result".to_string(),
        })
    });
    (sender, task)
}

/// Store one event; the match's end when it is one.
async fn persist(store: &Store, failed: &impl Fn(), event: RecordEvent) -> Option<Recorded> {
    match event {
        // The match row was created before the referee started (its id is the match id).
        RecordEvent::Started { .. } => None,
        RecordEvent::Entry {
            match_id,
            index,
            entry,
        } => {
            if let Err(error) = store.append_log(match_id, index, &entry).await {
                failed();
                tracing::error!(match_id, index, %error, "cannot store a log entry");
            }
            None
        }
        RecordEvent::Finished { match_id, record } => {
            let Some(outcome) = record.outcome.as_ref() else {
                failed();
                tracing::error!(match_id, "a finished match came without an outcome");
                return Some(Recorded::Unrecorded {
                    why: "the record has no outcome".to_string(),
                });
            };
            Some(match store.finish_match(match_id, outcome).await {
                Ok(finished) => {
                    tracing::info!(
                        match_id,
                        summary = %outcome.summary,
                        moves = record.log.len(),
                        rating_changes = finished.rating_changes.len(),
                        "match finished"
                    );
                    Recorded::Finished(finished)
                }
                Err(error) => {
                    failed();
                    tracing::error!(match_id, %error, "cannot store a match's outcome");
                    Recorded::Unrecorded {
                        why: error.to_string(),
                    }
                }
            })
        }
        RecordEvent::Aborted { match_id, reason } => {
            if let Err(error) = store.abort_match(match_id, &reason).await {
                failed();
                tracing::error!(match_id, %error, "cannot mark a match aborted");
            }
            Some(Recorded::Aborted { reason })
        }
    }
}

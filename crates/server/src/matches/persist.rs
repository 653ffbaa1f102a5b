//! Writing a match to the store as the referee plays it: every log entry the moment it
//! is accepted (so a killed server keeps it), then the outcome with the rating changes,
//! or the abort. One writer task per match keeps its entries in order, and signals each
//! event once it is written: the referee tells nobody anything before that.

use std::sync::Arc;

use arbiter_referee::{PendingEvent, RecordEvent};
use arbiter_store::Store;
use tokio::sync::mpsc;

use crate::http::metrics::Metrics;

/// The channel a referee's sink writes to; the receiving task persists.
pub fn writer(
    store: Store,
    metrics: Arc<Metrics>,
) -> (
    mpsc::UnboundedSender<PendingEvent>,
    tokio::task::JoinHandle<()>,
) {
    let (sender, mut events) = mpsc::unbounded_channel::<PendingEvent>();
    let task = tokio::spawn(async move {
        while let Some((event, stored)) = events.recv().await {
            persist(&store, &metrics, event).await;
            // Written (or its failure logged and counted): the referee may announce it.
            let _ = stored.send(());
        }
    });
    (sender, task)
}

async fn persist(store: &Store, metrics: &Metrics, event: RecordEvent) {
    match event {
        // The match row was created before the referee started (its id is the match id).
        RecordEvent::Started { .. } => {}
        RecordEvent::Entry {
            match_id,
            index,
            entry,
        } => {
            if let Err(error) = store.append_log(match_id, index, &entry).await {
                metrics.store_failure();
                tracing::error!(match_id, index, %error, "cannot store a log entry");
            }
        }
        RecordEvent::Finished { match_id, record } => {
            let Some(outcome) = record.outcome.as_ref() else {
                tracing::error!(match_id, "a finished match came without an outcome");
                return;
            };
            match store.finish_match(match_id, outcome).await {
                Ok(finished) => {
                    tracing::info!(
                        match_id,
                        summary = %outcome.summary,
                        moves = record.log.len(),
                        rating_changes = finished.rating_changes.len(),
                        "match finished"
                    );
                }
                Err(error) => {
                    metrics.store_failure();
                    tracing::error!(match_id, %error, "cannot store a match's outcome");
                }
            }
        }
        RecordEvent::Aborted { match_id, reason } => {
            if let Err(error) = store.abort_match(match_id, &reason).await {
                metrics.store_failure();
                tracing::error!(match_id, %error, "cannot mark a match aborted");
            }
        }
    }
}

//! One server among several sharing a database: it writes a heartbeat every third of
//! the lease, and ends the running matches of any server whose heartbeat is older than
//! the lease (`Store::abort_matches_of_silent_nodes`), so a server that died does not
//! leave its matches running for ever. A single server does the same harmlessly.

use std::time::Duration;

use arbiter_store::Store;
use tokio_util::sync::CancellationToken;

/// Heartbeat and sweep until `shutdown`.
pub async fn keep_alive(store: Store, lease: Duration, shutdown: CancellationToken) {
    let mut clock = tokio::time::interval(lease / 3);
    clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = clock.tick() => {}
        }
        if let Err(error) = store.heartbeat().await {
            tracing::warn!(%error, "cannot write this server's heartbeat");
            continue;
        }
        match store.abort_matches_of_silent_nodes(lease).await {
            Ok(0) => {}
            Ok(ended) => tracing::warn!(
                matches = ended,
                "ended the running matches of a server that stopped answering"
            ),
            Err(error) => tracing::warn!(%error, "cannot check the other servers' heartbeats"),
        }
    }
}

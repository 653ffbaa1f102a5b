//! One server among several sharing a database: it writes a heartbeat every third of
//! the lease, and takes over the running matches of any server whose heartbeat is
//! older than the lease (`Store::take_over_matches_of_silent_nodes`), going on with
//! each from its stored log (`Hub::resume_matches`, the one path every resumption
//! takes); their players come back to any node and resume their seats. A match whose
//! log cannot be continued is marked aborted with the reason, its log kept. The silent node's
//! unfinished tournaments are taken the same way, and their directors go on here from
//! the store. A single server does the same harmlessly (there is nobody else's match to
//! take). What another node asks of this one is answered in `answers.rs`.

pub mod answers;

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::hub::Hub;

/// Now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| {
            i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
        })
}

/// How long ago `then` (Unix milliseconds) was.
pub fn down_since(then: i64) -> std::time::Duration {
    std::time::Duration::from_millis(u64::try_from(now_ms().saturating_sub(then)).unwrap_or(0))
}

/// Heartbeat and sweep until `shutdown`.
pub async fn keep_alive(hub: Arc<Hub>, shutdown: CancellationToken) {
    let lease = hub.config.node_lease;
    let mut clock = tokio::time::interval(lease / 3);
    clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = clock.tick() => {}
            _ = hub.sweep_now.notified() => {}
        }
        if let Err(error) = hub.store.heartbeat(hub.started_at).await {
            tracing::warn!(%error, "cannot write this server's heartbeat");
            continue;
        }
        hub.recover_stranded().await;
        // When the silent nodes last gave a sign of life: how long their matches were down.
        let silent_since = hub.store.silent_since(lease).await.ok().flatten();
        let taken = match hub.store.take_over_matches_of_silent_nodes(lease).await {
            Ok(taken) => taken,
            Err(error) => {
                tracing::warn!(%error, "cannot check the other servers' heartbeats");
                continue;
            }
        };
        if !taken.is_empty() {
            let down = down_since(silent_since.unwrap_or_else(now_ms));
            let count = taken.len();
            let report = hub.resume_matches(taken, down).await;
            tracing::warn!(
                count,
                resumed = report.resumed,
                failed = report.failed,
                "took over the matches of a node that stopped answering"
            );
            hub.tell_nodes_of_resumed_seats(&report).await;
        }
        // After the matches: their directors find the taken matches running here.
        take_over_tournaments(&hub, lease).await;
    }
}

/// Take over the open and running tournaments of silent nodes and direct them here.
/// Their games whose matches were taken over go on; those whose matches were lost are
/// played again (see the director).
async fn take_over_tournaments(hub: &Arc<Hub>, lease: std::time::Duration) {
    match hub.store.take_over_tournaments_of_silent_nodes(lease).await {
        Ok(taken) => {
            for id in taken {
                tracing::info!(tournament = id, "took over a silent node's tournament");
                crate::tournaments::director::spawn(hub, id);
            }
        }
        Err(error) => tracing::warn!(%error, "cannot take over the silent nodes' tournaments"),
    }
}

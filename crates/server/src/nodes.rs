//! One server among several sharing a database: it writes a heartbeat every third of
//! the lease, and takes over the running matches of any server whose heartbeat is
//! older than the lease (`Store::take_over_matches_of_silent_nodes`), going on with
//! each from its stored log; their players come back to any node and resume their
//! seats. A match that cannot go on is marked aborted, its log kept. The silent node's
//! unfinished tournaments are taken the same way, and their directors go on here from
//! the store. A single server does the same harmlessly (there is nobody else's match to
//! take).

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::hub::Hub;

/// Heartbeat and sweep until `shutdown`.
pub async fn keep_alive(hub: Arc<Hub>, shutdown: CancellationToken) {
    let lease = hub.config.node_lease;
    let mut clock = tokio::time::interval(lease / 3);
    clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => return,
            _ = clock.tick() => {}
        }
        if let Err(error) = hub.store.heartbeat(hub.started_at).await {
            tracing::warn!(%error, "cannot write this server's heartbeat");
            continue;
        }
        hub.recover_stranded().await;
        let taken = match hub.store.take_over_matches_of_silent_nodes(lease).await {
            Ok(taken) => taken,
            Err(error) => {
                tracing::warn!(%error, "cannot check the other servers' heartbeats");
                continue;
            }
        };
        for match_id in taken {
            if let Err(refusal) = hub.take_over(match_id).await {
                tracing::error!(match_id, reason = %refusal.message, "a match taken over could not go on");
                let reason = format!(
                    "{} ({})",
                    arbiter_store::ABORTED_BY_SILENT_NODE,
                    refusal.message
                );
                if let Err(error) = hub.store.abort_match(match_id, &reason).await {
                    tracing::warn!(match_id, %error, "cannot mark a match aborted");
                }
            }
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

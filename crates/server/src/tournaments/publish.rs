//! Telling a tournament's watchers its state: after every change, at most once a
//! period, so that a round of many games ending together is one message, not one a
//! game.

use std::sync::Arc;
use std::time::Duration;

use arbiter_store::TournamentId;
use tokio_util::sync::CancellationToken;

use super::state::{Games, Snapshot};
use crate::hub::Hub;
use crate::protocol::ServerMessage;

/// The shortest time between two states sent to a tournament's watchers.
pub const PUBLISH_PERIOD: Duration = Duration::from_millis(500);

/// Send the tournament's state (its latest round's games) to its watchers, if it has
/// any here.
pub async fn publish(hub: &Hub, id: TournamentId) {
    if !hub.tournaments.watched(id) {
        return;
    }
    match Snapshot::load(&hub.store, id).await {
        Ok(Some(snapshot)) => hub.tournaments.tell_watchers(
            id,
            &ServerMessage::Tournament {
                state: snapshot.document(Games::Current),
            },
        ),
        Ok(None) => {}
        Err(error) => {
            tracing::warn!(tournament = id, %error, "the tournament's state could not be read")
        }
    }
}

/// Publish `id`'s state whenever its director says it changed, until `done`.
pub fn spawn_publisher(hub: Arc<Hub>, id: TournamentId, done: CancellationToken) {
    let Some(changes) = hub.tournaments.changes(id) else {
        return;
    };
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = changes.notified() => {}
                _ = done.cancelled() => break,
            }
            publish(&hub, id).await;
            tokio::select! {
                _ = tokio::time::sleep(PUBLISH_PERIOD) => {}
                _ = done.cancelled() => break,
            }
        }
    });
}

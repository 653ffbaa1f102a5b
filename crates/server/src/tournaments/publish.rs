//! Telling a tournament's watchers its state: after every change, at most once a
//! period, so that a round of many games ending together is one message, not one a
//! game; and for a big field, within a budget of bytes a second, so that the state
//! does not crowd out the games (a thousand entrants each told a 174 KiB state every
//! half second is 350 MB/s; see docs/benchmarks.md).

use std::sync::Arc;
use std::time::Duration;

use arbiter_store::TournamentId;
use tokio_util::sync::CancellationToken;

use super::state::{Games, Snapshot};
use crate::hub::Hub;
use crate::protocol::ServerMessage;

/// The shortest time between two states sent to a tournament's watchers.
pub const PUBLISH_PERIOD: Duration = Duration::from_millis(500);

/// The most bytes of one tournament's state sent to its watchers a second, on average:
/// the pause after a state is at least its bytes over this.
pub const PUBLISH_BYTES_PER_SECOND: f64 = 16.0 * 1024.0 * 1024.0;

/// How long to wait after telling watchers `bytes` of state before telling them again.
pub fn pause_after(bytes: usize) -> Duration {
    PUBLISH_PERIOD.max(Duration::from_secs_f64(
        bytes as f64 / PUBLISH_BYTES_PER_SECOND,
    ))
}

/// Send the tournament's state (its latest round's games) to its watchers, if it has
/// any here; the bytes queued for them all.
pub async fn publish(hub: &Hub, id: TournamentId) -> usize {
    if !hub.tournaments.watched(id) {
        return 0;
    }
    match Snapshot::load(&hub.store, id).await {
        Ok(Some(snapshot)) => {
            let state = ServerMessage::Tournament {
                state: snapshot.document(Games::Current).into_value(),
            };
            hub.tournaments.tell_watchers(id, &state).await
        }
        Ok(None) => 0,
        Err(error) => {
            tracing::warn!(tournament = id, %error, "the tournament's state could not be read");
            0
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
            let sent = publish(&hub, id).await;
            tokio::select! {
                _ = tokio::time::sleep(pause_after(sent)) => {}
                _ = done.cancelled() => break,
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_field_hears_every_period_and_a_big_one_within_the_budget() {
        // 64 entrants, a 15 KiB state each: a megabyte, well inside the budget.
        assert_eq!(pause_after(64 * 15 * 1024), PUBLISH_PERIOD);
        // A thousand entrants, 174 KiB each: about 10.6 s between states.
        let pause = pause_after(1000 * 174 * 1024);
        assert!(
            pause > Duration::from_secs(10) && pause < Duration::from_secs(11),
            "{pause:?}"
        );
    }
}

//! House tournaments: the ones a host declares in the server's configuration to recur,
//! "a T&E arena every hour". For each, one tournament is kept open for entries: when
//! none of its name is waiting to start, the next is created to start at the next
//! multiple of its period (on the hour for `every = "1h"`), by the house (no creator).
//! The store is the memory: after a restart, an occurrence already open is found, not
//! made again. In a deployment every node with the setting does this; the store takes
//! one occurrence per name and start (a unique index), so the first node to write it
//! directs it and the others find it open.

use std::sync::Arc;
use std::time::Duration;

use arbiter_store::TournamentStatus;
use tokio_util::sync::CancellationToken;

use super::director::wall_ms;
use super::requests;
pub use crate::config::HouseTournament;
use crate::hub::Hub;
use crate::protocol::messages::TournamentSettings;

/// Whether every house tournament's settings are ones the server would create (checked
/// as the server starts, so a host's mistake is told at once, not logged each minute).
pub async fn check_all(hub: &Hub, houses: &[HouseTournament]) -> Result<(), String> {
    let mut names = std::collections::HashSet::new();
    for house in houses {
        // The name is what finds an occurrence open, so two must not share one.
        if !names.insert(house.name()) {
            return Err(format!(
                "two house tournaments are named {:?}: give each its own name",
                house.name()
            ));
        }
        let settings = occurrence(house, u64::try_from(wall_ms()).unwrap_or_default());
        super::settings::check(hub, &settings, None)
            .await
            .map_err(|refusal| {
                format!("house tournament {:?}: {}", house.name(), refusal.message)
            })?;
    }
    Ok(())
}

/// The settings of the occurrence to open at `now_ms`: the next slot's.
fn occurrence(house: &HouseTournament, now_ms: u64) -> TournamentSettings {
    let start = house.next_start(now_ms + 1000);
    TournamentSettings {
        name: Some(house.name()),
        starts_at: Some(arbiter_store::rfc3339(
            i64::try_from(start).unwrap_or(i64::MAX),
        )),
        ..house.settings.clone()
    }
}

/// Keep each house tournament's next occurrence open, until the server stops.
pub async fn run(hub: Arc<Hub>, houses: Vec<HouseTournament>, stop: CancellationToken) {
    if houses.is_empty() {
        return;
    }
    // Looked at again this often: a new occurrence appears within it of the last one
    // starting (the shortest period, at most a minute).
    let look = houses
        .iter()
        .map(|house| house.every)
        .min()
        .unwrap_or(Duration::from_secs(60))
        .min(Duration::from_secs(60))
        .max(Duration::from_millis(250));
    loop {
        for house in &houses {
            if let Err(why) = keep_one_open(&hub, house).await {
                tracing::warn!(name = %house.name(), %why, "a house tournament was not created");
            }
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(look) => {}
        }
    }
}

/// Create the house tournament's next occurrence unless one is open for entries.
async fn keep_one_open(hub: &Arc<Hub>, house: &HouseTournament) -> Result<(), String> {
    let name = house.name();
    let listed = hub
        .store
        .list_tournaments(requests::LIST_LIMIT)
        .await
        .map_err(|e| e.to_string())?;
    let open = listed
        .iter()
        .any(|t| t.name == name && t.created_by.is_none() && t.status == TournamentStatus::Open);
    if open {
        return Ok(());
    }
    let settings = occurrence(house, u64::try_from(wall_ms()).unwrap_or_default());
    match requests::create(hub, None, &settings).await {
        Ok(id) => {
            tracing::info!(tournament = id, starts_at = ?settings.starts_at, "house tournament opened");
            Ok(())
        }
        // Another node of the deployment wrote this occurrence first: it is open.
        Err(refusal) if refusal.code == "house_slot_taken" => Ok(()),
        Err(refusal) => Err(format!("{}: {}", refusal.code, refusal.message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every(secs: u64) -> HouseTournament {
        HouseTournament {
            every: Duration::from_secs(secs),
            settings: serde_json::from_value(
                serde_json::json!({"ruleset": "tae", "format": "arena", "duration_ms": 60000}),
            )
            .expect("settings"),
        }
    }

    #[test]
    fn occurrences_start_on_multiples_of_the_period() {
        let hourly = every(3600);
        assert_eq!(hourly.next_start(0), 3_600_000);
        assert_eq!(hourly.next_start(3_599_999), 3_600_000);
        assert_eq!(hourly.next_start(3_600_000), 7_200_000);
        assert_eq!(hourly.name(), "tae arena (house)");
    }
}

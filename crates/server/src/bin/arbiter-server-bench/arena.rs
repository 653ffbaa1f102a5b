//! The benchmark's tournament mode (issue 62): one arena that every light client joins,
//! instead of the matchmaking queue. The arena is created in this process before the
//! clients start (unrated, starting once all have joined), so its director pairs the
//! whole field in waves as games end, through the same store, match pipeline and
//! watchers' state as any arena; the report adds its waves and the server's own
//! timing of each pairing (`arbiter_tournament_pairing_seconds`).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, Context};
use arbiter_server::hub::Hub;
use arbiter_server::protocol::messages::TournamentSettings;
use arbiter_server::tournaments::requests;
use arbiter_store::TournamentId;
use serde_json::Value;

use crate::scrape::Histogram;

/// The arena a run plays.
pub struct Arena {
    pub entrants: usize,
    /// From the start (all joined) to the last pairing; games under way then finish.
    pub length: Duration,
    pub ruleset: String,
    /// The games' config (`Value::Null`: the ruleset's default).
    pub config: Value,
    /// Time per decision. No time bank: light clients answer in place.
    pub deadline: Duration,
}

impl Arena {
    /// Create the arena on `hub`'s node (no creator, so no per-account limit).
    pub async fn create(&self, hub: &Arc<Hub>) -> anyhow::Result<TournamentId> {
        let entrants = u32::try_from(self.entrants).context("--arena is too large")?;
        let settings = TournamentSettings {
            name: Some(format!("bench arena of {entrants}")),
            ruleset: self.ruleset.clone(),
            config: self.config.clone(),
            format: "arena".to_string(),
            seats: Some(2),
            rounds: None,
            duration_ms: Some(self.length.as_millis() as u64),
            starts_at: None,
            start_when: Some(entrants),
            deadline_ms: Some(self.deadline.as_millis() as u64),
            time_bank_ms: Some(0),
            rated: Some(false),
            max_entrants: Some(entrants),
            entry: None,
        };
        requests::create(hub, None, &settings)
            .await
            .map_err(|refusal| {
                anyhow!(
                    "the arena was refused: {}: {}",
                    refusal.code,
                    refusal.message
                )
            })
    }
}

/// The report's arena lines: how far it went (from the store), and its pairings (from
/// the server's histogram in `metrics`, the text of `/metrics`). Read while the server
/// runs, printed with the rest.
pub async fn report(hub: &Hub, id: TournamentId, metrics: &anyhow::Result<String>) -> Vec<String> {
    let mut lines = Vec::new();
    match hub.store.tournament(id).await {
        Ok(Some(t)) => {
            let games = hub.store.tournament_games(id).await.unwrap_or_default();
            let decided = games.iter().filter(|g| g.ranks.is_some()).count();
            lines.push(format!(
                "arena                   {} entrants, {:.0} s: {} waves, {decided} games decided of {} paired ({:.1} a wave), status {:?}",
                t.entrants,
                t.duration_ms.unwrap_or(0) as f64 / 1000.0,
                t.round,
                games.len(),
                games.len() as f64 / f64::from(t.round.max(1)),
                t.status
            ));
        }
        Ok(None) => lines.push(format!(
            "arena                   {id} not found in the store"
        )),
        Err(error) => lines.push(format!(
            "arena                   not read from the store: {error}"
        )),
    }
    let pairing = metrics
        .as_ref()
        .map_err(|e| anyhow!("{e:#}"))
        .and_then(|text| Histogram::read(text, "arbiter_tournament_pairing_seconds"));
    lines.push(match pairing {
        Ok(h) => format!(
            "arena pairing           {:.0} pairings of the free entrants: mean {:.3} ms, p50 ≤ {:.3} ms, p99 ≤ {:.3} ms, max ≤ {:.3} ms (arbiter_tournament_pairing_seconds, without the store write)",
            h.count(),
            h.mean() * 1000.0,
            h.quantile(0.5) * 1000.0,
            h.quantile(0.99) * 1000.0,
            h.highest() * 1000.0
        ),
        Err(error) => format!("arena pairing           not read from /metrics: {error:#}"),
    });
    lines
}

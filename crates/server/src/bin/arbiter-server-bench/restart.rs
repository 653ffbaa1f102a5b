//! The benchmark's restart mode (issue 69): how long a server takes to stop with many
//! running matches, and to start again with all of them running. N matches of two
//! remote seats each (two accounts, unrated, a clock of an hour so nothing times out)
//! are started in the server's process and played `--moves` rounds each through their
//! handles; the server then stops as SIGTERM stops it (`Server::shutdown`: every
//! referee suspended once its writes landed, every connection told), and starts again
//! on the same store (`Server::start` returns once every match left running goes on
//! from its log, before it accepts anyone). The report is both times, how many matches
//! went on, and the machine's load over the run.

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use arbiter_server::hub::SeatPlan;
use arbiter_server::matches::{MatchClock, Player};
use arbiter_server::{Config, Server};
use serde_json::Value;

use crate::cpu::MachineReading;

/// What a restart run measures.
pub struct Restart {
    pub ruleset: String,
    pub matches: usize,
    /// Rounds of `answer` both seats play before the stop (log entries: twice that).
    pub moves: usize,
    pub answer: Value,
    /// The store (`None`: a scratch SQLite file).
    pub database: Option<String>,
}

impl Restart {
    pub async fn run(&self) -> anyhow::Result<()> {
        let data =
            std::env::temp_dir().join(format!("arbiter-restart-bench-{}", std::process::id()));
        let mut config = Config::for_data_dir(&data);
        if let Some(url) = &self.database {
            config.database_url = url.clone();
        }
        let machine_before = MachineReading::now();
        let server = Server::start(config.clone()).await?;
        let hub = server.hub.clone();
        let ruleset = hub
            .ruleset(&self.ruleset)
            .map_err(|r| anyhow::anyhow!(r.message))?
            .clone();
        let game_config = ruleset.game.normalize_config(&Value::Null)?;
        let mut players = Vec::new();
        for name in ["restart-ann", "restart-bob"] {
            let account = hub.store.register(name, "restart-password").await?;
            players.push(Player::Account {
                id: account.id,
                name: name.to_string(),
            });
        }
        let clock = MatchClock {
            deadline: Duration::from_secs(3600),
            time_bank: Duration::ZERO,
            abandon_after: None,
            stand_in_grace: None,
        };
        let started = Instant::now();
        let mut ids = Vec::with_capacity(self.matches);
        for _ in 0..self.matches {
            let seats = players
                .iter()
                .map(|player| SeatPlan {
                    player: player.clone(),
                    outbox: None,
                })
                .collect();
            let id = hub
                .start_match(&ruleset, game_config.clone(), seats, false, clock)
                .await
                .map_err(|r| anyhow::anyhow!("a match did not start: {}", r.message))?;
            ids.push(id);
        }
        for _ in 0..self.moves {
            for &id in &ids {
                let live = hub.matches.get(id).context("a match ended early")?;
                for seat in 0..2 {
                    live.handle.act(seat, self.answer.clone()).await?;
                }
            }
        }
        // Every answer recorded (and stored: a step is counted once it is told).
        let entries = self.moves * 2;
        for &id in &ids {
            let live = hub.matches.get(id).context("a match ended early")?;
            let mut status = live.handle.watch_status();
            while status.borrow_and_update().step < entries {
                if status.changed().await.is_err() {
                    bail!("match {id} ended before its {entries} entries");
                }
            }
        }
        let played = started.elapsed();
        drop(hub);

        let stopping = Instant::now();
        server.shutdown().await;
        let stop = stopping.elapsed();
        let starting = Instant::now();
        let again = Server::start(config).await?;
        let start = starting.elapsed();
        let running = again.hub.matches.count();
        let report = again.resumed_on_start.clone();
        let machine = match (machine_before, MachineReading::now()) {
            (Some(before), Some(after)) => after.describe_since(before),
            _ => "unknown".to_string(),
        };
        println!(
            "{}",
            serde_json::json!({
                "mode": "restart",
                "ruleset": self.ruleset,
                "store": if self.database.is_some() { "postgres" } else { "sqlite" },
                "matches": self.matches,
                "entries_each": entries,
                "started_and_played_s": played.as_secs_f64(),
                "stop_s": stop.as_secs_f64(),
                "start_s": start.as_secs_f64(),
                "resumed": report.resumed,
                "failed": report.failed,
                "running_after_start": running,
                "machine": machine,
            })
        );
        again.shutdown().await;
        let _ = std::fs::remove_dir_all(&data);
        if running != self.matches || report.failed > 0 {
            bail!("{running} of {} matches went on", self.matches);
        }
        Ok(())
    }
}

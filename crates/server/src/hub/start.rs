//! Turning a group of players into a running match: record it in the store (its row id
//! is the match id), start the referee, attach the people's connections, and watch it
//! to the end.

use std::sync::Arc;
use std::time::Duration;

use arbiter_referee::{
    IllegalAnswer, MatchHandle, MatchSetup, Program, Referee, SeatKind, SeatSetup,
};
use arbiter_rulesets::Ruleset;
use arbiter_store::{NewMatch, RatingSystem, SeatRecord, INITIAL_DISPLAY};
use serde_json::Value;

use super::{Hub, SeatPlan};
use crate::matches::persist;
use crate::matches::{LiveMatch, MatchClock, Player};
use crate::protocol::Refusal;
use crate::protocol::ServerMessage;

/// How a compatibility port's match differs from a native one: its seats are played
/// in-process by the port's adapters (one [`Program`] per seat, each speaking the
/// port's protocol to its client), and the referee's deadline is the port's.
pub struct PortMatch {
    pub port: &'static str,
    /// Per decision; a port may make several calls to its client for one decision.
    pub deadline: Duration,
    pub programs: Vec<Program>,
}

impl Hub {
    /// Start a match of `ruleset` with `config` (already normalized), one plan per seat,
    /// on `clock`. Rated matches move the seated accounts' ratings when they finish.
    /// A refused answer may be retried: people make typos.
    pub async fn start_match(
        self: &Arc<Self>,
        ruleset: &Ruleset,
        config: Value,
        seats: Vec<SeatPlan>,
        rated: bool,
        clock: MatchClock,
    ) -> Result<i64, Refusal> {
        let (match_id, _) = self
            .start(ruleset, config, seats, rated, clock, None)
            .await?;
        Ok(match_id)
    }

    /// Start a rated match for a compatibility port: stored, rated, listed and
    /// watchable like a native one, its seats played by `port.programs`. Returns the
    /// match id and the referee's handle (the match may be over, and gone from the live
    /// list, before the caller could look it up there).
    pub async fn start_port_match(
        self: &Arc<Self>,
        ruleset: &Ruleset,
        config: Value,
        seats: Vec<SeatPlan>,
        port: PortMatch,
    ) -> Result<(i64, MatchHandle), Refusal> {
        if port.programs.len() != seats.len() {
            return Err(Refusal::new(
                "bad_seats",
                "a port match needs one program per seat",
            ));
        }
        // The port's own clock, no bank: the original protocols have none.
        let clock = MatchClock {
            deadline: port.deadline,
            time_bank: Duration::ZERO,
        };
        self.start(ruleset, config, seats, true, clock, Some(port))
            .await
    }

    async fn start(
        self: &Arc<Self>,
        ruleset: &Ruleset,
        config: Value,
        seats: Vec<SeatPlan>,
        rated: bool,
        clock: MatchClock,
        port: Option<PortMatch>,
    ) -> Result<(i64, MatchHandle), Refusal> {
        // Drawn from the operating system, never derived: a seed (or anything it could be
        // recomputed from) would reveal every hidden hand and draw of the match.
        let seed = secret_seed()?;
        let bot_seeds = (0..seats.len())
            .map(|_| secret_seed())
            .collect::<Result<Vec<u64>, Refusal>>()?;
        let initial = ruleset
            .game
            .new_state(&config, seats.len(), seed)
            .map_err(|e| Refusal::new("bad_config", e.to_string()))?;
        let rating = if rated {
            let counts = ruleset
                .game
                .seat_counts(&config)
                .map_err(|e| Refusal::new("bad_config", e.to_string()))?;
            Some(RatingSystem::for_seat_counts(counts))
        } else {
            None
        };
        let new = NewMatch {
            ruleset: ruleset.id().to_string(),
            config: config.clone(),
            seed,
            initial_digest: initial.digest(),
            seats: seats
                .iter()
                .map(|plan| match &plan.player {
                    Player::Account { id, name } => SeatRecord {
                        name: name.clone(),
                        account_id: Some(*id),
                        bot: None,
                    },
                    Player::Bot { bot, name } => SeatRecord {
                        name: name.clone(),
                        account_id: None,
                        bot: Some(bot.clone()),
                    },
                })
                .collect(),
            rating,
        };
        let match_id = self.store.create_match(&new).await?;
        // A port keeps its protocol's rules for bad answers (the Q-Game course ejects);
        // in native matches a refused answer is explained and may be retried.
        let illegal_answer = match &port {
            Some(_) => ruleset.game.policy().illegal_answer,
            None => IllegalAnswer::Retry,
        };
        let setup = MatchSetup {
            match_id,
            ruleset: ruleset.clone(),
            config: config.clone(),
            seed,
            seats: seats
                .iter()
                .enumerate()
                .map(|(seat, plan)| match (&plan.player, &port) {
                    (player, Some(port)) => SeatSetup {
                        name: player.name().to_string(),
                        kind: SeatKind::Program(port.programs[seat].clone()),
                    },
                    (Player::Account { name, .. }, None) => SeatSetup::remote(name.clone()),
                    (Player::Bot { bot, name }, None) => {
                        SeatSetup::house(name.clone(), bot.clone(), bot_seeds[seat])
                    }
                })
                .collect(),
            deadline: clock.deadline,
            time_bank: clock.time_bank,
            illegal_answer,
        };
        let (sink, writer) = persist::writer(self.store.clone(), self.metrics.clone());
        let handle = match Referee::start(setup, Arc::new(sink)) {
            Ok(handle) => handle,
            Err(error) => {
                let _ = self.store.abort_match(match_id, &error.to_string()).await;
                return Err(Refusal::new("bad_config", error.to_string()));
            }
        };
        let mut live = LiveMatch::new(
            match_id,
            ruleset.id().to_string(),
            config.clone(),
            seats.iter().map(|plan| plan.player.clone()).collect(),
            rated,
            clock,
            handle,
        );
        if let Some(port) = &port {
            live = live.through_port(port.port);
        }
        let live = Arc::new(live);
        let handle = live.handle.clone();
        self.matches.insert(live.clone());
        self.metrics.match_started();
        tracing::info!(match_id, ruleset = ruleset.id(), players = ?live.player_names(), rated, "match started");

        let players = live.player_names();
        for (seat, plan) in seats.iter().enumerate() {
            let Some(outbox) = &plan.outbox else { continue };
            outbox.send(&ServerMessage::MatchStarted {
                match_id,
                ruleset: ruleset.id().to_string(),
                config: config.clone(),
                players: players.clone(),
                seat,
                deadline_ms: clock.deadline.as_millis() as u64,
                time_bank_ms: clock.time_bank.as_millis() as u64,
                rated,
            });
            self.matches.attach(&live, seat, outbox).await;
        }

        let hub = self.clone();
        tokio::spawn(async move {
            let ended = live.handle.wait().await;
            // The record is durable once the writer has drained the sink.
            let _ = writer.await;
            hub.matches.remove(match_id);
            hub.metrics.match_ended(ended.is_ok());
            if let Err(aborted) = ended {
                tracing::warn!(match_id, %aborted, "match aborted");
            }
        });
        Ok((match_id, handle))
    }

    /// The rating matchmaking pairs by (the starting value before a first rated game).
    pub async fn rating_of(&self, account: i64, ruleset: &str) -> Result<f64, Refusal> {
        Ok(self
            .store
            .rating(account, ruleset)
            .await?
            .map_or(INITIAL_DISPLAY as f64, |r| r.display as f64))
    }

    /// On shutdown: record every running match as aborted (its log is kept).
    pub async fn abort_running(&self, reason: &str) {
        for info in self.matches.list() {
            if let Err(error) = self.store.abort_match(info.match_id, reason).await {
                tracing::debug!(match_id = info.match_id, %error, "not aborted");
            }
        }
    }
}

/// A seed from the operating system's entropy.
fn secret_seed() -> Result<u64, Refusal> {
    use rand::TryRngCore;
    rand::rngs::OsRng.try_next_u64().map_err(|error| {
        tracing::error!(%error, "the operating system gave no entropy");
        Refusal::new("internal", "the server could not draw a seed; try again")
    })
}

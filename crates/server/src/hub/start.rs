//! Turning a group of players into a running match: `arbiter-runner` records it and
//! starts its referee (the one pipeline every port shares); here the match is listed,
//! the people's connections attached, and it is watched to the end.

use std::sync::Arc;
use std::time::Duration;

use arbiter_referee::{IllegalAnswer, MatchHandle, Program};
use arbiter_rulesets::Ruleset;
use arbiter_runner::{Entry, Launch, LaunchError, Launched, MatchInstruments, Play, StandIn};
use arbiter_store::{RatingSystem, INITIAL_DISPLAY};
use serde_json::Value;

use super::{Hub, SeatPlan};
use crate::connection::Outbox;
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

/// What a match is started for: it decides who plays the seats and what the match is
/// recorded with.
enum Purpose {
    /// Players of this server (the queue, a table, a challenge).
    Play,
    /// A compatibility port's clients.
    Port(PortMatch),
    /// A tournament's game, recorded with the match in one transaction.
    TournamentGame(i64),
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
            .start(ruleset, config, seats, rated, clock, Purpose::Play)
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
            abandon_after: None,
            stand_in_grace: None,
        };
        self.start(ruleset, config, seats, true, clock, Purpose::Port(port))
            .await
    }

    async fn start(
        self: &Arc<Self>,
        ruleset: &Ruleset,
        config: Value,
        seats: Vec<SeatPlan>,
        rated: bool,
        clock: MatchClock,
        purpose: Purpose,
    ) -> Result<(i64, MatchHandle), Refusal> {
        let players = seats.iter().map(|plan| plan.player.clone()).collect();
        let live = self
            .launch(ruleset, config, players, rated, clock, purpose)
            .await?;
        let outboxes: Vec<Option<Outbox>> = seats.into_iter().map(|plan| plan.outbox).collect();
        self.announce(&live, &outboxes, None).await;
        Ok((live.id, live.handle.clone()))
    }

    /// Start tournament game `game`: launched, stored and listed like any match, and
    /// recorded as the game's match in the same transaction (refused with
    /// `game_not_directed_here` unless this node directs the tournament and the game is
    /// undecided). Nobody is told of it until [`Hub::announce`].
    pub async fn launch_tournament_match(
        self: &Arc<Self>,
        ruleset: &Ruleset,
        config: Value,
        players: Vec<Player>,
        rated: bool,
        clock: MatchClock,
        game: i64,
    ) -> Result<Arc<LiveMatch>, Refusal> {
        let purpose = Purpose::TournamentGame(game);
        self.launch(ruleset, config, players, rated, clock, purpose)
            .await
    }

    /// Tell each seat's connection (where it has one) that `live` started, and attach
    /// the seat there. A seat without a connection is attached when its player logs in.
    pub async fn announce(
        &self,
        live: &Arc<LiveMatch>,
        outboxes: &[Option<Outbox>],
        tournament: Option<i64>,
    ) {
        let players = live.player_names();
        for (seat, outbox) in outboxes.iter().enumerate() {
            let Some(outbox) = outbox else { continue };
            outbox.send(&ServerMessage::MatchStarted {
                match_id: live.id,
                ruleset: live.ruleset.clone(),
                config: live.config.clone(),
                players: players.clone(),
                seat,
                deadline_ms: live.clock.deadline.as_millis() as u64,
                time_bank_ms: live.clock.time_bank.as_millis() as u64,
                rated: live.rated,
                tournament,
            });
            // A queue place this connection held on another node (the matchmaker) has
            // become this match: forget it, or the matchmaker's loss would queue a
            // player who is playing again (a match arriving from another node clears
            // it as its line passes, `mesh::serve`).
            if let Some(mesh) = &self.mesh {
                mesh.left_queue_away(outbox.conn());
            }
            self.matches.attach(live, seat, outbox).await;
        }
    }

    /// Record and start a match and list it as live; nobody is told yet.
    async fn launch(
        self: &Arc<Self>,
        ruleset: &Ruleset,
        config: Value,
        seats: Vec<Player>,
        rated: bool,
        clock: MatchClock,
        purpose: Purpose,
    ) -> Result<Arc<LiveMatch>, Refusal> {
        let (port, tournament_game) = match purpose {
            Purpose::Play => (None, None),
            Purpose::Port(port) => (Some(port), None),
            Purpose::TournamentGame(game) => (None, Some(game)),
        };
        let rating = if rated {
            let counts = ruleset
                .game
                .seat_counts(&config)
                .map_err(|e| Refusal::new("bad_config", e.to_string()))?;
            Some(RatingSystem::for_seat_counts(counts))
        } else {
            None
        };
        // A port keeps its protocol's rules for bad answers (the Q-Game course ejects);
        // in native matches a refused answer is explained and may be retried.
        let illegal_answer = match &port {
            Some(_) => ruleset.game.policy().illegal_answer,
            None => IllegalAnswer::Retry,
        };
        let entries = seats
            .iter()
            .enumerate()
            .map(|(seat, player)| Entry {
                name: player.name().to_string(),
                account: player.account(),
                play: match (player, &port) {
                    (_, Some(port)) => Play::Program(port.programs[seat].clone()),
                    (Player::Account { .. }, None) => Play::Remote,
                    (Player::Bot { bot, .. }, None) => Play::House { bot: bot.clone() },
                },
            })
            .collect();
        let launch = Launch {
            ruleset: ruleset.clone(),
            config: config.clone(),
            entries,
            rating,
            deadline: clock.deadline,
            time_bank: clock.time_bank,
            abandon_after: clock.abandon_after,
            stand_in: match &port {
                Some(_) => None,
                None => stand_in(ruleset, &clock, &seats),
            },
            illegal_answer,
            seed: None,
            store_patience: self.config.store_patience,
            port: port.as_ref().map(|port| port.port.to_string()),
            tournament_game,
        };
        let instruments: Arc<dyn MatchInstruments> = self.metrics.clone();
        let Launched {
            match_id,
            handle,
            recorded,
        } = arbiter_runner::launch(&self.store, launch, Some(instruments))
            .await
            .map_err(|error| match error {
                LaunchError::Config(why) => Refusal::new("bad_config", why),
                LaunchError::NoEntropy => Refusal::new("internal", error.to_string()),
                LaunchError::Store(error) => Refusal::from(error),
            })?;
        let mut live = LiveMatch::new(
            match_id,
            ruleset.id().to_string(),
            config,
            seats,
            rated,
            clock,
            handle,
        );
        if let Some(port) = &port {
            live = live.through_port(port.port);
        }
        let live = Arc::new(live);
        self.matches.insert(live.clone());
        self.metrics.match_started();
        tracing::info!(match_id, ruleset = ruleset.id(), players = ?live.player_names(), rated, "match started");
        self.watch_to_the_end(live.clone(), recorded);
        Ok(live)
    }

    /// Keep `live` listed until it ends and its record is stored.
    pub(super) fn watch_to_the_end(
        self: &Arc<Self>,
        live: Arc<LiveMatch>,
        recorded: tokio::task::JoinHandle<arbiter_runner::Recorded>,
    ) {
        let hub = self.clone();
        let match_id = live.id;
        tokio::spawn(async move {
            let ended = live.handle.ended().await;
            // The record is durable once the writer has drained the sink.
            let _ = recorded.await;
            hub.matches.remove(match_id);
            if live.handle.is_suspended() {
                // Not ended: it goes on from its log when a server resumes it.
                return;
            }
            hub.metrics.match_ended(ended.is_ok());
            if let Err(aborted) = ended {
                tracing::warn!(match_id, %aborted, "match aborted");
            }
        });
    }

    /// The rating matchmaking pairs by (the starting value before a first rated game).
    pub async fn rating_of(&self, account: i64, ruleset: &str) -> Result<f64, Refusal> {
        Ok(self
            .store
            .rating(account, ruleset)
            .await?
            .map_or(INITIAL_DISPLAY as f64, |r| r.display as f64))
    }

    /// On shutdown: stop refereeing every running match once what it recorded is
    /// stored, without ending it (it stays `running` in the store and goes on from its
    /// log when this node starts again, or on the node that takes it over). Returns
    /// once every referee has let go, or after `patience`.
    pub async fn suspend_running(&self, patience: Duration) -> usize {
        let live = self.matches.all();
        for live in &live {
            let _ = live.handle.suspend().await;
        }
        let suspended = futures::future::join_all(live.iter().map(|live| live.handle.ended()));
        if tokio::time::timeout(patience, suspended).await.is_err() {
            tracing::warn!(
                "some matches were still storing what they decided when the server stopped"
            );
        }
        live.len()
    }
}

/// The house bot for the match's silent seats: the table's strength, which is the bot
/// it seated (the first, if several), else the ruleset's `greedy` (a fair opponent that
/// answers at once), else its first bot. `None` without a grace or a remote seat.
pub(super) fn stand_in(ruleset: &Ruleset, clock: &MatchClock, seats: &[Player]) -> Option<StandIn> {
    let grace = clock.stand_in_grace?;
    if !seats
        .iter()
        .any(|seat| matches!(seat, Player::Account { .. }))
    {
        return None;
    }
    let seated = seats.iter().find_map(|seat| match seat {
        Player::Bot { bot, .. } => Some(bot.as_str()),
        Player::Account { .. } => None,
    });
    let bot = seated
        .or_else(|| ruleset.bots.iter().copied().find(|&bot| bot == "greedy"))
        .or_else(|| ruleset.bots.first().copied())?;
    Some(StandIn {
        bot: bot.to_string(),
        grace,
    })
}

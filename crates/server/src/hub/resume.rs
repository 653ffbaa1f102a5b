//! A match outlives its server. Every way a match loses its referee — this server
//! restarted after a crash or a stop, or another node that died or stopped handed it
//! over — ends here, in one path: the match's record is read from the store (every
//! entry and digest `replay --verify` checks), the referee rebuilds the game from it and
//! goes on at the next entry, on the clock the match started with, every seat's next
//! decision given the resume grace on top. Its players come back by logging in on any
//! node (their seats resume); house bots play on with fresh seeds.
//!
//! A log that cannot be rebuilt is not quietly dropped: the match is marked aborted
//! with the reason, logged as an error, and counted (`ResumeReport::failed`).

use std::sync::Arc;
use std::time::Duration;

use arbiter_referee::IllegalAnswer;
use arbiter_runner::{Entry, Gap, Launch, LaunchError, Launched, MatchInstruments, Play};
use arbiter_store::{AccountId, MatchId, MatchTerms, ResumableMatch, RESUMABLE_AT_ONCE};
use futures::StreamExt;

use super::start::stand_in;
use super::Hub;
use crate::matches::{LiveMatch, MatchClock, Player};
use crate::mesh::asks::Ask;
use crate::protocol::Refusal;

/// How many matches are rebuilt at once: each reads its record and replays it, so a
/// few at a time keep both cores and the store busy without a queue of thousands.
const RESUMING_AT_ONCE: usize = 16;

/// What resuming a batch of matches came to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResumeReport {
    /// Running again here.
    pub resumed: u64,
    /// Could not go on (each logged with its reason, and marked aborted with it).
    pub failed: u64,
    /// The accounts seated in the matches running again, once each: whose connections
    /// on other nodes of a deployment are to be told where their seats are now
    /// ([`Hub::tell_nodes_of_resumed_seats`]).
    pub seated: Vec<AccountId>,
}

/// Accounts named in one [`Ask::SeatsResumed`]: well under a NATS message's size.
const SEATED_PER_NOTICE: usize = 4096;

impl Hub {
    /// Go on with every match in `ids`, which this node now runs, each from its stored
    /// log; they were down for `down` (since their server's last sign of life). The
    /// resumptions are recorded together, one transaction for the batch.
    pub async fn resume_matches(
        self: &Arc<Self>,
        ids: Vec<MatchId>,
        down: Duration,
    ) -> ResumeReport {
        let gap = Gap {
            down,
            grace: self.config.resume_grace,
        };
        // The stored parts of every match are read a batch at a time (a few queries a
        // batch, not a few a match), and the next batch is read while this one replays.
        let outcomes: Vec<(MatchId, Result<usize, Refusal>)> =
            futures::stream::iter(ids.chunks(RESUMABLE_AT_ONCE).map(<[MatchId]>::to_vec))
                .map(|batch| async move {
                    match self.store.resumable_matches(&batch).await {
                        Ok(found) => found
                            .into_iter()
                            .map(|(match_id, stored)| (match_id, stored.map_err(|e| e.to_string())))
                            .collect(),
                        Err(error) => batch
                            .into_iter()
                            .map(|match_id| (match_id, Err(error.to_string())))
                            .collect::<Vec<_>>(),
                    }
                })
                .buffered(2)
                .flat_map(futures::stream::iter)
                .map(|(match_id, stored)| async move {
                    (match_id, self.resume_match(match_id, stored, gap).await)
                })
                .buffer_unordered(RESUMING_AT_ONCE)
                .collect()
                .await;
        let mut report = ResumeReport::default();
        let mut steps = Vec::with_capacity(outcomes.len());
        for (match_id, outcome) in outcomes {
            match outcome {
                Ok(step) => {
                    report.resumed += 1;
                    steps.push((match_id, step));
                    if let Some(live) = self.matches.get(match_id) {
                        report
                            .seated
                            .extend(live.players.iter().filter_map(Player::account));
                    }
                }
                Err(refusal) => {
                    report.failed += 1;
                    tracing::error!(match_id, reason = %refusal.message, "a match could not go on from its stored log");
                }
            }
        }
        if let Err(error) = self
            .store
            .record_resumptions(&steps, u64::try_from(down.as_millis()).unwrap_or(u64::MAX))
            .await
        {
            tracing::warn!(%error, "cannot record the matches' resumptions");
        }
        report.seated.sort_unstable();
        report.seated.dedup();
        report
    }

    /// Tell the deployment's other nodes that this one now runs the matches of
    /// `report` (taken over, or its own gone on with after a restart): a node where one
    /// of their players is connected resumes that player's seats here for the
    /// connection, as a login would, so that a player connected to a third node moves
    /// with their match. Once this node answers asks (after its start's resumption,
    /// once it serves the mesh).
    pub async fn tell_nodes_of_resumed_seats(&self, report: &ResumeReport) {
        let Some(mesh) = &self.mesh else {
            return;
        };
        if report.seated.is_empty() {
            return;
        }
        let live = match self.store.live_nodes(self.config.node_lease).await {
            Ok(live) => live,
            Err(error) => {
                tracing::warn!(%error, "cannot list the nodes to tell of resumed seats");
                return;
            }
        };
        for accounts in report.seated.chunks(SEATED_PER_NOTICE) {
            let ask = Ask::SeatsResumed {
                node: mesh.node.clone(),
                accounts: accounts.to_vec(),
            };
            for other in live.iter().filter(|other| other.name != mesh.node) {
                mesh.tell(&other.name, &ask).await;
            }
        }
    }

    /// Go on with `match_id` from its stored log; the log step it goes on from.
    async fn resume_match(
        self: &Arc<Self>,
        match_id: MatchId,
        stored: Result<ResumableMatch, String>,
        gap: Gap,
    ) -> Result<usize, Refusal> {
        let failed = |why: String| async move {
            // Not quiet: the reason is stored, so the match page and list say it.
            let reason = format!("its stored log could not be continued: {why}");
            if let Err(error) = self.store.abort_match(match_id, &reason).await {
                tracing::warn!(match_id, %error, "cannot mark a match aborted");
            }
            Refusal::new("unresumable", reason)
        };
        let ResumableMatch {
            summary,
            record,
            terms,
        } = match stored {
            Ok(stored) => stored,
            Err(why) => return Err(failed(why).await),
        };
        let ruleset = match self.ruleset(&summary.ruleset) {
            Ok(ruleset) => ruleset.clone(),
            Err(refusal) => return Err(failed(refusal.message).await),
        };
        let mut players = Vec::with_capacity(summary.seats.len());
        for seat in &summary.seats {
            players.push(match (&seat.bot, seat.account_id) {
                (Some(bot), _) => Player::Bot {
                    bot: bot.clone(),
                    name: seat.name.clone(),
                },
                (None, Some(id)) => Player::Account {
                    id,
                    name: seat.name.clone(),
                },
                (None, None) => {
                    let why = format!("seat {} has neither an account nor a bot", seat.seat);
                    return Err(failed(why).await);
                }
            });
        }
        let port = terms
            .as_ref()
            .and_then(|terms| port_named(terms.port.as_deref()));
        let clock = match &terms {
            Some(terms) => clock_of(terms),
            // A match stored before its terms were: the queue's clock.
            None => self.queue_clock(&ruleset),
        };
        let launch = Launch {
            ruleset: ruleset.clone(),
            config: record.config.clone(),
            entries: players
                .iter()
                .map(|player| Entry {
                    name: player.name().to_string(),
                    account: player.account(),
                    play: match player {
                        Player::Bot { bot, .. } => Play::House { bot: bot.clone() },
                        // A port's clients played in-process; they come back, if they
                        // can, as remote seats (the port's deadline still applies).
                        Player::Account { .. } => Play::Remote,
                    },
                })
                .collect(),
            rating: summary.rating,
            deadline: clock.deadline,
            time_bank: clock.time_bank,
            abandon_after: clock.abandon_after,
            stand_in: match port {
                Some(_) => None,
                None => stand_in(&ruleset, &clock, &players),
            },
            illegal_answer: match port {
                Some(_) => ruleset.game.policy().illegal_answer,
                None => IllegalAnswer::Retry,
            },
            seed: None,
            store_patience: self.config.store_patience,
            port: port.map(str::to_string),
            // Its game, if it plays one, knows it already.
            tournament_game: None,
        };
        let config = record.config.clone();
        let step = record.log.len();
        let instruments: Arc<dyn MatchInstruments> = self.metrics.clone();
        let Launched {
            handle, recorded, ..
        } = arbiter_runner::resume_from(
            &self.store,
            match_id,
            record,
            launch,
            gap,
            Some(instruments),
        )
        .await
        .map_err(|error| match error {
            LaunchError::Store(error) => Refusal::from(error),
            other => Refusal::new("unresumable", other.to_string()),
        })?;
        let mut live = LiveMatch::new(
            match_id,
            ruleset.id().to_string(),
            config,
            players,
            summary.rating.is_some(),
            clock,
            handle,
        );
        if let Some(port) = port {
            live = live.through_port(port);
        }
        let live = Arc::new(live);
        self.matches.insert(live.clone());
        // Players already connected here (their match moved to this node, taken over
        // from one that died or stopped) get their seats back without logging in
        // again; the others find them when they log in.
        if live.port.is_none() {
            for (seat, player) in live.players.iter().enumerate() {
                let online = player
                    .account()
                    .and_then(|account| self.online.latest(account));
                if let Some(outbox) = online {
                    self.matches.attach(&live, seat, &outbox).await;
                }
            }
        }
        self.metrics.match_started();
        tracing::info!(
            match_id,
            ruleset = ruleset.id(),
            step,
            "match resumed from its stored log"
        );
        self.watch_to_the_end(live, recorded);
        Ok(step)
    }
}

/// The clock a match's stored terms describe.
fn clock_of(terms: &MatchTerms) -> MatchClock {
    MatchClock {
        deadline: Duration::from_millis(terms.deadline_ms).max(Duration::from_millis(1)),
        time_bank: Duration::from_millis(terms.time_bank_ms),
        abandon_after: terms.abandon_after,
        stand_in_grace: terms.stand_in_grace_ms.map(Duration::from_millis),
    }
}

/// The port of that name, as live matches name ports.
fn port_named(name: Option<&str>) -> Option<&'static str> {
    match name? {
        "spacegoo" => Some("spacegoo"),
        "qgame" => Some("qgame"),
        _ => None,
    }
}

//! Starting a match: check the setup, build the first state and the seats' players,
//! and spawn the one task that will own the match until its end.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::record::DigestChain;
use arbiter_engine::{ConfigError, MatchRecord};
use futures::FutureExt;
use tokio::sync::{mpsc, watch};

use crate::handle::{Finish, MatchHandle};
use crate::setup::{MatchSetup, SeatKind};
use crate::sink::{MatchSink, RecordEvent};
use crate::status::{MatchStatus, Phase, PlayerKind};
use crate::task::{BotMaker, Clock, MatchTask, PlayerSetup, StandInPlan};

/// Commands (answers, attachments) queued for one match before senders wait.
const COMMAND_QUEUE: usize = 1024;

/// The shortest per-decision deadline accepted.
pub const MIN_DEADLINE: Duration = Duration::from_millis(1);

/// Starts matches. Each match runs in its own task on the current tokio runtime.
#[derive(Debug, Clone, Copy, Default)]
pub struct Referee;

impl Referee {
    /// Check `setup`, then run the match in a new task and return its handle. Every
    /// record event goes to `sink` as it happens. Must be called from within a tokio
    /// runtime (an error says so otherwise).
    pub fn start(setup: MatchSetup, sink: Arc<dyn MatchSink>) -> Result<MatchHandle, ConfigError> {
        Referee::spawn(setup, None, sink)
    }

    /// Go on with a match another referee started (on a server that died): its state
    /// is rebuilt from `record` (the configuration, seed and every stored log entry,
    /// each digest verified), and the match continues at the next entry as if it had
    /// never stopped. `setup` says who plays the seats now; its configuration and seed
    /// are the record's. Seats the log ejected stay ejected; time banks start full.
    pub fn resume(
        setup: MatchSetup,
        record: MatchRecord,
        sink: Arc<dyn MatchSink>,
    ) -> Result<MatchHandle, ConfigError> {
        Referee::spawn(setup, Some(record), sink)
    }

    fn spawn(
        mut setup: MatchSetup,
        resumed: Option<MatchRecord>,
        sink: Arc<dyn MatchSink>,
    ) -> Result<MatchHandle, ConfigError> {
        if let Some(record) = &resumed {
            setup.config = record.config.clone();
            setup.seed = record.seed;
            if record.seats.len() != setup.seats.len() {
                return Err(ConfigError::new(format!(
                    "the record has {} seats, the setup {}",
                    record.seats.len(),
                    setup.seats.len()
                )));
            }
        }
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| ConfigError::new("the referee needs a running tokio runtime"))?;
        if setup.deadline < MIN_DEADLINE {
            return Err(ConfigError::new(format!(
                "the per-decision deadline must be at least {} ms",
                MIN_DEADLINE.as_millis()
            )));
        }
        if setup.seats.is_empty() {
            return Err(ConfigError::new("a match needs at least one seat"));
        }
        let game = setup.ruleset.game.clone();
        let config = game.normalize_config(&setup.config)?;
        let resuming = resumed.is_some();
        let (state, record, chain) = match resumed {
            None => {
                let state = game.new_state(&config, setup.seats.len(), setup.seed)?;
                let record = MatchRecord {
                    format: arbiter_engine::record::RECORD_FORMAT,
                    ruleset: game.id().to_string(),
                    config,
                    seats: setup.seats.iter().map(|s| s.name.clone()).collect(),
                    seed: setup.seed,
                    initial_digest: state.digest(),
                    log: Vec::new(),
                    outcome: None,
                    stand_ins: Vec::new(),
                    resumptions: Vec::new(),
                };
                let chain = DigestChain::new(&record.initial_digest);
                (state, record, chain)
            }
            Some(record) => {
                if record.format != arbiter_engine::record::RECORD_FORMAT {
                    return Err(ConfigError::new(format!(
                        "a record of format {} cannot be continued",
                        record.format
                    )));
                }
                let (state, chain) =
                    arbiter_engine::replay_on(game.as_ref(), &record, true, |_, _| {}).map_err(
                        |e| ConfigError::new(format!("the record does not replay: {e}")),
                    )?;
                (state, record, chain)
            }
        };

        let stand_in = match setup.stand_in.clone() {
            None => None,
            Some(stand_in) if setup.ruleset.bots.iter().any(|b| *b == stand_in.bot) => {
                Some(StandInPlan {
                    setup: stand_in,
                    ruleset: setup.ruleset.clone(),
                })
            }
            Some(stand_in) => {
                return Err(ConfigError::new(format!(
                    "the stand-in: {} has no bot named {:?} (it has {})",
                    game.id(),
                    stand_in.bot,
                    setup.ruleset.bots.join(", ")
                )))
            }
        };
        let mut players = Vec::with_capacity(setup.seats.len());
        for (seat, seat_setup) in setup.seats.iter().enumerate() {
            let player = match &seat_setup.kind {
                SeatKind::Remote => PlayerSetup::Remote,
                SeatKind::House { bot, seed } => {
                    let maker = BotMaker::House {
                        ruleset: setup.ruleset.clone(),
                        bot: bot.clone(),
                        seed: *seed,
                    };
                    let built = maker.build().ok_or_else(|| {
                        ConfigError::new(format!(
                            "seat {seat}: {} has no bot named {bot:?} (it has {})",
                            game.id(),
                            setup.ruleset.bots.join(", ")
                        ))
                    })?;
                    PlayerSetup::Bot(maker, built)
                }
                SeatKind::Program(program) => {
                    let maker = BotMaker::Program(program.clone());
                    let built = program.build();
                    PlayerSetup::Bot(maker, built)
                }
            };
            players.push((seat_setup.name.clone(), player));
        }
        let kinds: Arc<[PlayerKind]> = players
            .iter()
            .map(|(_, player)| match player {
                PlayerSetup::Remote => PlayerKind::Remote,
                PlayerSetup::Bot(..) => PlayerKind::Bot,
            })
            .collect();

        // Commands (and, in the task, bot replies) travel boxed, a pointer a slot: tokio
        // allocates a channel's first block of 32 slots with the channel, and every match
        // holds these two whether or not it ever has a bot.
        let (commands, command_queue) = mpsc::channel(COMMAND_QUEUE);
        let (finish, finished) = watch::channel(None);
        let clock = Clock {
            // A configuration that sets its own time per turn overrides the server's.
            per_decision: game
                .configured_deadline(&record.config)
                .unwrap_or(setup.deadline),
            time_bank: setup.time_bank,
            abandon_after: setup.abandon_after,
        };
        let mut task = MatchTask::new(
            setup.match_id,
            setup.ruleset,
            clock,
            setup.illegal_answer,
            state,
            record,
            chain,
            players,
            command_queue,
            sink.clone(),
            setup.instruments,
            stand_in,
        );
        if resuming {
            task.grant_resume_grace(setup.resume_grace);
        }
        let status = task.status_sender();
        let handle = MatchHandle::new(
            setup.match_id,
            kinds,
            commands,
            status.subscribe(),
            finished,
        );
        runtime.spawn(supervise(setup.match_id, task, sink, status, finish));
        Ok(handle)
    }
}

/// Run the match and publish how it ended. A panic inside the match (a ruleset defect)
/// ends this match as aborted; it never reaches the runtime or other matches.
async fn supervise(
    match_id: i64,
    task: MatchTask,
    sink: Arc<dyn MatchSink>,
    status: Arc<watch::Sender<MatchStatus>>,
    finish: watch::Sender<Finish>,
) {
    let mut task = Some(task);
    let run = async {
        match task.as_mut() {
            Some(task) => task.run().await,
            None => Err("the match task is gone".to_string()),
        }
    };
    let (ended, panicked) = match AssertUnwindSafe(run).catch_unwind().await {
        Ok(ended) => (ended, false),
        Err(panic) => (
            Err(format!(
                "the match task panicked: {}",
                crate::task::describe_panic(panic.as_ref())
            )),
            true,
        ),
    };
    let suspended = !panicked && task.as_ref().is_some_and(|task| task.is_suspended());
    if suspended {
        // Nobody is told anything: the match is not over, and goes on from its log.
        drop(task);
        tracing::debug!(match_id, "match suspended");
        status.send_modify(|status| status.phase = Phase::Suspended);
        finish.send_replace(Some(Err(crate::task::SUSPENDED.to_string())));
        return;
    }
    if !panicked {
        if let Some(task) = task.as_mut() {
            task.tell_late_attachments(&ended);
        }
        // As the match ends, its seats' and spectators' mailboxes go (their connections
        // learn they are released) before anyone hears how it ended.
        task = None;
    }
    match ended {
        // The task stored `Finished` itself, before telling anyone the outcome.
        Ok(record) => {
            status.send_modify(|status| status.phase = Phase::Finished);
            finish.send_replace(Some(Ok(Arc::new(record))));
        }
        Err(reason) => {
            tracing::error!(match_id, %reason, "match aborted");
            // A sink that cannot store the abort either has logged why; the match then
            // stays running in the store, and the next start goes on with it.
            let _ = sink
                .record(RecordEvent::Aborted {
                    match_id,
                    reason: reason.clone(),
                })
                .await;
            // The task's own ways out have told everyone already; after a panic its
            // seats and spectators are still held here, and hear it now.
            if let Some(mut task) = task.take() {
                task.tell_aborted(&reason);
            }
            status.send_modify(|status| status.phase = Phase::Aborted);
            finish.send_replace(Some(Err(reason)));
        }
    }
}

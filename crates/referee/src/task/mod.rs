//! The match task: the only owner of a match's state. It waits for whichever comes
//! first — a command from a handle, a bot's answer, the store taking a record event, or
//! the earliest deadline — and handles it to completion before looking again, so the
//! state never has two writers.
//!
//! The task's work is split by concern: `answers` applies, refuses and ejects;
//! `decisions` tracks who owes what by when; `audience` talks to seats and spectators;
//! `storing` holds messages until what they follow from is stored; `house` runs bots
//! on the blocking pool.
//!
//! Write first, announce after: handlers only queue what they would tell anyone, and a
//! message leaves only once the sink has stored every record event before it
//! (`storing`). A crash can lose a message, never a fact that a message announced.

mod answers;
mod audience;
mod decisions;
mod house;
mod stand_in;
mod storing;

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::record::DigestChain;
use arbiter_engine::{DynState, EventBatch, LogEntry, MatchRecord, Seat, Turn};
use arbiter_rulesets::{HouseBot, Ruleset};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{self, Instant};

use crate::command::Command;
use crate::instruments::Instruments;
use crate::mailbox::Mailbox;
use crate::messages::{LegalActions, ToSeat};
use crate::sink::{MatchSink, RecordEvent};
use crate::status::{MatchStatus, Phase, PlayerKind, SeatStatus};
use arbiter_engine::{IllegalAnswer, Policy};

use audience::{Connection, Outgoing};
use decisions::Decision;
pub(crate) use house::{describe_panic, BotMaker};
use house::{BotReply, HouseSeat};
pub(crate) use stand_in::StandInPlan;
use storing::Storing;

/// A seat's player as [`crate::Referee::start`] built it.
pub(crate) enum PlayerSetup {
    Remote,
    Bot(BotMaker, Box<dyn HouseBot>),
}

enum Player {
    /// The seat's current connection, if it has one.
    Remote(Option<Connection>),
    Bot(HouseSeat),
}

struct SeatSlot {
    name: String,
    player: Player,
    /// The decision this seat owes now, if any.
    owed: Option<Decision>,
    /// The seat's sealed answer for the current round is in.
    answered_sealed: bool,
    /// Why the referee removed this seat.
    ejected: Option<String>,
    /// What is left of the seat's time bank.
    bank: Duration,
    /// The turn whose decisions share one deadline, where the ruleset numbers turns.
    span: Option<TurnSpan>,
    /// Deadlines missed since the seat last answered itself.
    missed_in_a_row: u32,
    /// Since when a remote seat has had no connection (see `stand_in`).
    silent_since: Option<Instant>,
    /// The house bot playing this remote seat for its silent player, if one is.
    stand_in: Option<HouseSeat>,
    /// Added to the seat's next decision once: the grace of a resumed match.
    resume_grace: Duration,
}

impl SeatSlot {
    /// A remote seat without a connection now.
    fn is_disconnected(&self) -> bool {
        matches!(self.player, Player::Remote(None))
    }
}

/// One turn of a seat that decides several times a turn: its deadline runs from the
/// turn's start, and its overtime is charged to the bank once, however many actions.
#[derive(Debug, Clone, Copy)]
struct TurnSpan {
    turn: u64,
    started: Instant,
    deadline: Instant,
    /// Overtime already taken from the bank during this turn.
    charged: Duration,
}

/// A match's clock: time per decision, and the bank each seat starts with.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Clock {
    pub(crate) per_decision: Duration,
    pub(crate) time_bank: Duration,
    /// Missed deadlines in a row after which a seat has abandoned ([`crate::MatchSetup`]).
    pub(crate) abandon_after: Option<u32>,
}

pub(crate) struct MatchTask {
    match_id: i64,
    policy: Policy,
    clock: Clock,
    state: Box<dyn DynState>,
    record: MatchRecord,
    /// The record's digest chain, one link per log entry.
    chain: DigestChain,
    sink: Arc<dyn MatchSink>,
    seats: Vec<SeatSlot>,
    spectators: Vec<Arc<dyn Mailbox>>,
    /// The spectators' view as last sent (only kept while someone watches).
    spectator_view: Option<crate::messages::JsonText>,
    commands: mpsc::Receiver<Box<Command>>,
    commands_open: bool,
    bot_replies: mpsc::UnboundedReceiver<Box<BotReply>>,
    bot_sender: mpsc::UnboundedSender<Box<BotReply>>,
    status: Arc<watch::Sender<MatchStatus>>,
    next_decision: u64,
    /// The record events not yet known to be stored, with what follows from them.
    storing: Storing,
    /// Messages that follow from the latest record event (see `storing`).
    outgoing: Vec<Outgoing>,
    /// A command other than an answer that came while something waited for the store,
    /// handled once everything is told.
    held: Option<Command>,
    instruments: Option<Arc<dyn Instruments>>,
    /// Who stands in for a silent remote seat, if anyone does.
    stand_in: Option<StandInPlan>,
    /// Told to stop for now ([`Command::Suspend`]): the match ends here unfinished.
    suspended: bool,
}

/// Why a suspended match's task ended (its `Err`, told to nobody).
pub(crate) const SUSPENDED: &str = "the match is suspended: its server stopped, and it goes on from its stored log when a server resumes it";

impl MatchTask {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        match_id: i64,
        ruleset: Ruleset,
        clock: Clock,
        illegal_answer: IllegalAnswer,
        state: Box<dyn DynState>,
        record: MatchRecord,
        chain: DigestChain,
        players: Vec<(String, PlayerSetup)>,
        commands: mpsc::Receiver<Box<Command>>,
        sink: Arc<dyn MatchSink>,
        instruments: Option<Arc<dyn Instruments>>,
        stand_in: Option<StandInPlan>,
    ) -> Self {
        // A match continued from its record keeps the ejections its log holds.
        let ejected_in_log = |seat: usize| {
            record.log.iter().rev().find_map(|entry| match entry {
                LogEntry::Eject {
                    seat: ejected,
                    reason,
                    ..
                } if *ejected == seat => Some(reason.clone()),
                _ => None,
            })
        };
        let seats: Vec<SeatSlot> = players
            .into_iter()
            .enumerate()
            .map(|(seat, (name, player))| SeatSlot {
                name,
                player: match player {
                    PlayerSetup::Remote => Player::Remote(None),
                    PlayerSetup::Bot(maker, bot) => Player::Bot(HouseSeat::new(maker, bot)),
                },
                owed: None,
                answered_sealed: false,
                ejected: ejected_in_log(seat),
                bank: clock.time_bank,
                span: None,
                missed_in_a_row: 0,
                // A remote seat is silent until its player attaches.
                silent_since: Some(Instant::now()),
                stand_in: None,
                resume_grace: Duration::ZERO,
            })
            .collect();
        let (bot_sender, bot_replies) = mpsc::unbounded_channel();
        let policy = Policy {
            illegal_answer,
            ..ruleset.game.policy()
        };
        let initial = status_of(match_id, ruleset.id(), state.as_ref(), &seats, 0, 0);
        let mut task = MatchTask {
            match_id,
            policy,
            clock,
            state,
            chain,
            record,
            sink,
            seats,
            spectators: Vec::new(),
            spectator_view: None,
            commands,
            commands_open: true,
            bot_replies,
            bot_sender,
            status: Arc::new(watch::channel(initial).0),
            next_decision: 0,
            storing: Storing::default(),
            held: None,
            outgoing: Vec::new(),
            instruments,
            stand_in,
            suspended: false,
        };
        task.resume_stand_ins();
        task
    }

    pub(crate) fn status_sender(&self) -> Arc<watch::Sender<MatchStatus>> {
        self.status.clone()
    }

    /// Referee the match to its end and return the complete record, or why it could
    /// not go on.
    pub(crate) async fn run(&mut self) -> Result<MatchRecord, String> {
        let started = self.sink.record(RecordEvent::Started {
            match_id: self.match_id,
            record: Box::new(self.record.clone()),
        });
        self.wait_for(started);
        self.refresh_decisions();
        loop {
            // Nothing waits (what is queued leaves now), too much waits, or a command
            // that needs everything told: wait for the store.
            let waiting = self.storing.waiting();
            if waiting == 0 || waiting >= storing::MOST_WAITING || self.held.is_some() {
                if let Err(unstored) = self.deliver().await {
                    return Err(self.abort_unstored(unstored));
                }
            }
            if self.suspended {
                // Whatever was decided before is stored before the task lets go; a
                // store that cannot take it leaves the log where it was.
                let _ = self.deliver().await;
                return Err(SUSPENDED.to_string());
            }
            let turn = self.state.to_act();
            if turn.is_over() {
                return self.finish().await;
            }
            if turn.seats().is_empty() {
                return Err(format!(
                    "the ruleset names no seat to act after {} log entries",
                    self.record.log.len()
                ));
            }
            if let Some(command) = self.held.take() {
                self.on_command(command);
                continue;
            }
            let storing = self.storing.waiting() > 0;
            let wake = self
                .next_deadline()
                .unwrap_or_else(|| Instant::now() + self.clock.per_decision);
            tokio::select! {
                stored = self.storing.oldest(), if storing => {
                    if let Err(unstored) = self.oldest_stored(stored) {
                        return Err(self.abort_unstored(unstored));
                    }
                }
                command = self.commands.recv(), if self.commands_open => match command.map(|boxed| *boxed) {
                    Some(command @ Command::Act { .. }) => self.on_command(command),
                    Some(command) if storing => self.held = Some(command),
                    Some(command) => self.on_command(command),
                    // Every handle is gone: the match plays on by its deadlines.
                    None => self.commands_open = false,
                },
                Some(reply) = self.bot_replies.recv() => self.on_bot_reply(*reply),
                // Deadlines stand still while anything waits for the store.
                () = time::sleep_until(wake), if !storing => self.expire_due(),
            }
        }
    }

    fn on_command(&mut self, command: Command) {
        match command {
            Command::Attach {
                seat,
                connection,
                mailbox,
            } => self.attach(seat, connection, mailbox),
            Command::Detach { seat, connection } => self.detach(seat, connection),
            Command::Act { seat, action, step } => {
                let arrived = Instant::now();
                let recorded = self.storing.recorded();
                self.remote_answer(seat, action, step);
                // Timed only if it was taken: a refused answer records nothing.
                if self.storing.recorded() > recorded {
                    self.storing.answered_with_latest(arrived);
                }
            }
            Command::Eject { seat, reason } => {
                if seat < self.seats.len() {
                    self.eject(seat, reason);
                }
            }
            Command::Spectate { mailbox } => self.add_spectator(mailbox),
            // Taken only while nothing waits for the store (see `storing`): the
            // answer follows from the stored record.
            Command::Legal { seat, reply } => self.answer_legal(seat, reply),
            // Taken only once everything before is stored (see `storing`), so the
            // store holds every entry told to anyone; nothing more is decided.
            Command::Suspend => self.suspended = true,
        }
    }

    /// Whether the task ended because it was suspended, not aborted.
    pub(crate) fn is_suspended(&self) -> bool {
        self.suspended
    }

    /// The game is over: the outcome is stored, then everyone sees the final views (the
    /// rules may reveal secrets now) and the outcome, and every connection closes as the
    /// task ends. An outcome the store could not take is told to nobody: the match ends
    /// aborted instead.
    async fn finish(&mut self) -> Result<MatchRecord, String> {
        let outcome = self.state.outcome();
        self.record.outcome = outcome.clone();
        let finished = self.sink.record(RecordEvent::Finished {
            match_id: self.match_id,
            outcome: outcome.clone(),
            entries: self.record.log.len(),
        });
        self.wait_for(finished);
        if let Some(outcome) = &outcome {
            for (seat, reason) in outcome.ejected.iter().enumerate() {
                if let (Some(slot), Some(reason)) = (self.seats.get_mut(seat), reason) {
                    slot.ejected.get_or_insert_with(|| reason.clone());
                }
            }
        }
        self.send_views();
        if let Some(outcome) = outcome {
            self.send_all(&ToSeat::outcome(outcome, &self.record.seats));
        }
        if let Err(unstored) = self.deliver().await {
            return Err(self.abort_unstored(unstored));
        }
        self.publish_status();
        // The task is done with its record: it leaves whole, not copied.
        Ok(MatchRecord {
            log: std::mem::take(&mut self.record.log),
            ..self.record.clone()
        })
    }

    /// Seal `entry` with its digest (it produced `events`), append it to the record and
    /// hand it to the sink at once; what follows from it is told only once it is stored.
    fn log(&mut self, entry: LogEntry, events: &EventBatch, after: &Turn) {
        let over = after.is_over();
        let state = &self.state;
        let entry = self
            .chain
            .seal(entry, events.fingerprint(), over, || state.digest());
        let index = self.record.log.len();
        let stored = self.sink.record(RecordEvent::Entry {
            match_id: self.match_id,
            index,
            entry: entry.clone(),
        });
        self.wait_for(stored);
        self.record.log.push(entry);
    }

    /// A seat's legal actions now. Its own moves, from the state it is playing: they
    /// tell it nothing its view does not (its own hand, its own options).
    pub(super) fn answer_legal(&self, seat: Seat, reply: oneshot::Sender<LegalActions>) {
        let owes = self.seats.get(seat).is_some_and(|slot| slot.owed.is_some());
        let _ = reply.send(LegalActions {
            step: self.record.log.len(),
            actions: if owes {
                self.state.legal(seat)
            } else {
                Vec::new()
            },
        });
    }

    /// Publish the status, changed in place: once a move, so it reuses what it holds
    /// (names, the ruleset's id, the seat list) instead of building a new one each time,
    /// and wakes watchers only when something they can see changed.
    fn publish_status(&self) {
        self.publish_status_for(&self.state.to_act());
    }

    /// [`Self::publish_status`] with the state's turn, `turn`, already known.
    fn publish_status_for(&self, turn: &Turn) {
        let seats = &self.seats;
        let (step, spectators) = (self.record.log.len(), self.spectators.len());
        self.status
            .send_if_modified(|status| refresh_status(status, turn, seats, step, spectators));
    }
}

/// A running match's first status.
fn status_of(
    match_id: i64,
    ruleset: &str,
    state: &dyn DynState,
    seats: &[SeatSlot],
    step: usize,
    spectators: usize,
) -> MatchStatus {
    let mut status = MatchStatus {
        match_id,
        ruleset: ruleset.to_string(),
        seats: seats
            .iter()
            .map(|slot| SeatStatus {
                name: slot.name.clone(),
                player: PlayerKind::Remote,
                connected: false,
                owes_decision: false,
                ejected: None,
                stand_in: None,
            })
            .collect(),
        turn: Turn::Over,
        step,
        spectators,
        phase: Phase::Running,
    };
    refresh_status(&mut status, &state.to_act(), seats, step, spectators);
    status
}

/// Bring `status` up to date with the match; whether anything in it changed.
fn refresh_status(
    status: &mut MatchStatus,
    turn: &Turn,
    seats: &[SeatSlot],
    step: usize,
    spectators: usize,
) -> bool {
    let mut changed = update(&mut status.step, step) | update(&mut status.spectators, spectators);
    if status.turn != *turn {
        status.turn = turn.clone();
        changed = true;
    }
    for (shown, slot) in status.seats.iter_mut().zip(seats) {
        let (player, connected) = match &slot.player {
            Player::Remote(connection) => (PlayerKind::Remote, connection.is_some()),
            Player::Bot(_) => (PlayerKind::Bot, true),
        };
        changed |= update(&mut shown.player, player)
            | update(&mut shown.connected, connected)
            | update(&mut shown.owes_decision, slot.owed.is_some());
        if shown.ejected != slot.ejected {
            shown.ejected.clone_from(&slot.ejected);
            changed = true;
        }
        let stand_in = slot.stand_in.as_ref().map(|house| house.bot_name());
        if shown.stand_in.as_deref() != stand_in {
            shown.stand_in = stand_in.map(str::to_string);
            changed = true;
        }
    }
    changed
}

/// Set `field` to `value`; whether that changed it.
fn update<T: PartialEq>(field: &mut T, value: T) -> bool {
    let changed = *field != value;
    if changed {
        *field = value;
    }
    changed
}

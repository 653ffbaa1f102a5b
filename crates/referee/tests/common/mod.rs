//! Test helpers: a sink that keeps a replica of the match from its log (the same thing
//! any reader of the record could rebuild), drivers for remote seats that answer over
//! the handle in JSON, and the message stream an audience must receive.

#![allow(dead_code)]

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use arbiter_engine::record::DigestChain;
use arbiter_engine::{DynState, LogEntry, MatchRecord, Seat};
use arbiter_referee::{
    MatchHandle, MatchSetup, MatchSink, RecordEvent, Referee, SeatConnection, SeatSetup, Stored,
    ToSeat,
};
use arbiter_rulesets::Ruleset;
use serde_json::Value;
use tokio::sync::Notify;

/// Long enough that no test waits this long unless something is stuck.
pub const PATIENCE: Duration = Duration::from_secs(60);

pub fn ruleset(id: &str) -> Ruleset {
    arbiter_rulesets::find(id).unwrap_or_else(|| panic!("ruleset {id} is not shipped"))
}

/// House bots for a whole match of `ruleset` with its default configuration: three
/// seats where it allows three (the nearest count it allows otherwise), taking turns
/// through its own bots (not `mcts`, which thinks for seconds). Tests that mean "every
/// ruleset" loop over `arbiter_rulesets::all()` with this, so a new ruleset is covered
/// by its registration alone.
pub fn house_lineup(ruleset: &Ruleset) -> Vec<&'static str> {
    let config = ruleset.game.default_config();
    let counts = ruleset
        .game
        .seat_counts(&config)
        .expect("the default configuration is valid");
    let seats = 3.clamp(*counts.start(), *counts.end());
    let own: Vec<&'static str> = ruleset
        .bots
        .iter()
        .copied()
        .filter(|bot| *bot != arbiter_rulesets::MCTS)
        .collect();
    (0..seats).map(|seat| own[seat % own.len()]).collect()
}

/// Keeps every record event and a replica state rebuilt from the entries.
#[derive(Default)]
pub struct Mirror {
    inner: Mutex<MirrorState>,
    changed: Notify,
}

#[derive(Default)]
pub struct MirrorState {
    pub events: Vec<RecordEvent>,
    /// The replica and the number of entries applied to it.
    pub replica: Option<Box<dyn DynState>>,
    pub step: usize,
    /// The record's digest chain, followed entry by entry.
    pub chain: Option<DigestChain>,
}

impl MatchSink for Mirror {
    fn record(&self, event: RecordEvent) -> Stored {
        let mut inner = self.lock();
        match &event {
            RecordEvent::Started { record, .. } => {
                let game = arbiter_rulesets::registry()
                    .get(&record.ruleset)
                    .expect("a shipped ruleset");
                // A match taken over starts from the entries already in its record.
                let (state, chain) =
                    arbiter_engine::replay_on(game.as_ref(), record, true, |_, _| {})
                        .expect("the record's own entries replay");
                inner.replica = Some(state);
                inner.chain = Some(chain);
                inner.step = record.log.len();
            }
            RecordEvent::Entry { index, entry, .. } => {
                assert_eq!(*index, inner.step, "entries arrive in order, once each");
                let MirrorState { replica, chain, .. } = &mut *inner;
                let replica = replica.as_mut().expect("started first");
                let events = match entry {
                    LogEntry::Act { seat, action, .. } => replica
                        .apply(*seat, action)
                        .expect("recorded actions apply"),
                    LogEntry::Eject { seat, reason, .. } => replica.eject(*seat, reason),
                };
                let over = replica.to_act().is_over();
                let chain = chain.as_mut().expect("started first");
                let digest =
                    chain.digest_next(entry, events.fingerprint(), over, || replica.digest());
                assert_eq!(digest, entry.digest(), "the entry's digest");
                inner.step += 1;
            }
            RecordEvent::StandIn { .. }
            | RecordEvent::Finished { .. }
            | RecordEvent::Aborted { .. } => {}
        }
        inner.events.push(event);
        drop(inner);
        self.changed.notify_waiters();
        // The mirror keeps everything in memory at once.
        Stored::now()
    }
}

impl Mirror {
    pub fn lock(&self) -> MutexGuard<'_, MirrorState> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The log entries so far.
    pub fn entries(&self) -> Vec<LogEntry> {
        self.lock()
            .events
            .iter()
            .filter_map(|event| match event {
                RecordEvent::Entry { entry, .. } => Some(entry.clone()),
                _ => None,
            })
            .collect()
    }

    /// Wait (at most [`PATIENCE`]) until `done` holds for the recorded entries.
    pub async fn wait_for(&self, what: &str, done: impl Fn(&[LogEntry]) -> bool) -> Vec<LogEntry> {
        let wait = async {
            loop {
                let notified = self.changed.notified();
                let entries = self.entries();
                if done(&entries) {
                    return entries;
                }
                notified.await;
            }
        };
        tokio::time::timeout(PATIENCE, wait)
            .await
            .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
    }

    /// A copy of the replica after exactly the entries so far (waiting for the match
    /// to start, at most [`PATIENCE`]).
    pub async fn replica(&self) -> (usize, Box<dyn DynState>) {
        let wait = async {
            loop {
                let notified = self.changed.notified();
                {
                    let inner = self.lock();
                    if let Some(replica) = inner.replica.as_ref() {
                        return (inner.step, replica.clone_box());
                    }
                }
                notified.await;
            }
        };
        tokio::time::timeout(PATIENCE, wait)
            .await
            .unwrap_or_else(|_| panic!("timed out waiting for the match to start"))
    }
}

/// Start a match with a [`Mirror`] sink.
pub fn start(
    ruleset_id: &str,
    seed: u64,
    seats: Vec<SeatSetup>,
    deadline: Duration,
) -> (MatchHandle, Arc<Mirror>) {
    let mut setup = MatchSetup::new(7, ruleset(ruleset_id), seed, seats);
    setup.deadline = deadline;
    let mirror = Arc::new(Mirror::default());
    let handle = Referee::start(setup, mirror.clone()).expect("a valid setup");
    (handle, mirror)
}

/// Wait for the match's end, check the sink saw the same record, and check the record
/// replays with verification of every digest.
pub async fn finish(handle: &MatchHandle, mirror: &Mirror) -> MatchRecord {
    let record = tokio::time::timeout(PATIENCE, handle.wait())
        .await
        .expect("the match ends")
        .expect("the match finishes with a record");
    assert!(record.outcome.is_some(), "a finished match has an outcome");
    let registry = arbiter_rulesets::registry();
    registry
        .replay(&record, true)
        .expect("the record replays with verification");
    let inner = mirror.lock();
    assert!(matches!(
        inner.events.first(),
        Some(RecordEvent::Started { .. })
    ));
    match inner.events.last() {
        Some(RecordEvent::Finished {
            outcome, entries, ..
        }) => {
            assert_eq!(outcome, &record.outcome);
            assert_eq!(*entries, record.log.len());
        }
        other => panic!("the sink's last event is {other:?}"),
    }
    assert_eq!(inner.step, record.log.len());
    record
}

/// Answer every prompt for `seat` from the replica with the ruleset's bot `bot_name`, in
/// JSON over the handle, until the connection closes. Returns every message received.
pub async fn drive(
    mut connection: SeatConnection,
    handle: MatchHandle,
    mirror: Arc<Mirror>,
    bot_name: &'static str,
    bot_seed: u64,
) -> Vec<ToSeat> {
    let seat = connection.seat();
    let ruleset = ruleset(&handle.status().ruleset);
    let mut bot = ruleset.house_bot(bot_name, bot_seed).expect("a house bot");
    let mut received = Vec::new();
    while let Some(message) = connection.recv().await {
        // A prompt, or a refusal of an answer that raced with another seat's: answer
        // from the state as it is now, if the seat still owes a decision in it.
        if matches!(message, ToSeat::Prompt { .. } | ToSeat::Rejected { .. }) {
            let (_, replica) = mirror.replica().await;
            if replica.to_act().includes(seat) {
                let action = bot.decide(replica.as_ref(), seat).expect("a decision");
                // The match may end while we answer; that is fine.
                let _ = handle.act(seat, action).await;
            }
        }
        received.push(message);
    }
    received
}

/// Receive the next message that is not a prompt (or panic after [`PATIENCE`]).
pub async fn next_message(connection: &mut SeatConnection) -> ToSeat {
    tokio::time::timeout(PATIENCE, connection.recv())
        .await
        .expect("a message in time")
        .expect("the connection is open")
}

/// Rebuild the record's states from the start, calling `each` with the entry (None for
/// the initial state), its event batch and the state after it.
pub fn walk(
    record: &MatchRecord,
    mut each: impl FnMut(usize, Option<&LogEntry>, &arbiter_engine::EventBatch, &dyn DynState),
) {
    let game = arbiter_rulesets::registry()
        .get(&record.ruleset)
        .expect("a shipped ruleset");
    let mut state = game
        .new_state(&record.config, record.seats.len(), record.seed)
        .expect("the record's configuration");
    each(0, None, &Default::default(), state.as_ref());
    for (index, entry) in record.log.iter().enumerate() {
        let batch = match entry {
            LogEntry::Act { seat, action, .. } => state.apply(*seat, action).expect("replays"),
            LogEntry::Eject { seat, reason, .. } => state.eject(*seat, reason),
        };
        each(index + 1, Some(entry), &batch, state.as_ref());
    }
}

/// The messages an audience attached after `from` entries must receive, prompts and
/// refusals aside: `joined`, its view, then for each step any ejection, its share of
/// the events and its view when it changed, and finally the outcome.
pub fn expected_stream(
    record: &MatchRecord,
    match_id: i64,
    audience: Option<Seat>,
    from: usize,
) -> Vec<ToSeat> {
    let mut expected = Vec::new();
    let mut last_view: Option<Value> = None;
    walk(record, |step, entry, batch, state| {
        if step < from {
            return;
        }
        if step == from {
            expected.push(ToSeat::Joined {
                match_id,
                ruleset: record.ruleset.clone(),
                seat: audience,
                seats: record.seats.clone(),
                config: record.config.clone(),
            });
        } else {
            if let Some(LogEntry::Eject { seat, reason, .. }) = entry {
                expected.push(ToSeat::Ejected {
                    seat: *seat,
                    reason: reason.clone(),
                });
            }
            if let Some(events) = batch.for_audience(audience) {
                expected.push(ToSeat::Events {
                    events: arbiter_referee::JsonText::written(events.clone()),
                });
            }
        }
        let view = state.view(audience);
        if last_view.as_ref() != Some(&view) {
            expected.push(ToSeat::View {
                step,
                // Written from the tree: the referee's text, written straight from the
                // typed view, must be the same.
                view: arbiter_referee::JsonText::from_value(&view),
            });
            last_view = Some(view);
        }
    });
    if let Some(outcome) = &record.outcome {
        expected.push(ToSeat::Outcome {
            outcome: outcome.clone(),
            headline: outcome.headline(&record.seats),
        });
    }
    expected
}

/// Every message until the connection closes.
pub async fn drain_seat(connection: &mut SeatConnection) -> Vec<ToSeat> {
    let mut all = Vec::new();
    while let Some(message) = tokio::time::timeout(PATIENCE, connection.recv())
        .await
        .expect("the connection closes in time")
    {
        all.push(message);
    }
    all
}

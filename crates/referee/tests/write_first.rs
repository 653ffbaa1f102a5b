//! Write first, announce after: nothing that follows from a record event (a view,
//! events, a prompt, the outcome) reaches a seat or a spectator before the sink says the
//! event is stored. The sink here holds every event until the test lets it through, the
//! way a slow or stalled store would; a `kill -9` in that window can lose a message but
//! never a fact a message announced.
//!
//! On paused time: while the referee waits for the store, the runtime is idle and a
//! `timeout` elapses at once, which proves that nothing was sent.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter_engine::LogEntry;
use arbiter_referee::{
    Instruments, MatchHandle, MatchSetup, MatchSink, RecordEvent, Referee, SeatConnection,
    SeatError, SeatSetup, Stored, StoredSignal, ToSeat, Unstored,
};
use serde_json::json;
use tokio::sync::Notify;

/// Keeps each event with its "stored" signal until released.
#[derive(Default)]
struct HeldSink {
    held: Mutex<Vec<(RecordEvent, StoredSignal)>>,
    arrived: Notify,
}

impl MatchSink for HeldSink {
    fn record(&self, event: RecordEvent) -> Stored {
        let (done, stored) = Stored::pair();
        self.held
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((event, done));
        self.arrived.notify_one();
        stored
    }
}

impl HeldSink {
    /// Wait for the next event and store it (let it through); returns it.
    async fn release_next(&self) -> RecordEvent {
        self.answer_next(Ok(())).await
    }

    /// Wait for the next event and answer it with `result`; returns it.
    async fn answer_next(&self, result: Result<(), Unstored>) -> RecordEvent {
        loop {
            let next = {
                let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
                (!held.is_empty()).then(|| held.remove(0))
            };
            if let Some((event, done)) = next {
                let _ = done.send(result);
                return event;
            }
            self.arrived.notified().await;
        }
    }
}

/// A two-seat T&E match (`ann`, `bob`) numbered `id` on a held sink, its setup
/// adjusted by `adjust`.
fn tae_match(id: i64, adjust: impl FnOnce(&mut MatchSetup)) -> (MatchHandle, Arc<HeldSink>) {
    let ruleset = arbiter_rulesets::find("tae").expect("tae");
    let seats = vec![SeatSetup::remote("ann"), SeatSetup::remote("bob")];
    let mut setup = MatchSetup::new(id, ruleset, 8, seats);
    adjust(&mut setup);
    let sink = Arc::new(HeldSink::default());
    let handle = Referee::start(setup, sink.clone()).expect("a valid setup");
    (handle, sink)
}

/// A T&E match numbered `id` whose deadline lies far beyond the virtual time the
/// tests let pass (nobody is ejected for the store's slowness), and its first seat.
fn patient_tae_match(id: i64) -> (MatchHandle, Arc<HeldSink>, usize) {
    let (handle, sink) = tae_match(id, |setup| {
        setup.deadline = Duration::from_secs(24 * 3600);
    });
    let first = handle.status().turn.seats()[0];
    (handle, sink, first)
}

/// Nothing arrives on `connection` while the referee waits.
async fn silent(connection: &mut SeatConnection, while_: &str) {
    let got = tokio::time::timeout(Duration::from_secs(5), connection.recv()).await;
    assert!(got.is_err(), "{while_}: {got:?}");
}

/// Messages until (and including) the first one `until` accepts.
async fn read_until(
    connection: &mut SeatConnection,
    until: impl Fn(&ToSeat) -> bool,
) -> Vec<ToSeat> {
    let mut seen = Vec::new();
    loop {
        let message = tokio::time::timeout(Duration::from_secs(60), connection.recv())
            .await
            .expect("a message")
            .expect("open");
        let done = until(&message);
        seen.push(message);
        if done {
            return seen;
        }
    }
}

#[tokio::test(start_paused = true)]
async fn nothing_is_told_before_the_store_has_it() {
    let (handle, sink, first) = patient_tae_match(3);
    let second = 1 - first;
    let mut a = handle.attach(first).await.unwrap();
    let mut b = handle.attach(second).await.unwrap();

    // The match's start is not stored yet: nobody hears anything.
    silent(&mut a, "before the start is stored").await;
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Started { .. }
    ));
    read_until(&mut a, |m| matches!(m, ToSeat::Prompt { .. })).await;
    read_until(&mut b, |m| matches!(m, ToSeat::View { .. })).await;

    // An accepted action: neither seat hears of it until its entry is stored.
    handle.act(first, json!("pass")).await.unwrap();
    silent(&mut b, "before the entry is stored").await;
    silent(&mut a, "before the entry is stored").await;
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Entry { index: 0, .. }
    ));
    read_until(&mut b, |m| matches!(m, ToSeat::Prompt { .. })).await;
    read_until(&mut a, |m| matches!(m, ToSeat::View { .. })).await;

    // The end: bob resigns. The ejection entry, then the finished match (with its
    // outcome) must both be stored before anyone is told the outcome.
    handle.resign(second).await.unwrap();
    silent(&mut a, "before the ejection is stored").await;
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Entry { index: 1, .. }
    ));
    // The stored ejection is told; the outcome is not, until it is stored too.
    read_until(&mut a, |m| matches!(m, ToSeat::Ejected { .. })).await;
    while let Ok(message) = tokio::time::timeout(Duration::from_secs(5), a.recv()).await {
        let message = message.expect("open");
        assert!(
            matches!(message, ToSeat::Events { .. } | ToSeat::View { .. }),
            "before the outcome is stored: {message:?}"
        );
    }
    match sink.release_next().await {
        RecordEvent::Finished { outcome, .. } => assert!(outcome.is_some()),
        other => panic!("expected the finished record, got {other:?}"),
    }
    let told = read_until(&mut a, |m| matches!(m, ToSeat::Outcome { .. })).await;
    let Some(ToSeat::Outcome { headline, .. }) = told.last() else {
        unreachable!()
    };
    let winner = ["ann", "bob"][first];
    assert!(
        headline.starts_with(&format!("{winner} wins")),
        "{headline}"
    );
}

/// Counts the decisions the referee reports handled.
#[derive(Default)]
struct HandledDecisions(Mutex<usize>);

impl HandledDecisions {
    fn count(&self) -> usize {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Instruments for HandledDecisions {
    fn decision_handled(&self, _took: Duration) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) += 1;
    }
}

/// Both seats of a sealed round answer at once: the second answer is taken while the
/// first one's entry waits for the store (both entries reach the sink before either is
/// stored, so a store can commit them together), and still nothing that follows from
/// an entry is told before it is stored: the next round's prompts wait for the second.
/// Each answer counts as handled when what follows from it is told, one by one.
#[tokio::test(start_paused = true)]
async fn a_sealed_rounds_second_answer_is_taken_while_the_first_is_stored() {
    let ruleset = arbiter_rulesets::find("spacegoo").expect("spacegoo");
    let seats = vec![SeatSetup::remote("ann"), SeatSetup::remote("bob")];
    let mut setup = MatchSetup::new(7, ruleset, 8, seats);
    setup.deadline = Duration::from_secs(24 * 3600);
    let handled = Arc::new(HandledDecisions::default());
    setup.instruments = Some(handled.clone());
    let sink = Arc::new(HeldSink::default());
    let handle = Referee::start(setup, sink.clone()).expect("a valid setup");
    let mut a = handle.attach(0).await.unwrap();
    let mut b = handle.attach(1).await.unwrap();
    sink.release_next().await;
    read_until(&mut a, |m| matches!(m, ToSeat::Prompt { .. })).await;
    read_until(&mut b, |m| matches!(m, ToSeat::Prompt { .. })).await;

    handle.act(0, json!("nop")).await.unwrap();
    handle.act(1, json!("nop")).await.unwrap();
    let both_entries_held = async {
        loop {
            let held = sink.held.lock().unwrap_or_else(|p| p.into_inner()).len();
            if held >= 2 {
                break;
            }
            sink.arrived.notified().await;
        }
    };
    // On paused time the bound passes at once if the referee waits for the store.
    tokio::time::timeout(Duration::from_secs(60), both_entries_held)
        .await
        .expect("the second answer is taken before the first entry is stored");
    silent(&mut a, "before either entry is stored").await;
    silent(&mut b, "before either entry is stored").await;
    assert_eq!(
        handled.count(),
        0,
        "no decision is handled before it is told"
    );
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Entry { index: 0, .. }
    ));
    // What the first entry decided may be told now (ann's view shows her command);
    // the round the second one closed may not.
    for (who, connection) in [("ann", &mut a), ("bob", &mut b)] {
        while let Ok(message) =
            tokio::time::timeout(Duration::from_secs(5), connection.recv()).await
        {
            let message = message.expect("open");
            assert!(
                matches!(
                    message,
                    ToSeat::Events { .. } | ToSeat::View { step: 1, .. }
                ),
                "{who}, before the second entry is stored: {message:?}"
            );
        }
    }
    assert_eq!(
        handled.count(),
        1,
        "ann's answer, told before bob's is stored"
    );
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Entry { index: 1, .. }
    ));
    read_until(&mut a, |m| matches!(m, ToSeat::Prompt { .. })).await;
    read_until(&mut b, |m| matches!(m, ToSeat::Prompt { .. })).await;
    assert_eq!(handled.count(), 2, "both answers handled");
}

/// A seat whose connection is attached while the match is ending (its attachment queued
/// behind the finished record, which the store has not yet taken) is still told the
/// outcome: servers attach a match's seats one after another, and a fast opponent can
/// end a game in between. Afterwards attaching is refused as the match being over.
#[tokio::test(start_paused = true)]
async fn a_seat_attached_while_the_match_ends_is_told_the_outcome() {
    let (handle, sink, first) = patient_tae_match(5);
    let second = 1 - first;
    let mut a = handle.attach(first).await.unwrap();
    sink.release_next().await;
    read_until(&mut a, |m| matches!(m, ToSeat::Prompt { .. })).await;

    // The second seat resigns before its connection is attached; the ejection is stored,
    // the finished record is held, and only then does the connection come.
    handle.resign(second).await.unwrap();
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Entry { index: 0, .. }
    ));
    read_until(&mut a, |m| matches!(m, ToSeat::Ejected { .. })).await;
    let mut late = handle.attach(second).await.expect("queued behind the end");
    silent(&mut late, "before the outcome is stored").await;
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Finished { .. }
    ));
    read_until(&mut a, |m| matches!(m, ToSeat::Outcome { .. })).await;
    let told = read_until(&mut late, |m| matches!(m, ToSeat::Outcome { .. })).await;
    assert_eq!(told.len(), 1, "only the outcome: {told:?}");
    assert!(
        matches!(handle.attach(second).await, Err(SeatError::MatchOver)),
        "attaching after the end is refused"
    );
}

/// A store that gives up on an entry (it stayed unreachable past the writer's patience):
/// nobody is told the move it records, every seat and spectator is told the match stops
/// and why, and the match ends aborted, never finished.
#[tokio::test(start_paused = true)]
async fn an_entry_the_store_gives_up_on_aborts_the_match_and_is_never_told() {
    let (handle, sink, first) = patient_tae_match(4);
    let second = 1 - first;
    let mut a = handle.attach(first).await.unwrap();
    let mut b = handle.attach(second).await.unwrap();
    let mut watcher = handle.spectate().await.unwrap();
    sink.release_next().await;
    read_until(&mut a, |m| matches!(m, ToSeat::Prompt { .. })).await;
    read_until(&mut b, |m| matches!(m, ToSeat::View { .. })).await;
    loop {
        let message = tokio::time::timeout(Duration::from_secs(60), watcher.recv()).await;
        if matches!(
            message.expect("a message").expect("open"),
            ToSeat::View { .. }
        ) {
            break;
        }
    }

    handle.act(first, json!("pass")).await.unwrap();
    let refused = Unstored("the database is unreachable".to_string());
    assert!(matches!(
        sink.answer_next(Err(refused)).await,
        RecordEvent::Entry { index: 0, .. }
    ));
    let mut spectator_told = Vec::new();
    while !matches!(spectator_told.last(), Some(ToSeat::Aborted { .. })) {
        let message = tokio::time::timeout(Duration::from_secs(60), watcher.recv()).await;
        spectator_told.push(message.expect("a message").expect("open"));
    }
    for (who, told) in [
        (
            "ann",
            read_until(&mut a, |m| matches!(m, ToSeat::Aborted { .. })).await,
        ),
        (
            "bob",
            read_until(&mut b, |m| matches!(m, ToSeat::Aborted { .. })).await,
        ),
        ("spectator", spectator_told),
    ] {
        assert_eq!(
            told.len(),
            1,
            "{who} heard something of the unstored move first: {told:?}"
        );
        let ToSeat::Aborted { reason } = &told[0] else {
            unreachable!()
        };
        assert!(
            reason.contains("could not be recorded") && reason.contains("unreachable"),
            "{who}: {reason}"
        );
    }
    // The sink is asked to mark the match aborted; the match ends without an outcome.
    match sink.release_next().await {
        RecordEvent::Aborted { reason, .. } => assert!(reason.contains("unreachable")),
        other => panic!("expected the abort, got {other:?}"),
    }
    let ended = handle.wait().await;
    assert!(ended.is_err(), "{ended:?}");
}

/// An outcome the store cannot take is not told: the match ends aborted.
#[tokio::test(start_paused = true)]
async fn an_outcome_the_store_gives_up_on_is_never_told() {
    let (handle, sink, first) = patient_tae_match(5);
    let mut a = handle.attach(first).await.unwrap();
    sink.release_next().await;
    read_until(&mut a, |m| matches!(m, ToSeat::Prompt { .. })).await;
    handle.resign(1 - first).await.unwrap();
    sink.release_next().await; // the ejection's entry
    match sink
        .answer_next(Err(Unstored("the disk is full".to_string())))
        .await
    {
        RecordEvent::Finished { .. } => {}
        other => panic!("expected the finished record, got {other:?}"),
    }
    let told = read_until(&mut a, |m| matches!(m, ToSeat::Aborted { .. })).await;
    assert!(
        !told.iter().any(|m| matches!(m, ToSeat::Outcome { .. })),
        "an unstored outcome was told: {told:?}"
    );
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Aborted { .. }
    ));
    assert!(handle.wait().await.is_err());
}

/// Time spent waiting for the store is not the seat's: a store that takes longer than
/// the whole deadline to answer costs the next seat nothing.
#[tokio::test(start_paused = true)]
async fn a_slow_store_does_not_eat_the_next_seats_deadline() {
    let (handle, sink) = tae_match(6, |setup| {
        setup.deadline = Duration::from_secs(10);
        setup.time_bank = Duration::ZERO;
    });
    let first = handle.status().turn.seats()[0];
    let second = 1 - first;
    let mut a = handle.attach(first).await.unwrap();
    let mut b = handle.attach(second).await.unwrap();
    sink.release_next().await;
    read_until(&mut a, |m| matches!(m, ToSeat::Prompt { .. })).await;
    read_until(&mut b, |m| matches!(m, ToSeat::View { .. })).await;

    handle.act(first, json!("pass")).await.unwrap();
    // The store holds the entry three deadlines long (virtual time).
    let entry = {
        let next = sink.held.lock().unwrap_or_else(|p| p.into_inner()).len();
        if next == 0 {
            sink.arrived.notified().await;
        }
        tokio::time::sleep(Duration::from_secs(30)).await;
        sink.release_next().await
    };
    assert!(matches!(entry, RecordEvent::Entry { index: 0, .. }));
    let told = read_until(&mut b, |m| matches!(m, ToSeat::Prompt { .. })).await;
    let Some(ToSeat::Prompt { deadline_ms, .. }) = told.last() else {
        unreachable!()
    };
    // The prompt was queued before the wait, so it may state less time than it gets.
    assert!(*deadline_ms <= 10_000, "{deadline_ms}");
    // 8 s after the prompt, within the deadline counted from it: no timeout was
    // applied for bob (it would be the next entry), and bob's own answer is taken.
    tokio::time::sleep(Duration::from_secs(8)).await;
    let early: Vec<RecordEvent> = sink
        .held
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .map(|(event, _)| event.clone())
        .collect();
    assert!(
        early.is_empty(),
        "bob's clock ran while the store held the entry: {early:?}"
    );
    handle.act(second, json!("pass")).await.unwrap();
    assert!(matches!(
        sink.release_next().await,
        RecordEvent::Entry { index: 1, entry: LogEntry::Act { seat, .. }, .. } if seat == second
    ));
}

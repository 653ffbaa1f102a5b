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

use arbiter_referee::{
    MatchSetup, MatchSink, RecordEvent, Referee, SeatConnection, SeatSetup, Stored, ToSeat,
};
use serde_json::json;
use tokio::sync::{oneshot, Notify};

/// Keeps each event with its "stored" signal until released.
#[derive(Default)]
struct HeldSink {
    held: Mutex<Vec<(RecordEvent, oneshot::Sender<()>)>>,
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
        loop {
            let next = {
                let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
                (!held.is_empty()).then(|| held.remove(0))
            };
            if let Some((event, done)) = next {
                let _ = done.send(());
                return event;
            }
            self.arrived.notified().await;
        }
    }
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
    let ruleset = arbiter_rulesets::find("tae").expect("tae");
    let seats = vec![SeatSetup::remote("ann"), SeatSetup::remote("bob")];
    let mut setup = MatchSetup::new(3, ruleset, 8, seats);
    // Far beyond the virtual time the silent windows let pass.
    setup.deadline = Duration::from_secs(24 * 3600);
    let sink = Arc::new(HeldSink::default());
    let handle = Referee::start(setup, sink.clone()).expect("a valid setup");
    let first = handle.status().turn.seats()[0];
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
        RecordEvent::Finished { record, .. } => assert!(record.outcome.is_some()),
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

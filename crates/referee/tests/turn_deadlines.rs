//! Deadlines that cover a turn, and seats that abandon a match. On paused (virtual)
//! time, so every figure is exact.
//!
//! - Space Crack spends command points one action at a time; its deadline runs from the
//!   start of the seat's turn and covers them all (a fresh deadline per action would let
//!   one player stretch a turn to points × deadline). `turn_timeout_secs`, where set, is
//!   that deadline.
//! - A seat that misses its deadline on `abandon_after` decisions in a row has
//!   abandoned: it is ejected with the reason recorded. Answering once resets the count.

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::LogEntry;
use arbiter_referee::{MatchSetup, Referee, SeatConnection, SeatSetup, ToSeat};
use serde_json::{json, Value};

/// The next prompt's time left for the decision, in milliseconds.
async fn deadline_ms(connection: &mut SeatConnection) -> u64 {
    loop {
        if let ToSeat::Prompt { deadline_ms, .. } = crate::common::next_message(connection).await {
            return deadline_ms;
        }
    }
}

fn spacecrack(config: Value, deadline: Duration, abandon_after: Option<u32>) -> MatchSetup {
    let seats = vec![SeatSetup::remote("ann"), SeatSetup::remote("bob")];
    let mut setup = MatchSetup::new(1, crate::common::ruleset("spacecrack"), 3, seats);
    setup.config = config;
    setup.deadline = deadline;
    setup.abandon_after = abandon_after;
    setup
}

/// A legal action of `seat` that spends a command point (not `end_turn`).
async fn an_order(handle: &arbiter_referee::MatchHandle, seat: usize) -> Value {
    let legal = handle.legal(seat).await.expect("the seat is in the match");
    legal
        .actions
        .into_iter()
        .find(|a| a["type"] != "end_turn")
        .expect("a move or a build")
}

#[tokio::test(start_paused = true)]
async fn spacecrack_one_deadline_covers_a_seats_whole_turn() {
    let setup = spacecrack(json!({}), Duration::from_secs(10), None);
    let mirror = Arc::new(crate::common::Mirror::default());
    let handle = Referee::start(setup, mirror.clone()).expect("a valid setup");
    let mut ann = handle.attach(0).await.expect("attach");
    let _bob = handle.attach(1).await.expect("attach");

    assert_eq!(deadline_ms(&mut ann).await, 10_000);
    tokio::time::sleep(Duration::from_secs(4)).await;
    let order = an_order(&handle, 0).await;
    handle.act(0, order).await.expect("sent");
    // Still ann's turn: the same deadline, 6 s left, not a fresh 10 s.
    assert_eq!(deadline_ms(&mut ann).await, 6_000);
    // Silent from here: the turn times out 10 s after it started.
    tokio::time::sleep(Duration::from_millis(5_999)).await;
    let timed_out = |entries: &[LogEntry]| {
        entries.iter().any(|e| {
            matches!(e, LogEntry::Act { seat: 0, action, .. } if action["type"] == "turn_timeout")
        })
    };
    assert!(
        !timed_out(&mirror.entries()),
        "not before the turn's deadline"
    );
    tokio::time::sleep(Duration::from_millis(2)).await;
    mirror.wait_for("ann's turn timeout", timed_out).await;
    handle.resign(0).await.expect("resign");
    handle.resign(1).await.ok();
}

#[tokio::test(start_paused = true)]
async fn spacecrack_turn_timeout_secs_is_the_deadline() {
    let setup = spacecrack(
        json!({"turn_timeout_secs": 7}),
        Duration::from_secs(100),
        None,
    );
    let handle = Referee::start(setup, Arc::new(crate::common::Mirror::default())).expect("valid");
    let mut ann = handle.attach(0).await.expect("attach");
    assert_eq!(deadline_ms(&mut ann).await, 7_000);
    handle.resign(0).await.expect("resign");
}

/// Seat 0 stays silent; seat 1 ends each turn at once. Returns the log once seat 0 is
/// ejected (or panics if it never is).
async fn silent_until_ejected(abandon_after: u32, answer_on_turn: Option<u64>) -> Vec<LogEntry> {
    let setup = spacecrack(json!({}), Duration::from_secs(5), Some(abandon_after));
    let mirror = Arc::new(crate::common::Mirror::default());
    let handle = Referee::start(setup, mirror.clone()).expect("a valid setup");
    let mut ann = handle.attach(0).await.expect("attach");
    let mut bob = handle.attach(1).await.expect("attach");
    let mut turn = 0;
    loop {
        // Each turn: bob ends his at once; ann answers only on `answer_on_turn`.
        deadline_ms(&mut bob).await;
        handle
            .act(1, json!({"type": "end_turn"}))
            .await
            .expect("sent");
        turn += 1;
        deadline_ms(&mut ann).await;
        if Some(turn) == answer_on_turn {
            handle
                .act(0, json!({"type": "end_turn"}))
                .await
                .expect("sent");
            continue;
        }
        assert!(turn < 12, "seat 0 was never ejected");
        // Ann's deadline passes (5 s); the next turn starts, and bob answers at once.
        tokio::time::sleep(Duration::from_secs(6)).await;
        let entries = mirror.entries();
        if entries
            .iter()
            .any(|e| matches!(e, LogEntry::Eject { seat: 0, .. }))
        {
            return entries;
        }
    }
}

fn misses_before_ejection(entries: &[LogEntry]) -> (usize, String) {
    let mut misses = 0;
    for entry in entries {
        match entry {
            LogEntry::Act {
                seat: 0, action, ..
            } if action["type"] == "turn_timeout" => misses += 1,
            LogEntry::Act { seat: 0, .. } => misses = 0,
            LogEntry::Eject {
                seat: 0, reason, ..
            } => return (misses, reason.clone()),
            _ => {}
        }
    }
    panic!("no ejection in {entries:?}");
}

#[tokio::test(start_paused = true)]
async fn a_seat_that_misses_three_deadlines_in_a_row_has_abandoned() {
    let entries = silent_until_ejected(3, None).await;
    // Two misses play the ruleset's timeout action; the third abandons the seat.
    let (misses, reason) = misses_before_ejection(&entries);
    assert_eq!(misses, 2);
    assert_eq!(reason, "abandoned the match: missed 3 deadlines in a row");
}

#[tokio::test(start_paused = true)]
async fn answering_once_resets_the_count_of_missed_deadlines() {
    // Misses turns 1 and 2, answers on turn 3, then misses 4, 5 and is out on 6.
    let entries = silent_until_ejected(3, Some(3)).await;
    let (misses, reason) = misses_before_ejection(&entries);
    assert_eq!(
        misses, 2,
        "two misses after the answer, then the third ejects"
    );
    assert!(reason.starts_with("abandoned the match"), "{reason}");
    let timeouts = entries
        .iter()
        .filter(|e| matches!(e, LogEntry::Act { seat: 0, action, .. } if action["type"] == "turn_timeout"))
        .count();
    assert_eq!(timeouts, 4, "turns 1, 2, 4 and 5 timed out");
}

//! Each seat has a time bank (as lichess, Board Game Arena and Kaggle give): a decision
//! may run past the per-decision time until the bank is spent, what it used is gone,
//! and every prompt says how much is left. On paused (virtual) time, so the figures are
//! exact.

use std::time::Duration;

use arbiter_referee::{MatchSetup, Referee, SeatSetup, ToSeat};
use serde_json::json;

const PER_DECISION: Duration = Duration::from_secs(10);
const BANK: Duration = Duration::from_secs(30);

/// The next prompt's (deadline_ms, time_bank_ms).
async fn prompt(connection: &mut arbiter_referee::SeatConnection) -> (u64, u64) {
    loop {
        if let ToSeat::Prompt {
            deadline_ms,
            time_bank_ms,
            ..
        } = crate::common::next_message(connection).await
        {
            return (deadline_ms, time_bank_ms);
        }
    }
}

/// `seat` gives an order (so the game, where a whole round of passing ends it, goes
/// on), answers the prompt for its second order with a pass, and its turn is over.
async fn order_then_pass(
    handle: &arbiter_referee::MatchHandle,
    connection: &mut arbiter_referee::SeatConnection,
    seat: usize,
) {
    let legal = handle.legal(seat).await.expect("in the match");
    let order = legal
        .actions
        .into_iter()
        .find(|a| a != &json!("pass"))
        .expect("an order");
    handle.act(seat, order).await.unwrap();
    prompt(connection).await;
    handle.act(seat, json!("pass")).await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn the_bank_counts_down_in_the_prompts_and_then_runs_out() {
    let seats = vec![SeatSetup::remote("ann"), SeatSetup::remote("bob")];
    let mut setup = MatchSetup::new(1, crate::common::ruleset("tae"), 4, seats);
    setup.deadline = PER_DECISION;
    setup.time_bank = BANK;
    let mirror = std::sync::Arc::new(crate::common::Mirror::default());
    let handle = Referee::start(setup, mirror.clone()).expect("a valid setup");
    let first = handle.status().turn.seats()[0];
    let second = 1 - first;
    let mut a = handle.attach(first).await.unwrap();
    let mut b = handle.attach(second).await.unwrap();

    // A fresh seat: the per-decision time plus the whole bank.
    assert_eq!(prompt(&mut a).await, (40_000, 30_000));
    // It thinks 15 s, 5 s into its bank, then ends its turn.
    tokio::time::sleep(Duration::from_secs(15)).await;
    handle.act(first, json!("pass")).await.unwrap();
    // The other seat's bank is untouched.
    assert_eq!(prompt(&mut b).await, (40_000, 30_000));
    order_then_pass(&handle, &mut b, second).await;
    // Back to the first seat: 25 s of bank left.
    assert_eq!(prompt(&mut a).await, (35_000, 25_000));
    // Within the per-decision time nothing is drawn from the bank.
    tokio::time::sleep(Duration::from_secs(9)).await;
    handle.act(first, json!("pass")).await.unwrap();
    assert_eq!(prompt(&mut b).await, (40_000, 30_000));
    order_then_pass(&handle, &mut b, second).await;
    assert_eq!(prompt(&mut a).await, (35_000, 25_000));
    // (What a seat is told is stored first: the log is complete up to this prompt.)
    let before = mirror.entries().len();
    // Silent to the end: the deadline is the per-decision time plus the bank, and then
    // the ruleset's timeout policy acts (T&E passes for the seat), bank spent.
    tokio::time::sleep(Duration::from_millis(34_999)).await;
    assert_eq!(
        mirror.entries().len(),
        before,
        "nothing happens before the deadline"
    );
    let (deadline, bank) = prompt(&mut b).await;
    assert_eq!((deadline, bank), (40_000, 30_000));
    order_then_pass(&handle, &mut b, second).await;
    assert_eq!(prompt(&mut a).await, (10_000, 0), "the bank is spent");
}

//! Answers that name their decision: an `act` may carry the `step` of the prompt it
//! answers, and an answer to a decision that is closed (late, or sent twice) is refused
//! as `stale_answer` and never applied to the seat's next decision. Answers that name no
//! step keep working as before.

use std::time::Duration;

use crate::common::{next_message, start};
use arbiter_engine::LogEntry;
use arbiter_referee::{SeatConnection, SeatSetup, ToSeat};
use serde_json::json;

const LONG: Duration = Duration::from_secs(30);

/// Skip messages until a prompt arrives; its step.
async fn next_prompt(connection: &mut SeatConnection) -> usize {
    loop {
        if let ToSeat::Prompt { step, .. } = next_message(connection).await {
            return step;
        }
    }
}

async fn next_refusal(connection: &mut SeatConnection) -> String {
    loop {
        if let ToSeat::Rejected { code, .. } = next_message(connection).await {
            return code;
        }
    }
}

/// T&E gives a seat two actions a turn: a repeated first answer must not become the
/// turn's second action.
#[tokio::test]
async fn a_repeated_tae_answer_is_not_the_turns_second_action() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bo")];
    let (handle, mirror) = start("tae", 21, seats, LONG);
    let (_, fresh) = mirror.replica().await;
    let seat = fresh.to_act().seats()[0];
    let mut connection = handle.attach(seat).await.expect("attach");
    let first = next_prompt(&mut connection).await;
    assert_eq!(first, 0);
    let legal = handle.legal(seat).await.expect("legal");
    // Not `pass`, which ends the whole turn.
    let answer = legal
        .actions
        .iter()
        .find(|action| **action != json!("pass"))
        .expect("a placement")
        .clone();
    handle
        .act_at(seat, answer.clone(), Some(first))
        .await
        .expect("sent");
    mirror.wait_for("the first action", |e| e.len() == 1).await;
    let second = next_prompt(&mut connection).await;
    assert_eq!(second, 1, "the turn's second decision");

    // The same answer again, naming the first prompt: refused, nothing applied.
    handle
        .act_at(seat, answer.clone(), Some(first))
        .await
        .expect("sent");
    assert_eq!(next_refusal(&mut connection).await, "stale_answer");
    // A step the match has not reached is refused too.
    handle
        .act_at(seat, json!("pass"), Some(99))
        .await
        .expect("sent");
    assert_eq!(next_refusal(&mut connection).await, "bad_step");
    assert_eq!(mirror.entries().len(), 1);
    assert!(handle.status().seats[seat].owes_decision);

    // The answer to the open decision is taken.
    handle
        .act_at(seat, json!("pass"), Some(second))
        .await
        .expect("sent");
    let entries = mirror.wait_for("the second action", |e| e.len() == 2).await;
    assert!(matches!(&entries[1], LogEntry::Act { action, .. } if *action == json!("pass")));
}

/// Spacegoo rounds are sealed: both seats answer the same step. A second command in the
/// round that names its step is only refused (without a step the reference's rule
/// disqualifies), and a late one never lands in the next round.
#[tokio::test]
async fn a_late_spacegoo_command_never_lands_in_the_next_round() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bo")];
    let (handle, mirror) = start("spacegoo", 22, seats, LONG);
    let mut ada = handle.attach(0).await.expect("attach");
    let mut bo = handle.attach(1).await.expect("attach");
    let round = next_prompt(&mut ada).await;
    assert_eq!(next_prompt(&mut bo).await, round);

    handle
        .act_at(0, json!("nop"), Some(round))
        .await
        .expect("sent");
    mirror.wait_for("ada's command", |e| e.len() == 1).await;
    handle
        .act_at(0, json!("nop"), Some(round))
        .await
        .expect("sent");
    assert_eq!(next_refusal(&mut ada).await, "stale_answer");

    // Bo's prompt named the round's step; the log moved on with ada's sealed command,
    // and bo's answer is still the round's.
    handle
        .act_at(1, json!("nop"), Some(round))
        .await
        .expect("sent");
    let next = next_prompt(&mut ada).await;
    assert!(next > round + 1, "a new round: step {next}");
    let entries = mirror.entries();
    assert!(
        !entries
            .iter()
            .any(|entry| matches!(entry, LogEntry::Eject { .. })),
        "nobody was disqualified: {entries:?}"
    );
    let before = entries.len();

    // Ada's late command from the first round: refused, not this round's answer.
    handle
        .act_at(0, json!("nop"), Some(round))
        .await
        .expect("sent");
    assert_eq!(next_refusal(&mut ada).await, "stale_answer");
    assert_eq!(mirror.entries().len(), before);
    assert!(handle.status().seats[0].owes_decision);
}

//! Wrong answers: malformed and illegal ones are refused with the ruleset's code (and
//! cost a Q-Game seat its place), out-of-turn ones are refused and change nothing, a
//! second sealed command disqualifies in spacegoo, and the referee's own timeout action
//! cannot be sent by a seat.

use std::time::Duration;

use crate::common::{finish, next_message, start};
use arbiter_engine::LogEntry;
use arbiter_referee::{SeatConnection, SeatError, SeatSetup, ToSeat};
use serde_json::json;

const LONG: Duration = Duration::from_secs(30);

/// Skip messages until a prompt arrives.
async fn until_prompt(connection: &mut SeatConnection) {
    while !matches!(next_message(connection).await, ToSeat::Prompt { .. }) {}
}

async fn next_refusal(connection: &mut SeatConnection) -> (String, String) {
    loop {
        if let ToSeat::Rejected { code, message } = next_message(connection).await {
            return (code, message);
        }
    }
}

#[tokio::test]
async fn tae_refuses_malformed_and_illegal_answers_and_lets_the_seat_retry() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bo")];
    let (handle, mirror) = start("tae", 11, seats, LONG);
    let (_, fresh) = mirror.replica().await;
    let seat = fresh.to_act().seats()[0];
    let mut connection = handle.attach(seat).await.expect("attach");
    until_prompt(&mut connection).await;

    handle
        .act(seat, json!({"no such": "action"}))
        .await
        .expect("sent");
    let (code, _) = next_refusal(&mut connection).await;
    assert_eq!(code, "malformed_action");

    // Well-formed, but off the board.
    let off_board = json!({"bomb": {"at": [99, 99]}});
    handle.act(seat, off_board).await.expect("sent");
    let (code, message) = next_refusal(&mut connection).await;
    assert_ne!(code, "malformed_action", "{message}");
    assert_ne!(code, "not_your_turn", "{message}");

    // Nothing was recorded, and the seat still owes its decision.
    assert!(mirror.entries().is_empty());
    let status = handle.status();
    assert!(status.seats[seat].owes_decision);
    assert_eq!(status.seats[seat].ejected, None);

    let (_, replica) = mirror.replica().await;
    let legal = replica
        .legal(seat)
        .into_iter()
        .next()
        .expect("a legal action");
    handle.act(seat, legal.clone()).await.expect("sent");
    let entries = mirror
        .wait_for("the accepted action", |e| !e.is_empty())
        .await;
    assert!(
        matches!(&entries[0], LogEntry::Act { seat: s, action, .. } if *s == seat && *action == legal)
    );
}

#[tokio::test]
async fn qgame_ejects_a_seat_for_an_illegal_request() {
    let seats = vec![
        SeatSetup::remote("ada"),
        SeatSetup::remote("bo"),
        SeatSetup::house("dag", "dag", 1),
    ];
    let (handle, mirror) = start("qgame", 12, seats, LONG);
    let (_, fresh) = mirror.replica().await;
    let seat = fresh.to_act().seats()[0];
    let mut connection = handle.attach(seat).await.expect("attach");
    until_prompt(&mut connection).await;

    let far_away = json!([{"coordinate": {"row": 50, "column": 50}, "1tile": {"color": "red", "shape": "star"}}]);
    handle.act(seat, far_away).await.expect("sent");
    let (code, message) = next_refusal(&mut connection).await;
    let reason = loop {
        if let ToSeat::Ejected { seat: s, reason } = next_message(&mut connection).await {
            assert_eq!(s, seat);
            break reason;
        }
    };
    assert_eq!(reason, format!("illegal request: {code}: {message}"));
    let entries = mirror.wait_for("the ejection", |e| !e.is_empty()).await;
    assert!(
        matches!(&entries[0], LogEntry::Eject { seat: s, reason: r, .. } if *s == seat && *r == reason)
    );

    // An ejected seat is told so when it answers again.
    handle.act(seat, json!("pass")).await.expect("sent");
    let (code, _) = next_refusal(&mut connection).await;
    assert_eq!(code, "ejected");
}

#[tokio::test]
async fn qgame_ejects_a_seat_for_a_malformed_answer() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::house("dag", "dag", 1)];
    let (handle, mirror) = start("qgame", 13, seats, LONG);
    let (_, fresh) = mirror.replica().await;
    let seat = fresh.to_act().seats()[0];
    handle
        .act(seat, json!({"take": "turn"}))
        .await
        .expect("sent");
    let entries = mirror.wait_for("the ejection", |e| !e.is_empty()).await;
    match &entries[0] {
        LogEntry::Eject {
            seat: s, reason, ..
        } => {
            assert_eq!(*s, seat);
            assert!(
                reason.starts_with("illegal request: malformed_action"),
                "{reason}"
            );
        }
        other => panic!("expected an ejection, got {other:?}"),
    }
    finish(&handle, &mirror).await;
}

#[tokio::test]
async fn out_of_turn_answers_are_refused_and_change_nothing() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bo")];
    let (handle, mirror) = start("qgame", 14, seats, LONG);
    let (_, fresh) = mirror.replica().await;
    let owing = fresh.to_act().seats()[0];
    let other = 1 - owing;
    let mut connection = handle.attach(other).await.expect("attach");
    // A move that would be legal for the seat that owes the decision.
    let legal = fresh.legal(owing).into_iter().next().expect("legal");
    handle.act(other, legal).await.expect("sent");
    let (code, _) = next_refusal(&mut connection).await;
    assert_eq!(code, "not_your_turn");
    let (step, replica) = mirror.replica().await;
    assert_eq!(step, 0);
    assert_eq!(replica.digest(), fresh.digest());
    let status = handle.status();
    assert_eq!(status.step, 0);
    assert!(status.seats[owing].owes_decision);
    assert!(!status.seats[other].owes_decision);
    assert!(status.seats.iter().all(|seat| seat.ejected.is_none()));
}

#[tokio::test]
async fn the_handle_refuses_seats_that_do_not_exist_or_are_bots() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::house("dag", "dag", 1)];
    let (handle, _mirror) = start("qgame", 15, seats, LONG);
    assert_eq!(
        handle.act(1, json!("pass")).await,
        Err(SeatError::NotRemote(1))
    );
    assert_eq!(
        handle.act(2, json!("pass")).await,
        Err(SeatError::NoSuchSeat(2))
    );
    assert_eq!(handle.attach(1).await.err(), Some(SeatError::NotRemote(1)));
    assert_eq!(handle.attach(7).await.err(), Some(SeatError::NoSuchSeat(7)));
    assert_eq!(handle.resign(9).await, Err(SeatError::NoSuchSeat(9)));
}

#[tokio::test]
async fn spacegoo_disqualifies_a_second_command_in_a_round() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bo")];
    let (handle, mirror) = start("spacegoo", 16, seats, LONG);
    let mut connection = handle.attach(0).await.expect("attach");
    until_prompt(&mut connection).await;
    handle.act(0, json!("nop")).await.expect("sent");
    mirror.wait_for("the first command", |e| e.len() == 1).await;
    handle.act(0, json!("nop")).await.expect("sent");
    let (code, _) = next_refusal(&mut connection).await;
    assert_eq!(code, "more_than_one_answer");
    let record = finish(&handle, &mirror).await;
    assert!(matches!(
        record.log.last(),
        Some(LogEntry::Eject { seat: 0, reason, .. }) if reason == arbiter_spacegoo::reasons::MORE_THAN_ONE_COMMAND
    ));
    assert_eq!(record.outcome.expect("outcome").ranks, vec![2, 1]);
}

#[tokio::test]
async fn spacecrack_seats_cannot_send_the_referees_timeout_action() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bo")];
    let (handle, mirror) = start("spacecrack", 17, seats, LONG);
    let mut connection = handle.attach(0).await.expect("attach");
    until_prompt(&mut connection).await;
    handle
        .act(0, json!({"type": "turn_timeout"}))
        .await
        .expect("sent");
    let (code, _) = next_refusal(&mut connection).await;
    assert_eq!(code, "reserved_action");
    assert!(mirror.entries().is_empty());
    // Its own way to stop is accepted.
    handle
        .act(0, json!({"type": "end_turn"}))
        .await
        .expect("sent");
    mirror.wait_for("end_turn", |e| e.len() == 1).await;
}

#[tokio::test]
async fn a_resignation_is_recorded_and_the_match_goes_on() {
    let seats = vec![
        SeatSetup::remote("ada"),
        SeatSetup::house("random#2", "random", 2),
        SeatSetup::house("random#3", "random", 3),
    ];
    let (handle, mirror) = start("tae", 18, seats, LONG);
    handle.resign(0).await.expect("resign");
    let record = finish(&handle, &mirror).await;
    let resignations = record
        .log
        .iter()
        .filter(|entry| matches!(entry, LogEntry::Eject { seat: 0, reason, .. } if reason == "resigned"))
        .count();
    assert_eq!(resignations, 1);
    assert_eq!(
        record.outcome.expect("outcome").ejected[0].as_deref(),
        Some("resigned")
    );
    // After the end nothing more is accepted.
    assert_eq!(
        handle.act(0, json!("pass")).await,
        Err(SeatError::MatchOver)
    );
}

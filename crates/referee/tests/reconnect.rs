//! A disconnected seat keeps its place and its deadline; attaching again resumes it
//! with `joined`, its view and the prompt with the time left. A stale connection's
//! disconnect never cuts off the connection that replaced it.

use std::time::Duration;

use crate::common::{next_message, start};
use arbiter_engine::LogEntry;
use arbiter_referee::{SeatSetup, ToSeat};

const DEADLINE: Duration = Duration::from_secs(5);

/// On virtual time: the 200 ms spent disconnected are exactly 200 ms of the deadline.
#[tokio::test(start_paused = true)]
async fn reconnecting_resumes_with_view_and_remaining_deadline() {
    let seats = vec![
        SeatSetup::remote("ada"),
        SeatSetup::house("random", "random", 1),
    ];
    let (handle, mirror) = start("tae", 31, seats, DEADLINE);
    let (_, fresh) = mirror.replica().await;
    let seat = fresh.to_act().seats()[0];
    assert_eq!(seat, 0, "the remote seat starts in this setup");

    let mut first = handle.attach(seat).await.expect("attach");
    let ToSeat::Joined {
        seat: joined_seat,
        seats,
        ..
    } = next_message(&mut first).await
    else {
        panic!("joined first");
    };
    assert_eq!(joined_seat, Some(seat));
    assert_eq!(seats, vec!["ada".to_string(), "random".to_string()]);
    let ToSeat::View {
        view: first_view, ..
    } = next_message(&mut first).await
    else {
        panic!("then the view");
    };
    assert_eq!(first_view.to_value(), fresh.view(Some(seat)));
    let ToSeat::Prompt {
        deadline_ms: first_deadline,
        ..
    } = next_message(&mut first).await
    else {
        panic!("then the prompt");
    };
    first.detach().await;
    let mut status = handle.watch_status();
    tokio::time::timeout(
        crate::common::PATIENCE,
        status.wait_for(|s| !s.seats[seat].connected),
    )
    .await
    .expect("the disconnect is seen")
    .expect("the match runs");

    tokio::time::sleep(Duration::from_millis(200)).await;
    let status = handle.status();
    assert!(
        status.seats[seat].owes_decision,
        "the seat keeps its decision"
    );
    assert_eq!(status.step, 0);

    let mut second = handle.attach(seat).await.expect("reattach");
    assert!(matches!(
        next_message(&mut second).await,
        ToSeat::Joined { .. }
    ));
    let ToSeat::View { view, step } = next_message(&mut second).await else {
        panic!("the view again");
    };
    assert_eq!((step, &view), (0, &first_view));
    let ToSeat::Prompt { deadline_ms, .. } = next_message(&mut second).await else {
        panic!("the prompt again");
    };
    assert!(
        deadline_ms + 200 <= first_deadline,
        "{deadline_ms} ms left of {first_deadline}"
    );
    assert!(handle.status().seats[seat].connected);

    let legal = fresh.legal(seat).into_iter().next().expect("legal");
    handle.act(seat, legal.clone()).await.expect("sent");
    let entries = mirror
        .wait_for("the resumed answer", |e| !e.is_empty())
        .await;
    assert!(matches!(&entries[0], LogEntry::Act { seat: 0, action, .. } if *action == legal));
}

#[tokio::test]
async fn a_replaced_connection_ends_and_its_drop_does_not_detach_the_new_one() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bo")];
    let (handle, _mirror) = start("spacegoo", 32, seats, DEADLINE);
    let mut old = handle.attach(1).await.expect("attach");
    let mut new = handle.attach(1).await.expect("attach again");
    // The old stream ends after what was already sent to it.
    let mut old_messages = Vec::new();
    while let Some(message) = tokio::time::timeout(crate::common::PATIENCE, old.recv())
        .await
        .expect("the old connection closes")
    {
        old_messages.push(message);
    }
    assert!(matches!(old_messages.first(), Some(ToSeat::Joined { .. })));
    // Dropping queues the old connection's detach at once, and the referee takes
    // commands in order: it is handled before the action below, whose answer
    // therefore shows its effect.
    drop(old);
    assert!(matches!(
        next_message(&mut new).await,
        ToSeat::Joined { .. }
    ));
    handle
        .act(1, serde_json::json!({"bad": 1}))
        .await
        .expect("sent");
    loop {
        if let ToSeat::Rejected { code, .. } = next_message(&mut new).await {
            assert_eq!(code, "malformed_action");
            assert!(handle.status().seats[1].connected);
            break;
        }
    }
}

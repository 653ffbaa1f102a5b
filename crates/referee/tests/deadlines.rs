//! A seat that stays silent past its deadline gets its ruleset's timeout policy: Q-Game
//! ejects, T&E acts for it, Space Crack ends its turn, spacegoo disqualifies it (and
//! calls the game a draw when both seats are silent). The reason is always recorded.

use std::time::{Duration, Instant};

use crate::common::{finish, next_message, start};
use arbiter_engine::{LogEntry, TimeoutPolicy, Turn};
use arbiter_referee::{SeatSetup, ToSeat};

const SHORT: Duration = Duration::from_millis(80);

/// The first seat to act in a fresh game of `ruleset` with `seats` seats and `seed`.
fn first_to_act(ruleset: &str, seats: usize, seed: u64) -> usize {
    let game = crate::common::ruleset(ruleset).game;
    let state = game
        .new_state(&game.default_config(), seats, seed)
        .expect("default config");
    state.to_act().seats()[0]
}

#[tokio::test]
async fn qgame_ejects_a_silent_seat_with_the_reason_recorded() {
    let seed = 5;
    let silent = first_to_act("qgame", 3, seed);
    let seats = (0..3)
        .map(|seat| {
            if seat == silent {
                SeatSetup::remote("silent")
            } else {
                SeatSetup::house(format!("dag#{seat}"), "dag", seat as u64)
            }
        })
        .collect();
    let (handle, mirror) = start("qgame", seed, seats, SHORT);
    let mut connection = handle.attach(silent).await.expect("attach");
    let asked = Instant::now();
    let mut saw_prompt = false;
    let reason = loop {
        match next_message(&mut connection).await {
            ToSeat::Prompt {
                deadline_ms, turn, ..
            } => {
                assert!(deadline_ms <= SHORT.as_millis() as u64);
                assert_eq!(turn, Turn::One(silent));
                saw_prompt = true;
            }
            ToSeat::Ejected { seat, reason } if seat == silent => break reason,
            _ => {}
        }
    };
    assert!(saw_prompt, "the seat was prompted before it was ejected");
    assert!(asked.elapsed() >= SHORT, "ejected only after the deadline");
    assert_eq!(reason, "missed the per-call time limit");

    let record = finish(&handle, &mirror).await;
    assert_eq!(
        record.log[0],
        LogEntry::Eject {
            seat: silent,
            reason: reason.clone(),
            digest: record.log[0].digest().to_string(),
        }
    );
    let outcome = record.outcome.expect("outcome");
    assert_eq!(outcome.ejected[silent].as_deref(), Some(reason.as_str()));
    assert_eq!(
        handle.status().seats[silent].ejected.as_deref(),
        Some(reason.as_str())
    );
}

#[tokio::test]
async fn tae_acts_for_a_silent_seat_with_the_default_action() {
    let seed = 9;
    let silent = first_to_act("tae", 2, seed);
    let seats = (0..2)
        .map(|seat| {
            if seat == silent {
                SeatSetup::remote("silent")
            } else {
                SeatSetup::house("random", "random", 1)
            }
        })
        .collect();
    let (handle, mirror) = start("tae", seed, seats, SHORT);
    let entries = mirror
        .wait_for("the first timeout", |entries| !entries.is_empty())
        .await;
    let game = crate::common::ruleset("tae").game;
    let fresh = game
        .new_state(&game.default_config(), 2, seed)
        .expect("state");
    let TimeoutPolicy::Act(default_action) = fresh.on_timeout(silent) else {
        panic!("tae acts for a silent seat");
    };
    match &entries[0] {
        LogEntry::Act { seat, action, .. } => {
            assert_eq!(*seat, silent);
            assert_eq!(action, &default_action);
        }
        other => panic!("expected the default action, got {other:?}"),
    }
    // The silent seat stays in the game; let it go so the bot finishes quickly.
    handle.resign(silent).await.expect("resign");
    let record = finish(&handle, &mirror).await;
    assert!(record.log.iter().any(|entry| matches!(
        entry,
        LogEntry::Eject { seat, reason, .. } if *seat == silent && reason == "resigned"
    )));
}

#[tokio::test]
async fn spacecrack_ends_the_turn_of_a_silent_seat() {
    let seats = vec![
        SeatSetup::remote("silent"),
        SeatSetup::house("random", "random", 1),
    ];
    let (handle, mirror) = start("spacecrack", 3, seats, SHORT);
    let entries = mirror
        .wait_for("the turn timeout", |entries| {
            entries
                .iter()
                .any(|entry| matches!(entry, LogEntry::Act { seat: 0, .. }))
        })
        .await;
    let index = entries
        .iter()
        .position(|entry| matches!(entry, LogEntry::Act { seat: 0, .. }))
        .expect("found");
    let LogEntry::Act { action, .. } = &entries[index] else {
        unreachable!()
    };
    assert_eq!(action, &serde_json::json!({"type": "turn_timeout"}));

    // Replayed up to just before and just after: the seat's turn is over.
    let game = crate::common::ruleset("spacecrack").game;
    let mut state = game.new_state(&game.default_config(), 2, 3).expect("state");
    for entry in &entries[..index] {
        if let LogEntry::Act { seat, action, .. } = entry {
            state.apply(*seat, action).expect("replays");
        }
    }
    let turn_before = state.view(None)["turn"].clone();
    if let LogEntry::Act { seat, action, .. } = &entries[index] {
        state.apply(*seat, action).expect("replays");
    }
    let ended = !state.to_act().includes(0) || state.view(None)["turn"] != turn_before;
    assert!(ended, "the silent seat's turn ended");

    handle.resign(0).await.expect("resign");
    finish(&handle, &mirror).await;
}

#[tokio::test]
async fn spacegoo_disqualifies_a_silent_seat_and_the_other_wins() {
    let seats = vec![
        SeatSetup::remote("silent"),
        SeatSetup::house("random", "random", 1),
    ];
    let (handle, mirror) = start("spacegoo", 4, seats, SHORT);
    let record = finish(&handle, &mirror).await;
    let last = record.log.last().expect("entries");
    match last {
        LogEntry::Eject { seat, reason, .. } => {
            assert_eq!(*seat, 0);
            assert_eq!(reason, arbiter_spacegoo::reasons::NO_COMMAND);
        }
        other => panic!("expected a disqualification, got {other:?}"),
    }
    let outcome = record.outcome.expect("outcome");
    assert_eq!(outcome.ranks, vec![2, 1]);
    assert_eq!(
        outcome.ejected[0].as_deref(),
        Some(arbiter_spacegoo::reasons::NO_COMMAND)
    );
    assert_eq!(outcome.ejected[1], None);
}

#[tokio::test]
async fn spacegoo_two_silent_seats_draw() {
    let seats = vec![SeatSetup::remote("a"), SeatSetup::remote("b")];
    let (handle, mirror) = start("spacegoo", 4, seats, SHORT);
    let record = finish(&handle, &mirror).await;
    assert_eq!(record.log.len(), 2, "{:?}", record.log);
    assert!(record
        .log
        .iter()
        .all(|entry| matches!(entry, LogEntry::Eject { reason, .. } if reason == arbiter_spacegoo::reasons::NO_COMMAND)));
    let outcome = record.outcome.expect("outcome");
    assert_eq!(outcome.ranks, vec![1, 1], "{}", outcome.summary);
}

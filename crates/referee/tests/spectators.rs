//! Spectators receive exactly the spectators' projection: their view (never a seat's
//! hand) and their share of each step's events, then the outcome.

use std::time::Duration;

use crate::common::{expected_stream, finish, start, walk};
use arbiter_referee::{SeatSetup, ToSeat};

async fn watch(ruleset: &str, bots: &[&str], seed: u64) {
    let seats = bots
        .iter()
        .enumerate()
        .map(|(seat, bot)| SeatSetup::house(format!("{bot}#{seat}"), *bot, seat as u64))
        .collect();
    let (handle, mirror) = start(ruleset, seed, seats, Duration::from_secs(20));
    let mut spectator = handle.spectate().await.expect("spectate");
    let mut received = Vec::new();
    while let Some(message) = tokio::time::timeout(crate::common::PATIENCE, spectator.recv())
        .await
        .expect("the spectator's stream ends")
    {
        received.push(message);
    }
    let record = finish(&handle, &mirror).await;
    let from = match received.get(1) {
        Some(ToSeat::View { step, .. }) => *step,
        other => panic!("{other:?} after joined"),
    };
    assert!(matches!(received[0], ToSeat::Joined { seat: None, .. }));
    assert_eq!(received, expected_stream(&record, 7, None, from));
    assert!(received
        .iter()
        .all(|m| !matches!(m, ToSeat::Prompt { .. } | ToSeat::Rejected { .. })));

    // The spectators' view hides what each seat alone may see, at every step.
    let spectator_views: Vec<(usize, serde_json::Value)> = received
        .iter()
        .filter_map(|m| match m {
            ToSeat::View { step, view } => Some((*step, view.to_value())),
            _ => None,
        })
        .collect();
    walk(&record, |step, _, _, state| {
        let over = state.to_act().is_over();
        for (_, view) in spectator_views.iter().filter(|(s, _)| *s == step) {
            for seat in 0..record.seats.len() {
                if !over {
                    assert_ne!(
                        view,
                        &state.view(Some(seat)),
                        "{ruleset}: step {step} shows seat {seat}'s view"
                    );
                }
            }
        }
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn qgame_spectators_see_no_hands() {
    watch("qgame", &["dag", "ldasg"], 41).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tae_spectators_see_no_hands() {
    watch("tae", &["random", "greedy", "random"], 42).await;
}

#[tokio::test]
async fn a_spectator_of_a_finished_match_is_refused() {
    let seats = vec![
        SeatSetup::house("a", "random", 1),
        SeatSetup::house("b", "random", 2),
    ];
    let (handle, mirror) = start("spacegoo", 43, seats, Duration::from_secs(20));
    finish(&handle, &mirror).await;
    assert_eq!(
        handle.spectate().await.err(),
        Some(arbiter_referee::SeatError::MatchOver)
    );
}

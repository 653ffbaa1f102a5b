//! Remote seats driven over the handle in JSON (a bot deciding on a replica rebuilt from
//! the record as it grows), mixed with house bots, play whole
//! matches of every ruleset. Each remote seat receives exactly its own projection:
//! `joined`, its views, its share of every step's events, ejections and the outcome.

use std::time::Duration;

use crate::common::{drive, expected_stream, finish, house_lineup, start};
use arbiter_referee::{SeatSetup, ToSeat};

const DEADLINE: Duration = Duration::from_secs(20);

async fn play(ruleset: &str, bot: &'static str, remote: &[bool], seed: u64) {
    let seats = remote
        .iter()
        .enumerate()
        .map(|(seat, &remote)| {
            if remote {
                SeatSetup::remote(format!("remote#{seat}"))
            } else {
                SeatSetup::house(format!("{bot}#{seat}"), bot, seed + seat as u64)
            }
        })
        .collect();
    let (handle, mirror) = start(ruleset, seed, seats, DEADLINE);
    let mut drivers = Vec::new();
    for (seat, _) in remote.iter().enumerate().filter(|(_, &remote)| remote) {
        let connection = handle.attach(seat).await.expect("attach");
        drivers.push((
            seat,
            tokio::spawn(drive(
                connection,
                handle.clone(),
                mirror.clone(),
                bot,
                100 + seat as u64,
            )),
        ));
    }
    let record = finish(&handle, &mirror).await;
    for (seat, driver) in drivers {
        let received = driver.await.expect("the driver ends with the match");
        assert!(
            received.iter().any(|m| matches!(m, ToSeat::Prompt { .. })),
            "{ruleset}: seat {seat} was prompted"
        );
        let from = match received.get(1) {
            Some(ToSeat::View { step, .. }) => *step,
            other => panic!("{ruleset}: seat {seat} got {other:?} after joined"),
        };
        let projected: Vec<ToSeat> = received
            .into_iter()
            .filter(|m| !matches!(m, ToSeat::Prompt { .. } | ToSeat::Rejected { .. }))
            .collect();
        let expected = expected_stream(&record, 7, Some(seat), from);
        assert_eq!(projected.len(), expected.len(), "{ruleset}: seat {seat}");
        for (index, (got, want)) in projected.iter().zip(&expected).enumerate() {
            assert_eq!(got, want, "{ruleset}: seat {seat}, message {index}");
        }
    }
    // Remote seats answered every decision themselves: no timeouts, no ejections.
    assert!(
        record
            .log
            .iter()
            .all(|entry| matches!(entry, arbiter_engine::LogEntry::Act { .. })),
        "{ruleset}: {:?}",
        record.outcome
    );
}

/// Every shipped ruleset, its seats remote but the second (a house bot there), or all
/// remote where it has two seats.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rulesets_remote_seats_play_to_the_end() {
    for (seed, shipped) in (21..).zip(arbiter_rulesets::all()) {
        let lineup = house_lineup(&shipped);
        let remote: Vec<bool> = (0..lineup.len())
            .map(|seat| lineup.len() == 2 || seat != 1)
            .collect();
        play(shipped.id(), lineup[0], &remote, seed).await;
    }
}

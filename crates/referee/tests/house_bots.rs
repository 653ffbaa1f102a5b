//! Whole matches of house bots, one per shipped ruleset: each ends, and its record replays with
//! every digest verified; the sink saw every entry as it happened.

use std::time::Duration;

use crate::common::{finish, house_lineup, start};
use arbiter_referee::{Phase, SeatSetup};

/// Bots answer in microseconds; a generous deadline means none of them times out.
const DEADLINE: Duration = Duration::from_secs(20);

async fn play(ruleset: &str, bots: &[&str], seed: u64) {
    let seats = bots
        .iter()
        .enumerate()
        .map(|(seat, bot)| {
            SeatSetup::house(format!("{bot}#{}", seat + 1), *bot, seed + seat as u64)
        })
        .collect();
    let (handle, mirror) = start(ruleset, seed, seats, DEADLINE);
    let record = finish(&handle, &mirror).await;
    assert_eq!(record.ruleset, ruleset);
    let names: Vec<String> = bots
        .iter()
        .enumerate()
        .map(|(seat, bot)| format!("{bot}#{}", seat + 1))
        .collect();
    assert_eq!(record.seats, names);
    assert!(!record.log.is_empty());
    let outcome = record.outcome.as_ref().expect("an outcome");
    // Nobody was late, so nobody was ejected by the referee.
    assert!(
        record
            .log
            .iter()
            .all(|entry| matches!(entry, arbiter_engine::LogEntry::Act { .. })),
        "{ruleset}: unexpected ejection in {:?}",
        outcome.ejected
    );
    let status = handle.status();
    assert_eq!(status.phase, Phase::Finished);
    assert_eq!(status.step, record.log.len());
    assert!(status.seats.iter().all(|seat| !seat.owes_decision));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_rulesets_house_bots_play_to_the_end() {
    for (seed, shipped) in (1..).zip(arbiter_rulesets::all()) {
        play(shipped.id(), &house_lineup(&shipped), seed).await;
    }
}

#[tokio::test]
async fn a_bad_setup_is_refused_with_a_reason() {
    use arbiter_referee::{DiscardSink, MatchSetup, Referee};
    use std::sync::Arc;
    let qgame = crate::common::ruleset("qgame");
    let unknown_bot = MatchSetup::new(
        1,
        qgame.clone(),
        1,
        vec![
            SeatSetup::house("a", "random", 1),
            SeatSetup::house("b", "no-such-bot", 2),
        ],
    );
    let error = Referee::start(unknown_bot, Arc::new(DiscardSink)).expect_err("unknown bot");
    assert!(error.to_string().contains("no-such-bot"), "{error}");

    let too_many = MatchSetup::new(
        1,
        qgame.clone(),
        1,
        (0..9).map(|i| SeatSetup::remote(format!("p{i}"))).collect(),
    );
    assert!(Referee::start(too_many, Arc::new(DiscardSink)).is_err());

    let mut bad_config = MatchSetup::new(
        1,
        qgame.clone(),
        1,
        vec![SeatSetup::remote("a"), SeatSetup::remote("b")],
    );
    bad_config.config = serde_json::json!({"qbo": "eight"});
    assert!(Referee::start(bad_config, Arc::new(DiscardSink)).is_err());

    let mut no_time = MatchSetup::new(
        1,
        qgame,
        1,
        vec![SeatSetup::remote("a"), SeatSetup::remote("b")],
    );
    no_time.deadline = Duration::ZERO;
    let error = Referee::start(no_time, Arc::new(DiscardSink)).expect_err("zero deadline");
    assert!(error.to_string().contains("deadline"), "{error}");
}

#[test]
fn starting_outside_a_runtime_is_an_error_not_a_panic() {
    use arbiter_referee::{DiscardSink, MatchSetup, Referee};
    use std::sync::Arc;
    let setup = MatchSetup::new(
        1,
        crate::common::ruleset("tae"),
        1,
        vec![SeatSetup::remote("a"), SeatSetup::remote("b")],
    );
    let error = Referee::start(setup, Arc::new(DiscardSink)).expect_err("no runtime");
    assert!(error.to_string().contains("runtime"), "{error}");
}

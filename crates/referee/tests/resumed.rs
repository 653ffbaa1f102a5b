//! A match taken over from its record (`Referee::resume`, when the server running it
//! died): the referee replays the stored entries and goes on at the next one, so the
//! finished record is one chain from the first entry to the last, and seats the log
//! ejected stay ejected.

use std::sync::Arc;
use std::time::Duration;

use crate::common::{finish, house_lineup, ruleset, start, Mirror};
use arbiter_engine::record::DigestChain;
use arbiter_engine::{LogEntry, MatchRecord};
use arbiter_referee::{MatchSetup, Referee, SeatSetup};

const DEADLINE: Duration = Duration::from_secs(20);

fn house_seats(bots: &[&str], seed: u64) -> Vec<SeatSetup> {
    bots.iter()
        .enumerate()
        .map(|(seat, bot)| {
            SeatSetup::house(format!("{bot}#{}", seat + 1), *bot, seed + seat as u64)
        })
        .collect()
}

/// A whole match of house bots, then its first half as a record to go on from.
async fn half_a_match(ruleset_id: &str, bots: &[&str], seed: u64) -> MatchRecord {
    let (handle, mirror) = start(ruleset_id, seed, house_seats(bots, seed), DEADLINE);
    let whole = finish(&handle, &mirror).await;
    assert!(whole.log.len() >= 4, "{ruleset_id}: a longer match");
    MatchRecord {
        log: whole.log[..whole.log.len() / 2].to_vec(),
        outcome: None,
        stand_ins: Vec::new(),
        resumptions: Vec::new(),
        ..whole
    }
}

/// Go on with `stored` (fresh bot seeds, as a server taking over draws) to the end.
async fn go_on(
    ruleset_id: &str,
    bots: &[&str],
    stored: &MatchRecord,
) -> (MatchRecord, arbiter_referee::MatchStatus) {
    let mut setup = MatchSetup::new(7, ruleset(ruleset_id), 0, house_seats(bots, 99));
    setup.deadline = DEADLINE;
    let mirror = Arc::new(Mirror::default());
    let handle = Referee::resume(setup, stored.clone(), mirror.clone()).expect("it goes on");
    let record = finish(&handle, &mirror).await;
    assert_eq!(
        record.log[..stored.log.len()],
        stored.log[..],
        "{ruleset_id}: the stored entries stay as they were"
    );
    assert!(record.log.len() > stored.log.len());
    assert_eq!(
        (record.seed, &record.config),
        (stored.seed, &stored.config),
        "the record's own seed and configuration"
    );
    let status = handle.status();
    assert_eq!(status.step, record.log.len());
    (record, status)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ruleset_goes_on_from_half_its_log() {
    for shipped in arbiter_rulesets::all() {
        let bots = house_lineup(&shipped);
        let stored = half_a_match(shipped.id(), &bots, 11).await;
        go_on(shipped.id(), &bots, &stored).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_the_log_ejected_stays_ejected() {
    let bots = ["greedy", "random", "random"];
    let mut stored = half_a_match("spacecrack", &bots, 5).await;
    // The dead server had ejected seat 2 last: seal that entry as its referee would.
    let game = ruleset("spacecrack").game;
    let (mut state, mut chain): (_, DigestChain) =
        arbiter_engine::replay_on(game.as_ref(), &stored, true, |_, _| {}).expect("replays");
    let eject = LogEntry::Eject {
        seat: 2,
        reason: "timeout".into(),
        digest: String::new(),
    };
    let events = state.eject(2, "timeout");
    let over = state.to_act().is_over();
    stored
        .log
        .push(chain.seal(eject, events.fingerprint(), over, || state.digest()));

    let (record, status) = go_on("spacecrack", &bots, &stored).await;
    assert_eq!(status.seats[2].ejected.as_deref(), Some("timeout"));
    let acted_after = record.log[stored.log.len()..]
        .iter()
        .filter(|entry| matches!(entry, LogEntry::Act { seat: 2, .. }))
        .count();
    assert_eq!(acted_after, 0, "the ejected seat is not asked again");
    let outcome = record.outcome.expect("an outcome");
    assert_eq!(
        outcome.ejected[2].as_deref(),
        Some("timeout"),
        "{outcome:?}"
    );
}

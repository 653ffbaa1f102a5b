//! The house bot for leavers: a remote seat that goes silent (no connection for the
//! grace, or deadlines missed while connected) is played by a house bot, which every
//! audience is told and the record lists; the player takes the seat back by attaching
//! again or by answering. These run on real time with a short grace and wait on the
//! match's own status and messages, never on sleeps.

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::{LogEntry, StandIn};
use arbiter_referee::{
    MatchHandle, MatchSetup, RecordEvent, Referee, SeatSetup, StandInSetup, ToSeat,
};

use crate::common::{drive, finish, next_message, ruleset, Mirror, PATIENCE};

const GRACE: Duration = Duration::from_millis(100);

fn setup(seats: Vec<SeatSetup>, deadline: Duration, abandon_after: Option<u32>) -> MatchSetup {
    let mut setup = MatchSetup::new(7, ruleset("tae"), 11, seats);
    setup.deadline = deadline;
    setup.abandon_after = abandon_after;
    setup.stand_in = Some(StandInSetup {
        bot: "random".to_string(),
        grace: GRACE,
        seed: 99,
    });
    setup
}

fn start(setup: MatchSetup) -> (MatchHandle, Arc<Mirror>) {
    let mirror = Arc::new(Mirror::default());
    let handle = Referee::start(setup, mirror.clone()).expect("a valid setup");
    (handle, mirror)
}

/// Wait until the match's status says whether a house bot plays `seat`.
async fn wait_stand_in(handle: &MatchHandle, seat: usize, playing: bool) {
    let mut status = handle.watch_status();
    tokio::time::timeout(
        PATIENCE,
        status.wait_for(|s| s.seats[seat].stand_in.is_some() == playing),
    )
    .await
    .expect("the stand-in changes in time")
    .expect("the match runs");
}

/// The stand-in events the store was handed, as (seat, step, bot).
fn stand_in_events(mirror: &Mirror) -> Vec<(usize, usize, Option<String>)> {
    mirror
        .lock()
        .events
        .iter()
        .filter_map(|event| match event {
            RecordEvent::StandIn {
                seat, step, bot, ..
            } => Some((*seat, *step, bot.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_player_who_never_comes_is_played_to_the_end_and_counted_as_leaving() {
    let seats = vec![
        SeatSetup::remote("ada"),
        SeatSetup::house("bot", "random", 3),
    ];
    let (handle, mirror) = start(setup(seats, Duration::from_secs(60), Some(3)));
    let record = finish(&handle, &mirror).await;

    assert!(
        record
            .log
            .iter()
            .all(|entry| matches!(entry, LogEntry::Act { .. })),
        "nobody was ejected: the house bot played the silent seat"
    );
    assert_eq!(
        record.stand_ins,
        vec![StandIn {
            seat: 0,
            bot: "random".to_string(),
            from_step: 0,
            until_step: None,
        }]
    );
    assert_eq!(record.left_seats(), vec![0]);
    let counted = record.counted_ranks().expect("an outcome");
    assert_eq!(counted, vec![2, 1], "the leaver's seat counts as the loss");
    assert_eq!(
        stand_in_events(&mirror),
        vec![(0, 0, Some("random".to_string()))]
    );
    // The record as served (JSON) carries the stand-ins; an old record without them reads.
    let json = serde_json::to_value(&record).expect("a record serializes");
    assert_eq!(json["stand_ins"][0]["from_step"], 0);
}

#[tokio::test]
async fn attaching_again_takes_the_seat_back() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bob")];
    let (handle, mirror) = start(setup(seats, Duration::from_secs(60), Some(3)));
    let (_, fresh) = mirror.replica().await;
    assert_eq!(fresh.to_act().seats(), vec![0], "ada acts first");
    // Bob is here but does not answer yet, so the game waits for him.
    let mut bob = handle.attach(1).await.expect("bob attaches");
    wait_stand_in(&handle, 0, true).await;
    mirror
        .wait_for("the house bot's move for ada", |entries| {
            !entries.is_empty()
        })
        .await;
    let mut seen_by_bob = Vec::new();
    loop {
        let message = next_message(&mut bob).await;
        let told = matches!(message, ToSeat::StandIn { seat: 0, .. });
        seen_by_bob.push(message);
        if told {
            break;
        }
    }
    assert!(
        matches!(seen_by_bob.last(), Some(ToSeat::StandIn { seat: 0, bot, step: 0 }) if bot == "random"),
        "the other seats are told: {seen_by_bob:?}"
    );

    let mut ada = handle.attach(0).await.expect("ada comes back");
    assert!(matches!(
        next_message(&mut ada).await,
        ToSeat::Joined { .. }
    ));
    assert!(matches!(next_message(&mut ada).await, ToSeat::View { .. }));
    let back = next_message(&mut ada).await;
    let ToSeat::SeatTakenBack { seat: 0, step } = back else {
        panic!("ada hears she has her seat back, got {back:?}");
    };
    assert!(step >= 1, "the bot played at least one move for ada");
    assert_eq!(handle.status().seats[0].stand_in, None);

    let playing = [
        tokio::spawn(drive(ada, handle.clone(), mirror.clone(), "random", 1)),
        tokio::spawn(drive(bob, handle.clone(), mirror.clone(), "random", 2)),
    ];
    let record = finish(&handle, &mirror).await;
    for player in playing {
        player.await.expect("the player's driver ends");
    }
    assert_eq!(record.stand_ins.len(), 1, "{:?}", record.stand_ins);
    assert_eq!(record.stand_ins[0].until_step, Some(step));
    assert!(
        record.left_seats().is_empty(),
        "ada finished the game herself"
    );
    let outcome = record.outcome.as_ref().expect("an outcome");
    assert_eq!(record.counted_ranks(), Some(outcome.ranks.clone()));
    assert_eq!(
        stand_in_events(&mirror),
        vec![(0, 0, Some("random".to_string())), (0, step, None)]
    );
}

#[tokio::test]
async fn a_connected_player_who_stops_answering_is_stood_in_for_and_answering_takes_it_back() {
    let seats = vec![SeatSetup::remote("ada"), SeatSetup::remote("bob")];
    // One missed deadline is abandoning here; without a stand-in it would be ejection.
    let (handle, mirror) = start(setup(seats, Duration::from_millis(200), Some(1)));
    let mut ada = handle.attach(0).await.expect("ada attaches");
    let _bob = handle.attach(1).await.expect("bob attaches");
    let mut told = Vec::new();
    loop {
        let message = next_message(&mut ada).await;
        let stood_in = matches!(message, ToSeat::StandIn { seat: 0, .. });
        told.push(message);
        if stood_in {
            break;
        }
    }
    assert!(
        !told.iter().any(|m| matches!(m, ToSeat::Ejected { .. })),
        "not ejected: {told:?}"
    );
    // The bot moves for ada; then bob owes, and ada answers out of turn: refused, but
    // she is back.
    mirror
        .wait_for("the house bot's move for ada", |entries| {
            !entries.is_empty()
        })
        .await;
    let (_, replica) = mirror.replica().await;
    let mut bot = ruleset("tae").house_bot("random", 5).expect("a bot");
    let action = bot.decide(replica.as_ref(), 1).expect("bob's move");
    handle.act(0, action).await.expect("the match runs");
    wait_stand_in(&handle, 0, false).await;
    let events = stand_in_events(&mirror);
    assert_eq!(events[0], (0, 0, Some("random".to_string())));
    assert!(matches!(events[1], (0, _, None)), "{events:?}");
    handle.resign(1).await.expect("bob resigns");
    let record = finish(&handle, &mirror).await;
    assert_eq!(record.stand_ins[0].seat, 0);
    assert!(record.stand_ins[0].until_step.is_some());
}

/// Where the ruleset ejects a seat that misses its deadline (spacegoo), a seat with no
/// connection when the deadline passes is stood in for instead, before the grace is up.
#[tokio::test]
async fn a_deadline_passing_without_a_connection_brings_the_stand_in_early() {
    let seats = vec![
        SeatSetup::remote("ada"),
        SeatSetup::house("bot", "random", 3),
    ];
    let mut setup = MatchSetup::new(7, ruleset("spacegoo"), 11, seats);
    setup.deadline = Duration::from_millis(100);
    setup.config = serde_json::json!({"max_rounds": 20});
    setup.stand_in = Some(StandInSetup {
        bot: "random".to_string(),
        grace: Duration::from_secs(3600),
        seed: 99,
    });
    let (handle, mirror) = start(setup);
    let record = finish(&handle, &mirror).await;
    assert!(
        record
            .log
            .iter()
            .all(|entry| matches!(entry, LogEntry::Act { .. })),
        "not ejected for the missed deadline"
    );
    assert_eq!(record.left_seats(), vec![0]);
    // From ada's first decision (the house bot's sealed order may be in first).
    assert!(record.stand_ins[0].from_step <= 1, "{:?}", record.stand_ins);
}

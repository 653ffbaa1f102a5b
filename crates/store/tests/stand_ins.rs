//! Stand-ins on both backends: a seat the house bot still holds when the match ends is
//! its player's loss (result and ratings) while the stored ranks and outcome stay the
//! game's; a seat taken back counts as played; stand-ins are written only for running
//! matches of this node, once.

use crate::common::{new_match, outcome, played, TestDb};
use arbiter_engine::{MatchRecord, StandIn};
use arbiter_store::{
    AccountId, MatchId, MatchStatus, RatingSystem, SeatResult, Store, StoreError, ELO_K,
    INITIAL_DISPLAY,
};

/// A spacegoo game between random bots that seat 0 wins outright, long enough for a
/// stand-in from step 3 and a take-back at step 5.
fn won_by_seat_0() -> MatchRecord {
    (1..200)
        .map(|seed| played("spacegoo", 2, seed))
        .find(|record| {
            record.log.len() > 6 && record.outcome.as_ref().map(|o| &o.ranks[..]) == Some(&[1, 2])
        })
        .expect("a seed where seat 0 wins")
}

/// Create a rated match of `record` for `accounts`, log its first `steps` entries.
async fn started(
    store: &Store,
    record: &MatchRecord,
    accounts: &[Option<AccountId>],
    steps: usize,
) -> MatchId {
    let id = store
        .create_match(&new_match(record, accounts, Some(RatingSystem::Elo)))
        .await
        .expect("create");
    for (index, entry) in record.log[..steps].iter().enumerate() {
        store.append_log(id, index, entry).await.expect("append");
    }
    id
}

/// Log the rest of `record` and finish the match with its outcome.
async fn finished(
    store: &Store,
    id: MatchId,
    record: &MatchRecord,
    from: usize,
) -> arbiter_store::FinishedMatch {
    for (index, entry) in record.log.iter().enumerate().skip(from) {
        store.append_log(id, index, entry).await.expect("append");
    }
    store
        .finish_match(
            id,
            record.outcome.as_ref().expect("outcome"),
            record.log.len(),
        )
        .await
        .expect("finish")
}

async fn summary(store: &Store, id: MatchId) -> arbiter_store::MatchSummary {
    store
        .match_summary(id)
        .await
        .expect("read")
        .expect("exists")
}

async fn a_seat_left_to_the_house_bot_is_its_players_loss(db: &TestDb) {
    let store = &db.store;
    let ann = store.register("ann", "pw").await.expect("register");
    let bob = store.register("bob", "pw").await.expect("register");
    let record = won_by_seat_0();
    let id = started(store, &record, &[Some(ann.id), Some(bob.id)], 3).await;
    // Ann goes silent: the house bot plays her seat from step 3 to the end, and wins.
    store
        .stand_in_began(id, 0, "random", 3)
        .await
        .expect("stand in");
    let running = summary(store, id).await;
    assert_eq!(running.seats[0].house_bot_from, Some(3));
    assert_eq!(running.seats[1].house_bot_from, None);
    let done = finished(store, id, &record, 3).await;

    let half_k = (ELO_K / 2.0) as i64;
    let mut changes: Vec<_> = done
        .rating_changes
        .iter()
        .map(|c| (c.account_id, c.before, c.after))
        .collect();
    changes.sort_unstable();
    assert_eq!(
        changes,
        vec![
            (ann.id, INITIAL_DISPLAY, INITIAL_DISPLAY - half_k),
            (bob.id, INITIAL_DISPLAY, INITIAL_DISPLAY + half_k)
        ],
        "the leaver loses, the one who stayed wins"
    );

    let summary = summary(store, id).await;
    assert_eq!(summary.status, MatchStatus::Finished);
    let seats: Vec<_> = summary
        .seats
        .iter()
        .map(|s| (s.rank, s.result, s.house_bot_from))
        .collect();
    assert_eq!(
        seats,
        vec![
            // The game's own rank stays; the result is the player's.
            (Some(1), Some(SeatResult::Loss), Some(3)),
            (Some(2), Some(SeatResult::Win), None),
        ]
    );
    // The API's JSON names the house bot only where one played.
    let json = serde_json::to_value(&summary).expect("serialize");
    assert_eq!(json["seats"][0]["house_bot_from"], 3);
    assert!(json["seats"][1].get("house_bot_from").is_none(), "{json}");

    let rebuilt = store.match_record(id).await.expect("read").expect("exists");
    assert_eq!(
        rebuilt.stand_ins,
        vec![StandIn {
            seat: 0,
            bot: "random".into(),
            from_step: 3,
            until_step: None,
        }]
    );
    assert_eq!(rebuilt.left_seats(), vec![0]);
    assert_eq!(rebuilt.counted_ranks(), Some(vec![2, 1]));
    assert_eq!(rebuilt.outcome, record.outcome, "the outcome is the game's");
    let expected = MatchRecord {
        stand_ins: rebuilt.stand_ins.clone(),
        ..record.clone()
    };
    assert_eq!(rebuilt, expected);
    arbiter_rulesets::registry()
        .replay(&rebuilt, true)
        .expect("the record verifies against its stored outcome");

    let profile = store
        .player_profile("ann")
        .await
        .expect("profile")
        .expect("ann");
    assert_eq!(
        (profile.counts.wins, profile.counts.losses),
        (0, 1),
        "{profile:?}"
    );
}

async fn a_seat_taken_back_counts_as_played(db: &TestDb) {
    let store = &db.store;
    let ann = store.register("ann", "pw").await.expect("register");
    let bob = store.register("bob", "pw").await.expect("register");
    let record = won_by_seat_0();
    let id = started(store, &record, &[Some(ann.id), Some(bob.id)], 5).await;
    store
        .stand_in_began(id, 0, "random", 3)
        .await
        .expect("stand in");
    store.stand_in_ended(id, 0, 5).await.expect("taken back");
    assert_eq!(summary(store, id).await.seats[0].house_bot_from, None);
    let done = finished(store, id, &record, 5).await;
    let ann_change = done
        .rating_changes
        .iter()
        .find(|c| c.account_id == ann.id)
        .expect("ann rated");
    assert!(ann_change.after > ann_change.before, "{ann_change:?}");
    let seats: Vec<_> = summary(store, id)
        .await
        .seats
        .iter()
        .map(|s| (s.result, s.house_bot_from))
        .collect();
    assert_eq!(
        seats,
        vec![
            (Some(SeatResult::Win), None),
            (Some(SeatResult::Loss), None)
        ]
    );
    let rebuilt = store.match_record(id).await.expect("read").expect("exists");
    assert_eq!(
        rebuilt.stand_ins,
        vec![StandIn {
            seat: 0,
            bot: "random".into(),
            from_step: 3,
            until_step: Some(5),
        }]
    );
    assert!(rebuilt.left_seats().is_empty());
    assert_eq!(rebuilt.counted_ranks(), Some(vec![1, 2]));
}

/// Results keep their win, draw and loss logic on the ranks as counted: a shared win
/// with a leaver is the other's win, the next seat up wins when the winner left, and
/// when every seat was left nobody wins.
async fn results_count_leavers_below_the_rest(db: &TestDb) {
    let store = &db.store;
    let record = played("qgame", 3, 4);
    let results = |summary: arbiter_store::MatchSummary| -> Vec<_> {
        summary.seats.iter().map(|s| s.result).collect()
    };
    let (win, draw, loss) = (
        Some(SeatResult::Win),
        Some(SeatResult::Draw),
        Some(SeatResult::Loss),
    );
    for (ranks, leavers, expected) in [
        (vec![1, 1, 3], vec![1], vec![win, loss, loss]),
        (vec![1, 2, 3], vec![0], vec![loss, win, loss]),
        (vec![1, 2, 2], vec![0], vec![loss, draw, draw]),
        (vec![1, 2, 3], vec![0, 1, 2], vec![loss, loss, loss]),
    ] {
        let id = store
            .create_match(&new_match(&record, &[], None))
            .await
            .expect("create");
        for &seat in &leavers {
            store
                .stand_in_began(id, seat, "random", 0)
                .await
                .expect("stand in");
        }
        store
            .finish_match(id, &outcome(ranks.clone()), 0)
            .await
            .expect("finish");
        let summary = summary(store, id).await;
        let stored: Vec<_> = summary.seats.iter().map(|s| s.rank).collect();
        assert_eq!(stored, ranks.iter().map(|&r| Some(r)).collect::<Vec<_>>());
        assert_eq!(results(summary), expected, "{ranks:?} leavers {leavers:?}");
    }
}

async fn stand_ins_are_written_only_for_running_matches_of_this_node(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 3);
    let id = started(store, &record, &[], 0).await;
    // Another node does not say who plays this node's match.
    let other = store.clone().with_node("other");
    assert!(matches!(
        other.stand_in_began(id, 0, "random", 0).await,
        Err(StoreError::NotRunning(_))
    ));
    assert!(matches!(
        store.stand_in_began(id, 2, "random", 0).await,
        Err(StoreError::InvalidMatch(_))
    ));
    assert!(matches!(
        store.stand_in_began(id + 1000, 0, "random", 0).await,
        Err(StoreError::UnknownMatch(_))
    ));
    store
        .stand_in_began(id, 1, "random", 0)
        .await
        .expect("stand in");
    assert!(matches!(
        other.stand_in_ended(id, 1, 0).await,
        Err(StoreError::NotRunning(_))
    ));
    store
        .finish_match(id, &outcome(vec![1, 2]), 0)
        .await
        .expect("finish");
    // Finished: the results are counted, and stand-ins can no longer change them.
    assert!(matches!(
        store.stand_in_began(id, 0, "random", 0).await,
        Err(StoreError::NotRunning(_))
    ));
    assert!(matches!(
        store.stand_in_ended(id, 1, 0).await,
        Err(StoreError::NotRunning(_))
    ));
    let rebuilt = store.match_record(id).await.expect("read").expect("exists");
    assert_eq!(rebuilt.left_seats(), vec![1]);

    let aborted = started(store, &record, &[], 0).await;
    store.abort_match(aborted, "test").await.expect("abort");
    assert!(matches!(
        store.stand_in_began(aborted, 0, "random", 0).await,
        Err(StoreError::NotRunning(_))
    ));
}

async fn stand_in_writes_are_idempotent_and_never_overlap(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 3);
    let id = started(store, &record, &[], 0).await;
    let stand_ins = |id| async move {
        store
            .match_record(id)
            .await
            .expect("read")
            .expect("exists")
            .stand_ins
    };
    let stand_in = |seat, from_step, until_step| StandIn {
        seat,
        bot: "random".into(),
        from_step,
        until_step,
    };

    store
        .stand_in_began(id, 0, "random", 2)
        .await
        .expect("began");
    store
        .stand_in_began(id, 0, "random", 2)
        .await
        .expect("the same again");
    assert_eq!(stand_ins(id).await, vec![stand_in(0, 2, None)]);
    // One bot holds a seat at a time.
    assert!(matches!(
        store.stand_in_began(id, 0, "random", 4).await,
        Err(StoreError::InvalidMatch(_))
    ));
    assert!(matches!(
        store.stand_in_began(id, 0, "other", 2).await,
        Err(StoreError::InvalidMatch(_))
    ));
    // Taken back no earlier than the bot began.
    assert!(matches!(
        store.stand_in_ended(id, 0, 1).await,
        Err(StoreError::InvalidMatch(_))
    ));
    store.stand_in_ended(id, 0, 4).await.expect("ended");
    store
        .stand_in_ended(id, 0, 4)
        .await
        .expect("the same again");
    assert!(matches!(
        store.stand_in_ended(id, 0, 6).await,
        Err(StoreError::InvalidMatch(_))
    ));
    assert!(matches!(
        store.stand_in_ended(id, 1, 4).await,
        Err(StoreError::InvalidMatch(_))
    ));
    assert_eq!(stand_ins(id).await, vec![stand_in(0, 2, Some(4))]);
    // A second stretch begins no earlier than the player took the seat back.
    assert!(matches!(
        store.stand_in_began(id, 0, "random", 3).await,
        Err(StoreError::InvalidMatch(_))
    ));
    store
        .stand_in_began(id, 0, "random", 4)
        .await
        .expect("again");
    store
        .stand_in_began(id, 1, "random", 4)
        .await
        .expect("seat 1");
    store.stand_in_ended(id, 1, 4).await.expect("back at once");
    // A stretch that ended where it began opens again as one.
    store
        .stand_in_began(id, 1, "random", 4)
        .await
        .expect("seat 1 again");
    assert_eq!(
        stand_ins(id).await,
        vec![
            stand_in(0, 2, Some(4)),
            stand_in(0, 4, None),
            stand_in(1, 4, None)
        ]
    );
    let summary = summary(store, id).await;
    let from: Vec<_> = summary.seats.iter().map(|s| s.house_bot_from).collect();
    assert_eq!(from, vec![Some(4), Some(4)]);
}

/// A stand-in racing the finish is either counted or refused, never written after the
/// results were counted without it.
async fn a_stand_in_racing_the_finish_is_counted_or_refused(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 3);
    let (mut counted, mut refused) = (0, 0);
    for _ in 0..20 {
        let id = started(store, &record, &[], 0).await;
        let winning = outcome(vec![1, 2]);
        let (began, finish) = tokio::join!(
            store.stand_in_began(id, 0, "random", 0),
            store.finish_match(id, &winning, 0)
        );
        finish.expect("finish");
        let result = summary(store, id).await.seats[0].result;
        let left = store
            .match_record(id)
            .await
            .expect("read")
            .expect("exists")
            .left_seats();
        match began {
            Ok(()) => {
                counted += 1;
                assert_eq!((result, left), (Some(SeatResult::Loss), vec![0]));
            }
            Err(StoreError::NotRunning(_)) => {
                refused += 1;
                assert_eq!((result, left), (Some(SeatResult::Win), vec![]));
            }
            Err(other) => panic!("{other:?}"),
        }
    }
    assert_eq!(counted + refused, 20);
}

on_both_backends!(
    a_stand_in_racing_the_finish_is_counted_or_refused,
    a_seat_left_to_the_house_bot_is_its_players_loss,
    a_seat_taken_back_counts_as_played,
    results_count_leavers_below_the_rest,
    stand_ins_are_written_only_for_running_matches_of_this_node,
    stand_in_writes_are_idempotent_and_never_overlap,
);

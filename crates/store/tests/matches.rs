//! Matches on both backends: stored as they are played, rebuilt into records that replay
//! and verify (one or a batch at a time, as a restart reads them), refused when out of
//! order, found again after a restart with their logs and clocks, listed.

use crate::common::{new_match, played, store_played, TestDb};
use arbiter_engine::{LogEntry, Outcome};
use arbiter_store::{
    MatchFilter, MatchStatus, MatchTerms, RatingSystem, SeatRecord, SeatResult, StoreError,
    RESUMABLE_AT_ONCE,
};
use sqlx::{AnyConnection, Connection};

async fn every_ruleset_replays_from_the_store(db: &TestDb) {
    let store = &db.store;
    let registry = arbiter_rulesets::registry();
    for (ruleset, seats) in [("qgame", 3), ("spacegoo", 2), ("spacecrack", 2), ("tae", 4)] {
        let record = played(ruleset, seats, 11);
        assert!(!record.log.is_empty(), "{ruleset} game has moves");
        let (id, finished) = store_played(store, &record, &[], None).await;
        assert!(finished.rating_changes.is_empty());
        let rebuilt = store.match_record(id).await.expect("read").expect("exists");
        assert_eq!(
            rebuilt, record,
            "{ruleset}: the stored record is the played one"
        );
        registry
            .replay(&rebuilt, true)
            .unwrap_or_else(|e| panic!("{ruleset}: stored record does not verify: {e}"));

        let summary = store
            .match_summary(id)
            .await
            .expect("read")
            .expect("exists");
        assert_eq!(summary.status, MatchStatus::Finished);
        assert_eq!(summary.moves, record.log.len() as u64);
        let outcome = record.outcome.as_ref().expect("outcome");
        // The one line for people names winners by their seat names.
        let headline = outcome.headline(&record.seats);
        assert_eq!(summary.summary.as_deref(), Some(headline.as_str()));
        let winner = &record.seats[outcome.winners().first().copied().unwrap_or(0)];
        assert!(
            outcome.winners().is_empty() || headline.starts_with(winner.as_str()),
            "{headline}"
        );
        for seat in &summary.seats {
            assert_eq!(seat.rank, Some(outcome.ranks[seat.seat]));
            assert_eq!(seat.score, Some(outcome.scores[seat.seat]));
            assert_eq!(seat.ejected, outcome.ejected[seat.seat]);
            assert!(seat.result.is_some());
        }
    }
}

async fn a_running_match_gives_its_log_so_far(db: &TestDb) {
    let store = &db.store;
    let record = played("tae", 2, 5);
    let id = store
        .create_match(&new_match(&record, &[], None))
        .await
        .expect("create");
    let half = record.log.len() / 2;
    for (index, entry) in record.log[..half].iter().enumerate() {
        store.append_log(id, index, entry).await.expect("append");
    }
    let partial = store.match_record(id).await.expect("read").expect("exists");
    assert_eq!(partial.log, record.log[..half]);
    assert_eq!(partial.outcome, None);
    arbiter_rulesets::registry()
        .replay(&partial, true)
        .expect("a partial log verifies as far as it goes");
    let summary = store
        .match_summary(id)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(summary.status, MatchStatus::Running);
    assert_eq!(summary.moves, half as u64);
    assert!(summary.seats.iter().all(|s| s.rank.is_none()));
}

async fn seeds_round_trip_exactly(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 1);
    for seed in [0, 1, i64::MAX as u64, i64::MAX as u64 + 1, u64::MAX] {
        let mut new = new_match(&record, &[], None);
        new.seed = seed;
        let id = store.create_match(&new).await.expect("create");
        let back = store.match_record(id).await.expect("read").expect("exists");
        assert_eq!(back.seed, seed);
    }
}

async fn log_entries_come_in_order_once(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 2);
    let id = store
        .create_match(&new_match(&record, &[], None))
        .await
        .expect("create");
    let entry = &record.log[0];
    assert!(matches!(
        store.append_log(id, 1, entry).await,
        Err(StoreError::LogOutOfOrder {
            index: 1,
            expected: 0,
            ..
        })
    ));
    store.append_log(id, 0, entry).await.expect("first entry");
    assert!(matches!(
        store.append_log(id, 0, entry).await,
        Err(StoreError::LogOutOfOrder {
            index: 0,
            expected: 1,
            ..
        })
    ));
    assert!(matches!(
        store.append_log(id + 1000, 0, entry).await,
        Err(StoreError::UnknownMatch(_))
    ));
    store.abort_match(id, "test").await.expect("abort");
    assert!(matches!(
        store.append_log(id, 1, &record.log[1]).await,
        Err(StoreError::NotRunning(_))
    ));
    let kept = store.match_record(id).await.expect("read").expect("exists");
    assert_eq!(kept.log, record.log[..1]);
}

async fn a_match_finishes_once_with_a_fitting_outcome(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 3);
    let id = store
        .create_match(&new_match(&record, &[], None))
        .await
        .expect("create");
    let outcome = record.outcome.clone().expect("outcome");
    let short = Outcome {
        ranks: vec![1],
        ..outcome.clone()
    };
    assert!(matches!(
        store.finish_match(id, &short, 0).await,
        Err(StoreError::InvalidResult(_))
    ));
    let zero = Outcome {
        ranks: vec![0, 1],
        ..outcome.clone()
    };
    assert!(matches!(
        store.finish_match(id, &zero, 0).await,
        Err(StoreError::InvalidResult(_))
    ));
    let still = store
        .match_summary(id)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(
        still.status,
        MatchStatus::Running,
        "refused outcomes change nothing"
    );
    store.finish_match(id, &outcome, 0).await.expect("finish");
    assert!(matches!(
        store.finish_match(id, &outcome, 0).await,
        Err(StoreError::NotRunning(_))
    ));
    assert!(matches!(
        store.abort_match(id, "late").await,
        Err(StoreError::NotRunning(_))
    ));
    assert!(matches!(
        store.finish_match(id + 1000, &outcome, 0).await,
        Err(StoreError::UnknownMatch(_))
    ));
    assert!(matches!(
        store.abort_match(id + 1000, "x").await,
        Err(StoreError::UnknownMatch(_))
    ));
}

/// A finished match is served as whole: the store refuses to finish one whose stored log
/// is short of the caller's (an entry lost to a fault), and the match stays running.
async fn a_match_finishes_only_with_its_whole_log(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 5);
    assert!(record.log.len() >= 3, "a few entries to lose");
    let id = store
        .create_match(&new_match(&record, &[], None))
        .await
        .expect("create");
    store
        .append_log(id, 0, &record.log[0])
        .await
        .expect("append");
    let outcome = record.outcome.clone().expect("outcome");
    match store.finish_match(id, &outcome, record.log.len()).await {
        Err(StoreError::IncompleteLog {
            stored, expected, ..
        }) => assert_eq!((stored, expected), (1, record.log.len() as u64)),
        other => panic!("finished with a short log: {other:?}"),
    }
    let summary = store
        .match_summary(id)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(summary.status, MatchStatus::Running);
    for (index, entry) in record.log.iter().enumerate().skip(1) {
        store.append_log(id, index, entry).await.expect("append");
    }
    store
        .finish_match(id, &outcome, record.log.len())
        .await
        .expect("finish with the whole log");
}

async fn seat_results_name_wins_draws_and_losses(db: &TestDb) {
    let store = &db.store;
    let record = played("qgame", 3, 4);
    let id = store
        .create_match(&new_match(&record, &[], None))
        .await
        .expect("create");
    let drawn = Outcome {
        ranks: vec![1, 1, 3],
        scores: vec![5, 5, 1],
        ejected: vec![None, None, Some("timeout".into())],
        summary: "a draw".into(),
    };
    store.finish_match(id, &drawn, 0).await.expect("finish");
    let summary = store
        .match_summary(id)
        .await
        .expect("read")
        .expect("exists");
    let results: Vec<_> = summary.seats.iter().map(|s| s.result).collect();
    assert_eq!(
        results,
        vec![
            Some(SeatResult::Draw),
            Some(SeatResult::Draw),
            Some(SeatResult::Loss)
        ]
    );
    assert_eq!(summary.seats[2].ejected.as_deref(), Some("timeout"));
}

async fn summary_of(store: &arbiter_store::Store, id: i64) -> arbiter_store::MatchSummary {
    store
        .match_summary(id)
        .await
        .expect("read")
        .expect("exists")
}

/// Several servers on one database: a live node takes over the running matches of a
/// node whose heartbeat has gone stale (logs kept, to go on from), and leaves alone its
/// own, those of live nodes, those of nodes that never wrote a heartbeat, and finished
/// matches. The old node, should it come back, can write nothing more to them; the new
/// owner appends, finishes and aborts them.
async fn a_live_node_takes_over_the_matches_of_a_silent_one(db: &TestDb) {
    let (live, silent, unknown) = (
        db.store.clone().with_node("live"),
        db.store.clone().with_node("silent"),
        db.store.clone().with_node("unknown"),
    );
    let record = played("spacegoo", 2, 41);
    let new = new_match(&record, &[], None);
    silent.heartbeat(1).await.expect("heartbeat");
    let orphan = silent.create_match(&new).await.expect("create");
    silent
        .append_log(orphan, 0, &record.log[0])
        .await
        .expect("append");
    let second_orphan = silent.create_match(&new).await.expect("create");
    let (finished, _) = store_played(&silent, &record, &[], None).await;
    let unheard = unknown.create_match(&new).await.expect("create");
    let own = live.create_match(&new).await.expect("create");
    live.heartbeat(2).await.expect("heartbeat");

    // A long lease: everyone counts as alive, the oldest process first.
    let hour = std::time::Duration::from_secs(3600);
    let alive: Vec<(String, i64)> = live
        .live_nodes(hour)
        .await
        .expect("live nodes")
        .into_iter()
        .map(|node| (node.name, node.started_at))
        .collect();
    assert_eq!(alive, [("silent".to_string(), 1), ("live".to_string(), 2)]);
    let taken = live
        .take_over_matches_of_silent_nodes(hour)
        .await
        .expect("sweep");
    assert!(taken.is_empty(), "{taken:?}");
    // A lease of zero: every heartbeat so far is stale.
    let zero = std::time::Duration::ZERO;
    let mut taken = live
        .take_over_matches_of_silent_nodes(zero)
        .await
        .expect("sweep");
    taken.sort_unstable();
    assert_eq!(taken, vec![orphan, second_orphan]);
    assert!(live
        .take_over_matches_of_silent_nodes(zero)
        .await
        .expect("sweep again")
        .is_empty());
    let moved = summary_of(&live, orphan).await;
    assert_eq!(
        (moved.status, moved.node.as_str()),
        (MatchStatus::Running, "live")
    );
    let kept = live
        .match_record(orphan)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(kept.log, record.log[..1]);
    assert_eq!(
        summary_of(&live, finished).await.status,
        MatchStatus::Finished
    );
    let unheard = summary_of(&live, unheard).await;
    assert_eq!(
        (unheard.status, unheard.node.as_str()),
        (MatchStatus::Running, "unknown")
    );
    assert_eq!(summary_of(&live, own).await.node, "live");

    // The silent node, back, can write nothing more to the matches it lost.
    assert!(matches!(
        silent.append_log(orphan, 1, &record.log[1]).await,
        Err(StoreError::NotRunning(_))
    ));
    assert!(silent.abort_match(second_orphan, "too late").await.is_err());
    // Its new owner goes on, to the end; the old one cannot finish it.
    for (index, entry) in record.log.iter().enumerate().skip(1) {
        live.append_log(orphan, index, entry)
            .await
            .expect("the new owner appends");
    }
    let outcome = record.outcome.clone().expect("an outcome");
    assert!(silent
        .finish_match(orphan, &outcome, record.log.len())
        .await
        .is_err());
    live.finish_match(orphan, &outcome, record.log.len())
        .await
        .expect("the new owner finishes");
    live.abort_match(second_orphan, "taken over, then given up")
        .await
        .expect("the new owner aborts");
    assert_eq!(
        summary_of(&live, second_orphan).await.status,
        MatchStatus::Aborted
    );
}

async fn a_restart_finds_this_nodes_running_matches_with_their_clocks(db: &TestDb) {
    let store = &db.store;
    let other_node = store.clone().with_node("other");
    let record = played("tae", 3, 6);
    let terms = MatchTerms {
        deadline_ms: 120_000,
        time_bank_ms: 300_000,
        abandon_after: Some(3),
        stand_in_grace_ms: None,
        port: None,
    };
    let mut ids = Vec::new();
    for _ in 0..2 {
        let mut new = new_match(&record, &[], None);
        new.terms = Some(terms.clone());
        let id = store.create_match(&new).await.expect("create");
        for (index, entry) in record.log[..3].iter().enumerate() {
            store.append_log(id, index, entry).await.expect("append");
        }
        ids.push(id);
    }
    let (finished, _) = store_played(store, &record, &[], None).await;
    let elsewhere = other_node
        .create_match(&new_match(&record, &[], None))
        .await
        .expect("create");

    // Nothing is aborted: the running matches are found, each with its clock and log.
    let running = store.running_matches_of_this_node().await.expect("list");
    assert_eq!(running, ids);
    for &id in &ids {
        assert_eq!(
            store.match_terms(id).await.expect("read"),
            Some(terms.clone())
        );
        let kept = store.match_record(id).await.expect("read").expect("exists");
        assert_eq!(kept.log, record.log[..3]);
        assert_eq!(kept.outcome, None);
    }
    assert_eq!(store.match_terms(elsewhere).await.expect("read"), None);

    // Going on is recorded with the match; another node's match is not this one's.
    store
        .record_resumptions(&[(ids[0], 3), (elsewhere, 0)], 1_234)
        .await
        .expect("record");
    let resumed = store
        .match_record(ids[0])
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(
        resumed.resumptions,
        vec![arbiter_engine::Resumption {
            step: 3,
            down_ms: 1_234
        }]
    );
    let theirs = store
        .match_record(elsewhere)
        .await
        .expect("read")
        .expect("exists");
    assert!(theirs.resumptions.is_empty());

    let done = store
        .match_summary(finished)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(done.status, MatchStatus::Finished);
    let theirs = store
        .match_summary(elsewhere)
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(theirs.status, MatchStatus::Running);
    assert_eq!(theirs.node, "other");

    // A node's last sign of life: its stop, once it stopped in order.
    store.heartbeat(1).await.expect("heartbeat");
    let beat = store
        .last_sign_of_life()
        .await
        .expect("read")
        .expect("a node");
    store.stopped().await.expect("stop");
    let stopped = store
        .last_sign_of_life()
        .await
        .expect("read")
        .expect("a node");
    assert!(stopped >= beat, "{stopped} after {beat}");
}

async fn a_restart_reads_its_matches_a_batch_at_a_time(db: &TestDb) {
    let store = &db.store;
    let records = [
        played("tae", 3, 7),
        played("spacegoo", 2, 8),
        played("nim", 2, 9),
    ];
    // More than a batch, so the second batch is read too; logs of different lengths.
    let mut ids = Vec::new();
    for i in 0..RESUMABLE_AT_ONCE + 3 {
        let record = &records[i % records.len()];
        let id = store
            .create_match(&new_match(record, &[], None))
            .await
            .expect("create");
        for (index, entry) in record.log[..(i % 5).min(record.log.len())]
            .iter()
            .enumerate()
        {
            store.append_log(id, index, entry).await.expect("append");
        }
        ids.push(id);
    }
    let corrupt = ids[5];
    let mut conn = AnyConnection::connect(&db.url).await.expect("connect");
    sqlx::query("UPDATE matches SET terms = 'not json' WHERE id = $1")
        .bind(corrupt)
        .execute(&mut conn)
        .await
        .expect("spoil one match's terms");
    let _ = conn.close().await;
    let unknown = ids[ids.len() - 1] + 1_000;
    let mut asked = ids.clone();
    asked.insert(2, unknown);

    // Each match as it reads alone; the bad one and the missing one, each its own error.
    let read = store.resumable_matches(&asked).await.expect("read");
    let order: Vec<i64> = read.iter().map(|(id, _)| *id).collect();
    assert_eq!(order, asked);
    for (id, one) in read {
        if id == corrupt {
            assert!(matches!(one, Err(StoreError::Corrupt(_))), "{one:?}");
        } else if id == unknown {
            assert!(matches!(one, Err(StoreError::UnknownMatch(_))), "{one:?}");
        } else {
            let one = one.expect("a readable match");
            let alone = store.match_record(id).await.expect("read").expect("exists");
            assert_eq!(one.record, alone);
            let summary = store
                .match_summary(id)
                .await
                .expect("read")
                .expect("exists");
            assert_eq!(one.summary, summary);
            assert_eq!(one.terms, None);
        }
    }

    // Their resumptions are recorded a batch a statement, each with its own step.
    let steps: Vec<(i64, usize)> = ids.iter().enumerate().map(|(i, &id)| (id, i % 5)).collect();
    store.record_resumptions(&steps, 77).await.expect("record");
    for (id, step) in steps {
        let record = store.match_record(id).await.expect("read").expect("exists");
        assert_eq!(
            record.resumptions,
            vec![arbiter_engine::Resumption { step, down_ms: 77 }]
        );
    }
}

async fn lists_filter_and_page_newest_first(db: &TestDb) {
    let store = &db.store;
    let ann = store.register("Ann", "pw").await.expect("register");
    let goo = played("spacegoo", 2, 7);
    let tae = played("tae", 2, 7);
    let mut goo_ids = Vec::new();
    for _ in 0..3 {
        goo_ids.push(
            store_played(store, &goo, &[Some(ann.id), None], None)
                .await
                .0,
        );
    }
    let tae_id = store_played(store, &tae, &[], None).await.0;
    let running = store
        .create_match(&new_match(&goo, &[None, Some(ann.id)], None))
        .await
        .expect("create");

    let all = store
        .list_matches(&MatchFilter::default())
        .await
        .expect("list");
    let ids: Vec<_> = all.iter().map(|m| m.id).collect();
    assert_eq!(
        ids,
        vec![running, tae_id, goo_ids[2], goo_ids[1], goo_ids[0]]
    );

    let by_ruleset = MatchFilter {
        ruleset: Some("tae".into()),
        ..MatchFilter::default()
    };
    let only_tae = store.list_matches(&by_ruleset).await.expect("list");
    assert_eq!(
        only_tae.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![tae_id]
    );

    let by_player = MatchFilter {
        player: Some("ANN".into()),
        ..MatchFilter::default()
    };
    let anns = store.list_matches(&by_player).await.expect("list");
    assert_eq!(anns.len(), 4);
    assert!(anns
        .iter()
        .all(|m| m.seats.iter().any(|s| s.account_id == Some(ann.id))));

    let finished_page = MatchFilter {
        player: Some("ann".into()),
        status: Some(MatchStatus::Finished),
        limit: Some(2),
        ..MatchFilter::default()
    };
    let first = store.list_matches(&finished_page).await.expect("list");
    assert_eq!(
        first.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![goo_ids[2], goo_ids[1]]
    );
    let next = MatchFilter {
        before: first.last().map(|m| m.id),
        ..finished_page.clone()
    };
    let second = store.list_matches(&next).await.expect("list");
    assert_eq!(
        second.iter().map(|m| m.id).collect::<Vec<_>>(),
        vec![goo_ids[0]]
    );

    let nobody = MatchFilter {
        player: Some("nobody".into()),
        ..MatchFilter::default()
    };
    assert!(store.list_matches(&nobody).await.expect("list").is_empty());
    assert_eq!(
        store.match_summary(running + 100).await.expect("read"),
        None
    );
    assert_eq!(store.match_record(running + 100).await.expect("read"), None);
}

async fn bad_matches_are_refused(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 8);
    let a = store.register("p1", "pw").await.expect("register");

    let mut no_seats = new_match(&record, &[], None);
    no_seats.seats.clear();
    let mut unnamed = new_match(&record, &[], None);
    unnamed.seats[0].name.clear();
    let twice = new_match(&record, &[Some(a.id), Some(a.id)], Some(RatingSystem::Elo));
    let mut elo_three = new_match(&record, &[], Some(RatingSystem::Elo));
    elo_three.seats.push(SeatRecord {
        name: "third".into(),
        account_id: None,
        bot: None,
    });
    let ghost = new_match(&record, &[Some(a.id + 999)], None);
    for (why, new) in [
        ("no seats", no_seats),
        ("an unnamed seat", unnamed),
        ("an account twice in a rated match", twice),
        ("Elo with three seats", elo_three),
        ("an unknown account", ghost),
    ] {
        assert!(
            matches!(
                store.create_match(&new).await,
                Err(StoreError::InvalidMatch(_))
            ),
            "{why}"
        );
    }
    assert!(store
        .list_matches(&MatchFilter::default())
        .await
        .expect("list")
        .is_empty());
    // Unrated, one account may hold every seat (a player testing against itself).
    store
        .create_match(&new_match(&record, &[Some(a.id), Some(a.id)], None))
        .await
        .expect("unrated self-play");
}

async fn log_entries_keep_ejections(db: &TestDb) {
    let store = &db.store;
    let record = played("spacegoo", 2, 9);
    let id = store
        .create_match(&new_match(&record, &[], None))
        .await
        .expect("create");
    let eject = LogEntry::Eject {
        seat: 1,
        reason: "timeout: no answer in 2 s".into(),
        digest: "abc".into(),
    };
    store.append_log(id, 0, &eject).await.expect("append");
    let back = store.match_record(id).await.expect("read").expect("exists");
    assert_eq!(back.log, vec![eject]);
}

on_both_backends!(
    every_ruleset_replays_from_the_store,
    a_running_match_gives_its_log_so_far,
    seeds_round_trip_exactly,
    log_entries_come_in_order_once,
    a_match_finishes_once_with_a_fitting_outcome,
    a_match_finishes_only_with_its_whole_log,
    seat_results_name_wins_draws_and_losses,
    a_restart_finds_this_nodes_running_matches_with_their_clocks,
    a_restart_reads_its_matches_a_batch_at_a_time,
    a_live_node_takes_over_the_matches_of_a_silent_one,
    lists_filter_and_page_newest_first,
    bad_matches_are_refused,
    log_entries_keep_ejections,
);

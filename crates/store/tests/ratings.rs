//! Ratings and profiles on both backends: rated matches move ratings in the finishing
//! transaction, results rate once, concurrent results lose no update.

use crate::common::{new_match, outcome, played, store_played, TestDb};
use arbiter_store::{RatingSystem, StoreError, ELO_K, INITIAL_DISPLAY};

async fn an_elo_match_moves_both_ratings_when_it_finishes(db: &TestDb) {
    let store = &db.store;
    let ann = store.register("ann", "pw").await.expect("register");
    let bob = store.register("bob", "pw").await.expect("register");
    let record = played("spacegoo", 2, 21);
    let id = store
        .create_match(&new_match(
            &record,
            &[Some(ann.id), Some(bob.id)],
            Some(RatingSystem::Elo),
        ))
        .await
        .expect("create");
    assert_eq!(store.rating(ann.id, "spacegoo").await.expect("read"), None);
    let finished = store
        .finish_match(id, &outcome(vec![1, 2]), 0)
        .await
        .expect("finish");
    let half_k = (ELO_K / 2.0) as i64;
    let changes: Vec<_> = finished
        .rating_changes
        .iter()
        .map(|c| (c.account_id, c.before, c.after))
        .collect();
    assert_eq!(
        changes,
        vec![
            (ann.id, INITIAL_DISPLAY, INITIAL_DISPLAY + half_k),
            (bob.id, INITIAL_DISPLAY, INITIAL_DISPLAY - half_k)
        ]
    );
    let rating = store
        .rating(ann.id, "spacegoo")
        .await
        .expect("read")
        .expect("rated");
    assert_eq!(rating.system, RatingSystem::Elo);
    assert_eq!(rating.display, 1005);
    assert_eq!(rating.games, 1);
    assert_eq!(rating.name, "ann");

    let board = store.leaderboard("spacegoo", 10).await.expect("board");
    let names: Vec<_> = board
        .iter()
        .map(|e| (e.position, e.name.as_str(), e.display))
        .collect();
    assert_eq!(names, vec![(1, "ann", 1005), (2, "bob", 995)]);
    assert!(store
        .leaderboard("tae", 10)
        .await
        .expect("board")
        .is_empty());

    let history = store
        .rating_history(bob.id, "spacegoo", 50)
        .await
        .expect("history");
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].match_id, Some(id));
    assert_eq!(history[0].display, 995);
}

async fn weng_lin_rates_accounts_and_skips_bots(db: &TestDb) {
    let store = &db.store;
    let mut accounts = Vec::new();
    for name in ["w1", "w2", "w3"] {
        accounts.push(store.register(name, "pw").await.expect("register").id);
    }
    let record = played("tae", 4, 22);
    // Seat 2 is a house bot; the three accounts are rated among themselves.
    let seats = [
        Some(accounts[0]),
        Some(accounts[1]),
        None,
        Some(accounts[2]),
    ];
    let id = store
        .create_match(&new_match(&record, &seats, Some(RatingSystem::WengLin)))
        .await
        .expect("create");
    let finished = store
        .finish_match(id, &outcome(vec![2, 4, 1, 2]), 0)
        .await
        .expect("finish");
    assert_eq!(finished.rating_changes.len(), 3);
    let after = |account| {
        finished
            .rating_changes
            .iter()
            .find(|c| c.account_id == account)
            .expect("changed")
            .clone()
    };
    let (w1, w2, w3) = (after(accounts[0]), after(accounts[1]), after(accounts[2]));
    assert!((w1.mu - w3.mu).abs() < 1e-9, "tied seats move alike");
    assert!(w1.mu > 25.0 && w2.mu < 25.0, "{w1:?} {w2:?}");
    assert!(w1.sigma < 25.0 / 3.0);
    let stored = store
        .rating(accounts[1], "tae")
        .await
        .expect("read")
        .expect("rated");
    assert_eq!(stored.system, RatingSystem::WengLin);
    assert_eq!(stored.display, w2.after);
    assert!((stored.mu - w2.mu).abs() < 1e-12);
}

async fn unrated_and_lone_account_matches_change_no_rating(db: &TestDb) {
    let store = &db.store;
    let ann = store.register("solo", "pw").await.expect("register");
    let record = played("spacegoo", 2, 23);
    let (_, unrated) = store_played(store, &record, &[Some(ann.id), None], None).await;
    assert!(unrated.rating_changes.is_empty());
    let (_, lone) = store_played(
        store,
        &record,
        &[Some(ann.id), None],
        Some(RatingSystem::Elo),
    )
    .await;
    assert!(
        lone.rating_changes.is_empty(),
        "one account has nobody to be rated against"
    );
    assert_eq!(store.rating(ann.id, "spacegoo").await.expect("read"), None);
}

async fn a_result_is_rated_once_and_refusals_change_nothing(db: &TestDb) {
    let store = &db.store;
    let a = store.register("r1", "pw").await.expect("register").id;
    let b = store.register("r2", "pw").await.expect("register").id;
    let record = played("spacegoo", 2, 24);
    let (id, _) = store_played(store, &record, &[], None).await;
    let placings = [(a, 1), (b, 2)];
    store
        .apply_result("spacegoo", RatingSystem::Elo, Some(id), &placings)
        .await
        .expect("rate");
    assert!(matches!(
        store
            .apply_result("spacegoo", RatingSystem::Elo, Some(id), &placings)
            .await,
        Err(StoreError::InvalidResult(_))
    ));
    assert!(matches!(
        store
            .apply_result("spacegoo", RatingSystem::WengLin, None, &placings)
            .await,
        Err(StoreError::RatingSystemMismatch { .. })
    ));
    for bad in [&[(a, 1)][..], &[(a, 1), (a, 2)], &[(a, 0), (b, 1)]] {
        assert!(matches!(
            store
                .apply_result("spacegoo", RatingSystem::Elo, None, bad)
                .await,
            Err(StoreError::InvalidResult(_))
        ));
    }
    assert!(matches!(
        store
            .apply_result("spacegoo", RatingSystem::Elo, None, &[(a, 1), (b + 99, 2)])
            .await,
        Err(StoreError::UnknownAccountId(_))
    ));
    let rating = store
        .rating(a, "spacegoo")
        .await
        .expect("read")
        .expect("rated");
    assert_eq!(
        (rating.games, rating.display),
        (1, 1005),
        "refused results left no trace"
    );
    assert_eq!(store.rating(b + 99, "spacegoo").await.expect("read"), None);
    assert_eq!(
        store
            .rating_history(a, "spacegoo", 10)
            .await
            .expect("history")
            .len(),
        1
    );
}

async fn concurrent_results_lose_no_update(db: &TestDb) {
    let store = &db.store;
    let a = store.register("c1", "pw").await.expect("register").id;
    let b = store.register("c2", "pw").await.expect("register").id;
    let c = store.register("c3", "pw").await.expect("register").id;
    let tasks: Vec<_> = (0..12)
        .map(|i| {
            let store = store.clone();
            // Every result involves `a`, with a rotating opponent and winner.
            let other = if i % 2 == 0 { b } else { c };
            let placings = if i % 3 == 0 {
                vec![(a, 1), (other, 2)]
            } else {
                vec![(other, 1), (a, 2)]
            };
            tokio::spawn(async move {
                store
                    .apply_result("qgame", RatingSystem::WengLin, None, &placings)
                    .await
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("task").expect("rate");
    }
    let rating = store
        .rating(a, "qgame")
        .await
        .expect("read")
        .expect("rated");
    assert_eq!(rating.games, 12);
    assert_eq!(
        store
            .rating_history(a, "qgame", 100)
            .await
            .expect("history")
            .len(),
        12
    );
    let b_games = store
        .rating(b, "qgame")
        .await
        .expect("read")
        .expect("rated")
        .games;
    let c_games = store
        .rating(c, "qgame")
        .await
        .expect("read")
        .expect("rated")
        .games;
    assert_eq!((b_games, c_games), (6, 6));
}

async fn a_profile_gathers_ratings_counts_and_recent_matches(db: &TestDb) {
    let store = &db.store;
    let ann = store.register("Prof", "pw").await.expect("register");
    let bob = store.register("other", "pw").await.expect("register");
    let goo = played("spacegoo", 2, 25);
    let seats = [Some(ann.id), Some(bob.id)];
    let id = store
        .create_match(&new_match(&goo, &seats, Some(RatingSystem::Elo)))
        .await
        .expect("create");
    store
        .finish_match(id, &outcome(vec![1, 2]), 0)
        .await
        .expect("finish");
    let id = store
        .create_match(&new_match(&goo, &seats, Some(RatingSystem::Elo)))
        .await
        .expect("create");
    store
        .finish_match(id, &outcome(vec![1, 1]), 0)
        .await
        .expect("finish");
    let id = store
        .create_match(&new_match(&goo, &seats, None))
        .await
        .expect("create");
    store
        .finish_match(id, &outcome(vec![2, 1]), 0)
        .await
        .expect("finish");
    let aborted = store
        .create_match(&new_match(&goo, &seats, None))
        .await
        .expect("create");
    store.abort_match(aborted, "test").await.expect("abort");
    let running = store
        .create_match(&new_match(&goo, &[None, Some(ann.id)], None))
        .await
        .expect("create");

    let profile = store
        .player_profile("prof")
        .await
        .expect("read")
        .expect("exists");
    assert_eq!(profile.account, ann);
    let c = &profile.counts;
    assert_eq!(
        (c.seats, c.running, c.finished, c.aborted, c.wins, c.draws, c.losses),
        (5, 1, 3, 1, 1, 1, 1)
    );
    assert_eq!(profile.ratings.len(), 1);
    assert_eq!(profile.ratings[0].ruleset, "spacegoo");
    assert_eq!(profile.ratings[0].games, 2);
    assert_eq!(profile.recent.len(), 5);
    assert_eq!(profile.recent[0].id, running);
    assert_eq!(store.player_profile("ghost").await.expect("read"), None);
    assert_eq!(store.player_profile("bad name!").await.expect("read"), None);
}

on_both_backends!(
    an_elo_match_moves_both_ratings_when_it_finishes,
    weng_lin_rates_accounts_and_skips_bots,
    unrated_and_lone_account_matches_change_no_rating,
    a_result_is_rated_once_and_refusals_change_nothing,
    concurrent_results_lose_no_update,
    a_profile_gathers_ratings_counts_and_recent_matches,
);

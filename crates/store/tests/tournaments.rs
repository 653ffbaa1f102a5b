//! Tournaments on both backends: created open, joined and withdrawn with clear
//! refusals that change nothing, rounds written once and in order, games decided once.

use crate::common::TestDb;
use arbiter_store::{
    EntrantStatus, EntryRule, LateJoin, MatchFilter, NewRound, NewTournament, StoreError,
    TournamentStatus,
};
use serde_json::json;

fn swiss(max_entrants: u32) -> NewTournament {
    NewTournament {
        name: "Friday Swiss".into(),
        ruleset: "tae".into(),
        config: json!({}),
        format: "swiss".into(),
        seats: 2,
        rounds: Some(3),
        duration_ms: None,
        starts_at: None,
        start_when: Some(4),
        deadline_ms: 5_000,
        time_bank_ms: 30_000,
        rated: true,
        max_entrants,
        created_by: None,
        entry: EntryRule::Both,
    }
}

fn code(result: Result<(), StoreError>) -> &'static str {
    match result {
        Err(StoreError::Tournament { code, .. }) => code,
        other => panic!("expected a tournament refusal, got {other:?}"),
    }
}

async fn join_withdraw_and_refusals(db: &TestDb) {
    let store = &db.store;
    let a = store.register("ann", "pw").await.expect("register").id;
    let b = store.register("bob", "pw").await.expect("register").id;
    let c = store.register("cid", "pw").await.expect("register").id;
    let id = store.create_tournament(&swiss(2)).await.expect("create");
    let t = store.tournament(id).await.expect("read").expect("exists");
    assert_eq!(
        (t.status, t.round, t.entrants),
        (TournamentStatus::Open, 0, 0)
    );
    assert_eq!(t.node, "local");

    store
        .join_tournament(id, a, "ann", 1500.0, LateJoin::Never)
        .await
        .expect("ann joins");
    assert_eq!(
        code(
            store
                .join_tournament(id, a, "ann", 1500.0, LateJoin::Never)
                .await
        ),
        "already_entered"
    );
    store
        .join_tournament(id, b, "bob", 1400.0, LateJoin::Never)
        .await
        .expect("bob joins");
    assert_eq!(
        code(
            store
                .join_tournament(id, c, "cid", 1400.0, LateJoin::Never)
                .await
        ),
        "tournament_full"
    );
    assert_eq!(
        code(
            store
                .join_tournament(id + 99, c, "cid", 1.0, LateJoin::Never)
                .await
        ),
        "no_such_tournament"
    );
    assert_eq!(
        code(store.withdraw_from_tournament(id, c).await),
        "not_entered"
    );
    // Refusals changed nothing.
    let t = store.tournament(id).await.expect("read").expect("exists");
    assert_eq!(t.entrants, 2);

    store
        .withdraw_from_tournament(id, b)
        .await
        .expect("bob withdraws");
    store
        .join_tournament(id, c, "cid", 1400.0, LateJoin::Never)
        .await
        .expect("cid takes the place");
    let entrants = store.tournament_entrants(id).await.expect("entrants");
    let statuses: Vec<(&str, EntrantStatus)> = entrants
        .iter()
        .map(|e| (e.name.as_str(), e.status))
        .collect();
    assert_eq!(
        statuses,
        [
            ("ann", EntrantStatus::Active),
            ("bob", EntrantStatus::Withdrawn),
            ("cid", EntrantStatus::Active)
        ]
    );
    // A game's seats only: the withdrawn one shows as withdrawn, strangers not at all.
    let mut among: Vec<(&str, EntrantStatus)> = Vec::new();
    let seated = store
        .tournament_entrants_among(id, &[b, c, c + 1000])
        .await
        .expect("entrants among");
    among.extend(seated.iter().map(|e| (e.name.as_str(), e.status)));
    among.sort_by_key(|(name, _)| *name);
    assert_eq!(
        among,
        [
            ("bob", EntrantStatus::Withdrawn),
            ("cid", EntrantStatus::Active)
        ]
    );

    assert!(store.start_tournament(id).await.expect("start"));
    assert!(!store.start_tournament(id).await.expect("start once"));
    store
        .withdraw_from_tournament(id, c)
        .await
        .expect("cid withdraws");
    assert_eq!(
        code(
            store
                .join_tournament(id, b, "bob", 1.0, LateJoin::Never)
                .await
        ),
        "tournament_started"
    );
    store
        .join_tournament(id, b, "bob", 1.0, LateJoin::UntilRound(1))
        .await
        .expect("a late join before round 2");
    assert!(store
        .end_tournament(id, TournamentStatus::Finished)
        .await
        .expect("end"));
    assert_eq!(
        code(
            store
                .join_tournament(id, c, "cid", 1.0, LateJoin::Always)
                .await
        ),
        "tournament_over"
    );
    assert_eq!(
        code(store.withdraw_from_tournament(id, a).await),
        "tournament_over"
    );
    assert!(store
        .unfinished_tournaments()
        .await
        .expect("list")
        .is_empty());
}

async fn rounds_are_written_once_and_in_order(db: &TestDb) {
    let store = &db.store;
    let ids: Vec<i64> = {
        let mut ids = Vec::new();
        for name in ["p1", "p2", "p3"] {
            ids.push(store.register(name, "pw").await.expect("register").id);
        }
        ids
    };
    let id = store.create_tournament(&swiss(8)).await.expect("create");
    for &p in &ids {
        store
            .join_tournament(id, p, "x", 1.0, LateJoin::Never)
            .await
            .expect("join");
    }
    let round = |n: u32| NewRound {
        round: n,
        games: vec![(vec![ids[0], ids[1]], None)],
        byes: vec![ids[2]],
    };
    // Not running yet: no round.
    assert!(store.write_round(id, &round(1)).await.is_err());
    assert_eq!(store.unfinished_tournaments().await.expect("list"), [id]);
    store.start_tournament(id).await.expect("start");
    assert!(
        store.write_round(id, &round(2)).await.is_err(),
        "round 2 before round 1"
    );
    let games = store.write_round(id, &round(1)).await.expect("round 1");
    assert!(
        store.write_round(id, &round(1)).await.is_err(),
        "round 1 twice"
    );
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].seats, [ids[0], ids[1]]);
    assert_eq!(
        store
            .tournament(id)
            .await
            .expect("read")
            .expect("exists")
            .round,
        1
    );

    // A forfeit is decided as it is written.
    let forfeit = NewRound {
        round: 2,
        games: vec![(vec![ids[1], ids[2]], Some(vec![1, 2]))],
        byes: vec![],
    };
    let written = store.write_round(id, &forfeit).await.expect("round 2");
    assert!(written[0].forfeit);

    assert!(store
        .decide_game(games[0].id, &[2, 1], false)
        .await
        .expect("decide"));
    assert!(!store
        .decide_game(games[0].id, &[1, 2], false)
        .await
        .expect("decided once"));
    let played_by = |game: i64| {
        let mut new = crate::common::new_match(&crate::common::played("nim", 2, 1), &[], None);
        new.tournament_game = Some(game);
        new
    };
    assert!(
        store.create_match(&played_by(games[0].id)).await.is_err(),
        "a decided game takes no match"
    );

    let all = store.tournament_games(id).await.expect("games");
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].ranks.as_deref(), Some(&[2, 1][..]));
    assert_eq!(all[1].ranks.as_deref(), Some(&[1, 2][..]));
    let byes = store.tournament_byes(id).await.expect("byes");
    assert_eq!(byes.len(), 1);
    assert_eq!((byes[0].round, byes[0].account_id), (1, ids[2]));
}

async fn absurd_settings_are_refused(db: &TestDb) {
    let store = &db.store;
    for bad in [
        NewTournament {
            max_entrants: 1,
            ..swiss(2)
        },
        NewTournament {
            max_entrants: 1_000_000,
            ..swiss(2)
        },
        NewTournament {
            name: " ".into(),
            ..swiss(2)
        },
        NewTournament {
            name: "n".repeat(200),
            ..swiss(2)
        },
    ] {
        match store.create_tournament(&bad).await {
            Err(StoreError::Tournament {
                code: "bad_tournament",
                ..
            }) => {}
            other => panic!("expected bad_tournament, got {other:?}"),
        }
    }
    assert!(store.list_tournaments(10).await.expect("list").is_empty());
}

/// A tournament for people only, or bots only, refuses the other kind of account with a
/// code that says which, changing nothing; one for both takes either.
async fn the_entry_rule_admits_people_bots_or_both(db: &TestDb) {
    let store = &db.store;
    let person = store.register("ann", "pw").await.expect("register").id;
    let bot = store
        .register_as("robo", "pw", true)
        .await
        .expect("register")
        .id;
    let cases = [
        (EntryRule::People, "entry_people_only", bot, person),
        (EntryRule::Bots, "entry_bots_only", person, bot),
    ];
    for (entry, refusal, refused, admitted) in cases {
        let id = store
            .create_tournament(&NewTournament {
                name: format!("for {}", entry.as_str()),
                entry,
                ..swiss(4)
            })
            .await
            .expect("create");
        let t = store.tournament(id).await.expect("read").expect("exists");
        assert_eq!(t.entry, entry);
        let refused_join = || store.join_tournament(id, refused, "x", 1500.0, LateJoin::Never);
        assert_eq!(code(refused_join().await), refusal);
        let t = store.tournament(id).await.expect("read").expect("exists");
        assert_eq!(t.entrants, 0, "a refusal changes nothing");
        assert!(store
            .tournament_entrants(id)
            .await
            .expect("read")
            .is_empty());
        store
            .join_tournament(id, admitted, "y", 1500.0, LateJoin::Never)
            .await
            .expect("the admitted kind joins");
        // Once it has started, the rule is still the reason given.
        assert!(store.start_tournament(id).await.expect("start"));
        assert_eq!(code(refused_join().await), refusal);
    }
    let both = store.create_tournament(&swiss(4)).await.expect("create");
    for (account, name) in [(person, "ann"), (bot, "robo")] {
        store
            .join_tournament(both, account, name, 1500.0, LateJoin::Never)
            .await
            .expect("both kinds join");
    }
    let entrants = store.tournament_entrants(both).await.expect("entrants");
    let kinds: Vec<(&str, bool)> = entrants.iter().map(|e| (e.name.as_str(), e.bot)).collect();
    assert_eq!(kinds, [("ann", false), ("robo", true)]);
    let listed = store.list_tournaments(10).await.expect("list");
    let rules: Vec<EntryRule> = listed.iter().map(|t| t.entry).collect();
    assert_eq!(rules, [EntryRule::Both, EntryRule::Bots, EntryRule::People]);
}

/// A tournament's match is recorded with its game in one transaction, and only by the
/// node directing the tournament: a director that stopped (or lost its tournament to
/// another node) between the two can leave no match its tournament does not know of.
async fn a_tournament_match_is_recorded_with_its_game(db: &TestDb) {
    let store = &db.store;
    let mut ids = Vec::new();
    for name in ["g1", "g2"] {
        ids.push(store.register(name, "pw").await.expect("register").id);
    }
    let id = store.create_tournament(&swiss(4)).await.expect("create");
    for &p in &ids {
        store
            .join_tournament(id, p, "x", 1.0, LateJoin::Never)
            .await
            .expect("join");
    }
    store.start_tournament(id).await.expect("start");
    let round = NewRound {
        round: 1,
        games: vec![(ids.clone(), None)],
        byes: vec![],
    };
    let game = store.write_round(id, &round).await.expect("round 1")[0].id;
    let record = crate::common::played("nim", 2, 7);
    let mut new = crate::common::new_match(&record, &[Some(ids[0]), Some(ids[1])], None);
    new.tournament_game = Some(game);
    let recorded = |store: arbiter_store::Store| async move {
        let all = store.list_matches(&MatchFilter::default()).await;
        all.expect("list the matches").len()
    };
    let before = recorded(store.clone()).await;

    // Another node, not directing the tournament: refused, and nothing recorded.
    let other = store.clone().with_node("other");
    let refused = other
        .create_match(&new)
        .await
        .expect_err("not its tournament");
    assert!(
        matches!(
            refused,
            StoreError::Tournament {
                code: "game_not_directed_here",
                ..
            }
        ),
        "{refused:?}"
    );
    assert_eq!(
        recorded(store.clone()).await,
        before,
        "no match left behind"
    );
    assert_eq!(
        store.tournament_games(id).await.expect("games")[0].match_id,
        None
    );

    // The directing node: the match and its game's link, together.
    let first = store
        .create_match(&new)
        .await
        .expect("recorded with its game");
    assert_eq!(
        store.tournament_games(id).await.expect("games")[0].match_id,
        Some(first)
    );
    // A game played again (its first match lost) points at the latest match.
    let again = store.create_match(&new).await.expect("played again");
    assert_eq!(
        store.tournament_games(id).await.expect("games")[0].match_id,
        Some(again)
    );
}

on_both_backends!(
    a_tournament_match_is_recorded_with_its_game,
    join_withdraw_and_refusals,
    rounds_are_written_once_and_in_order,
    absurd_settings_are_refused,
    the_entry_rule_admits_people_bots_or_both
);

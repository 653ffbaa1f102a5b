//! Full games over a real loopback port between two clients written from the protocol
//! description: every game is stored, finished with its rating changes, replays with
//! every digest verified, and is watchable while it runs.

mod client;
mod port;

use arbiter_store::MatchStatus;
use client::{attacker, passive, play, Client, Played, Strategy};
use port::{quick_options, Port};

async fn one_side(
    address: std::net::SocketAddr,
    user: &str,
    strategy: Strategy,
) -> (Played, Vec<String>) {
    let mut client = Client::connect(address).await;
    client.login(user, &format!("{user}-password")).await;
    let played = play(&mut client, strategy).await;
    let rest = client.rest().await;
    (played, rest)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_play_full_games_that_are_stored_rated_and_replayable() {
    let port = Port::start(quick_options()).await;
    let registry = arbiter_rulesets::registry();
    let mut total_change = [0.0f64; 2];
    for game in 0..2 {
        let ((ann, ann_rest), (bob, bob_rest)) = tokio::join!(
            one_side(port.address, "ann", attacker),
            one_side(
                port.address,
                "bob",
                if game == 0 { passive } else { attacker }
            ),
        );
        // Both saw the same game from their sides.
        assert_eq!(ann.game_id, bob.game_id);
        assert_eq!(
            (ann.opponent.as_str(), bob.opponent.as_str()),
            ("bob", "ann")
        );
        assert_eq!(ann.player_id + bob.player_id, 3);
        assert_eq!(ann.reason, bob.reason);
        assert!(
            ann.reason.ends_with(" won") || ann.reason == "game is a draw",
            "{}",
            ann.reason
        );
        assert!(ann.states > 0);
        assert!((ann.rating_change + bob.rating_change).abs() < 0.01);
        for played in [&ann, &bob] {
            assert_eq!(played.final_state["game_over"], true);
        }
        for rest in [&ann_rest, &bob_rest] {
            assert_eq!(
                rest,
                &[
                    format!(
                        "This game is now available at http://arbiter.test/matches/{}",
                        ann.game_id
                    ),
                    "closing connection. see you next time".to_string()
                ]
            );
        }
        total_change[0] += ann.rating_change;
        total_change[1] += bob.rating_change;

        // The match is an ordinary stored match: finished, replayable byte for byte.
        let summary = port
            .store
            .match_summary(ann.game_id)
            .await
            .expect("store")
            .expect("the match is stored");
        assert_eq!(summary.status, MatchStatus::Finished);
        assert_eq!(summary.ruleset, "spacegoo");
        let record = port
            .store
            .match_record(ann.game_id)
            .await
            .expect("store")
            .expect("a record");
        let outcome = record.outcome.clone().expect("an outcome");
        assert!(outcome.summary.contains(&ann.reason) || ann.reason.contains(&outcome.summary));
        registry
            .replay(&record, true)
            .expect("the stored game replays with every digest verified");
        // One log entry per command, and the game's states were one per round.
        assert!(record.log.len() >= ann.states);
    }
    // The ratings the clients were told add up to the stored ones.
    for (name, change) in [("ann", total_change[0]), ("bob", total_change[1])] {
        let account = port
            .store
            .account_by_name(name)
            .await
            .expect("store")
            .expect("account");
        let rating = port
            .store
            .rating(account.id, "spacegoo")
            .await
            .expect("store")
            .expect("rated");
        assert_eq!(rating.games, 2);
        assert!(
            (rating.mu - (1000.0 + change)).abs() < 0.01,
            "{name}: {rating:?} vs {change}"
        );
    }
    // The server was told of both matches, start and end.
    assert_eq!(port.seen.started.lock().expect("lock").len(), 2);
    assert_eq!(port.seen.ended.lock().expect("lock").len(), 2);
    port.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_game_can_be_watched() {
    let port = Port::start(quick_options()).await;
    let mut ann = Client::connect(port.address).await;
    let mut bob = Client::connect(port.address).await;
    ann.login("ann", "pw").await;
    bob.login("bob", "pw").await;
    // Both see their game start before anyone moves.
    let start = ann.expect_line().await;
    assert!(
        start.starts_with("game 1 starts. other player is bob"),
        "{start}"
    );
    let started = port.seen.started.lock().expect("lock").first().cloned();
    let started = started.expect("the observer heard of the match");
    assert_eq!(started.match_id, 1);
    let mut watcher = started.handle.spectate().await.expect("spectate");
    let joined = watcher.recv().await.expect("joined");
    assert!(matches!(
        joined,
        arbiter_referee::ToSeat::Joined { seat: None, .. }
    ));
    let view = watcher.recv().await.expect("a view");
    match view {
        arbiter_referee::ToSeat::View { view, .. } => {
            let view = view.to_value();
            assert_eq!(view["round"], 0);
            assert!(view.get("player_id").is_none(), "a spectator's view");
        }
        other => panic!("expected a view, got {other:?}"),
    }
    drop(ann);
    drop(bob);
    port.stop().await;
}

//! Bots at full speed are never rate-limited out of a game. The built-in network bot
//! answers every prompt the moment it arrives, faster than the per-connection message
//! rate (spacegoo's ticks, T&E's bursts of conflict prompts); the server paces such a
//! client instead of refusing its messages, so at the default limits every game of every
//! ruleset ends with no ejection and no refused action, and no decision waits for a
//! deadline (the deadline here is far longer than the whole test may take).

use std::time::Duration;

use crate::common::*;
use arbiter_server::client::{play, BotPlan, Games};
use serde_json::Value;

const GAMES: u32 = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_pairs_of_every_ruleset_play_without_ejection_at_the_default_limits() {
    let server = start(|c| c.default_deadline = Some(Duration::from_secs(600))).await;
    let mut pairs = Vec::new();
    for ruleset in arbiter_rulesets::all() {
        let id = ruleset.id();
        for side in ["a", "b"] {
            let plan = BotPlan {
                session: None,
                server: server.tcp.clone(),
                ruleset: id.to_string(),
                name: format!("fast-{id}-{side}"),
                password: password(&format!("fast-{id}-{side}")),
                games: Games::Exactly(GAMES),
                config: Value::Null,
                seats: None,
                reconnect_for: std::time::Duration::ZERO,
                queue_wait: None,
            };
            let players = random_players(id);
            pairs.push(tokio::spawn(async move {
                (plan.name.clone(), play(&plan, players).await)
            }));
        }
    }
    // Only a hang detector: a decision left to its 600 s deadline would trip it.
    let reports = tokio::time::timeout(Duration::from_secs(300), futures::future::join_all(pairs))
        .await
        .expect("every game ends without waiting for a deadline");
    for joined in reports {
        let (name, report) = joined.expect("the bot task");
        let report = report.unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(report.games.len(), GAMES as usize, "{name}");
        // Space Crack's turns are concurrent (first come): an answer that raced with the
        // other seat's can be refused as stale, and the bot answers again. Elsewhere a
        // bot's answer is always to the decision it owes, so nothing may be refused.
        if !name.starts_with("fast-spacecrack") {
            assert_eq!(report.rejected, 0, "{name}: refused actions");
        }
        for game in &report.games {
            assert_eq!(game.ejected, None, "{name}: match {}", game.match_id);
            let stored = finished_match(&server.http, game.match_id).await;
            let ejected = stored["outcome"]["ejected"].as_array().unwrap();
            assert!(ejected.iter().all(Value::is_null), "{name}: {stored}");
        }
    }
    server.stop().await;
}

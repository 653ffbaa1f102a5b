//! The generic `mcts` bot is offered by every ruleset and plays whole games through
//! `play_local` (determinized states, the engine's legality check) without one illegal
//! move; bounded by iterations it is reproducible.

use arbiter_bots::BotOptions;
use arbiter_engine::LogEntry;
use serde_json::Value;

fn counted(iterations: u64) -> BotOptions {
    BotOptions {
        think_ms: None,
        iterations: Some(iterations),
    }
}

#[test]
fn mcts_plays_a_whole_game_of_every_ruleset_without_an_illegal_move() {
    let rulesets = arbiter_rulesets::all();
    std::thread::scope(|scope| {
        for ruleset in &rulesets {
            scope.spawn(move || {
                assert!(ruleset.bots.contains(&arbiter_rulesets::MCTS));
                let seats = vec!["mcts".to_string(), "greedy".to_string()];
                let record = ruleset
                    .play_local_with(&Value::Null, &seats, 5, &counted(12))
                    .unwrap();
                let ejections: Vec<&LogEntry> = record
                    .log
                    .iter()
                    .filter(|e| matches!(e, LogEntry::Eject { .. }))
                    .collect();
                assert!(ejections.is_empty(), "{}: {ejections:?}", ruleset.id());
                let outcome = record.outcome.as_ref().expect("the game ends");
                assert!(outcome.ejected.iter().all(Option::is_none));
                // The record replays, move for move.
                arbiter_rulesets::registry().replay(&record, true).unwrap();
                // Bounded by iterations, the same seed plays the same game.
                let again = ruleset
                    .play_local_with(&Value::Null, &seats, 5, &counted(12))
                    .unwrap();
                assert_eq!(record.log, again.log, "{}", ruleset.id());
            });
        }
    });
}

#[test]
fn mcts_takes_a_live_seat_with_a_budget() {
    for ruleset in arbiter_rulesets::all() {
        let config = ruleset.game.default_config();
        let state = ruleset.game.new_state(&config, 2, 3).unwrap();
        let seat = state.to_act().seats()[0];
        let mut bot = ruleset.house_bot_with("mcts", 1, &counted(8)).unwrap();
        let action = bot.decide(state.as_ref(), seat).unwrap();
        let mut copy = state.clone_box();
        copy.apply(seat, &action)
            .unwrap_or_else(|e| panic!("{}: {action} is illegal: {e}", ruleset.id()));
    }
}

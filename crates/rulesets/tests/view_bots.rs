//! View bots: every decision made from the seat's serialized view alone, as a network
//! client receives it, and never an illegal move.

use arbiter_bots::BotOptions;
use arbiter_engine::DynState;
use arbiter_rulesets::{all, Ruleset, ViewBot, MCTS};
use serde_json::{json, Value};

/// A seat's view as it would travel: serialized, then parsed back.
fn sent_view(state: &dyn DynState, seat: usize) -> Value {
    let text = serde_json::to_string(&state.view(Some(seat))).expect("a view serializes");
    serde_json::from_str(&text).expect("a view parses")
}

/// Play `ruleset` with one view bot per seat until the game ends or `max_decisions`
/// were made; every answer must be accepted. Returns the decisions made.
fn play_from_views(
    ruleset: &Ruleset,
    config: &Value,
    bots: &mut [Box<dyn ViewBot>],
    seed: u64,
    max_decisions: usize,
) -> (Box<dyn DynState>, usize) {
    let mut state = ruleset
        .game
        .new_state(config, bots.len(), seed)
        .expect("valid config");
    let mut decisions = 0;
    while decisions < max_decisions {
        let turn = state.to_act();
        let waiting = turn.seats();
        // Rotate among the seats that may act, so concurrent and sealed turns mix.
        let Some(&seat) = waiting.get(decisions % waiting.len().max(1)) else {
            break;
        };
        let view = sent_view(state.as_ref(), seat);
        let action = bots[seat]
            .decide(&view, seat)
            .unwrap_or_else(|e| panic!("{}: seat {seat} could not decide: {e}", ruleset.id()));
        if let Err(illegal) = state.apply(seat, &action) {
            panic!(
                "{}: seat {seat} answered {action} from its view: {illegal}",
                ruleset.id()
            );
        }
        decisions += 1;
    }
    (state, decisions)
}

fn seats_for(ruleset: &Ruleset, config: &Value) -> usize {
    let counts = ruleset.game.seat_counts(config).expect("valid config");
    (*counts.start()).max(3).min(*counts.end())
}

/// Each ruleset's own bots, one per seat, play a whole game from views alone.
#[test]
fn own_bots_play_whole_games_from_views() {
    for ruleset in all() {
        let config = ruleset.game.default_config();
        let seats = seats_for(&ruleset, &config);
        let mut bots: Vec<Box<dyn ViewBot>> = (0..seats)
            .map(|seat| {
                let name = if seat == 0 { "greedy" } else { "random" };
                ruleset
                    .view_bot(name, 40 + seat as u64, &config)
                    .expect("a built-in bot")
            })
            .collect();
        let (state, decisions) = play_from_views(&ruleset, &config, &mut bots, 21, 100_000);
        assert!(
            state.outcome().is_some(),
            "{} did not end after {decisions} decisions",
            ruleset.id()
        );
    }
}

/// A Q-Game configuration that starts from a dealt position with a pile of 12 tiles
/// (a default game between a searching bot and a random one runs for a thousand turns).
fn short_qgame() -> Value {
    let dealt =
        arbiter_qgame::State::fresh(&arbiter_qgame::Config::default(), 2, 3).expect("a fresh game");
    let mut state0 = dealt.jstate();
    state0.pile.truncate(12);
    json!({ "state0": state0 })
}

/// `mcts` (from the ruleset's bot factory) plays from views too: a whole game against
/// random seats, on short configurations and a small budget so the test stays quick.
#[test]
fn mcts_plays_whole_games_from_views() {
    let options = BotOptions {
        think_ms: None,
        iterations: Some(12),
    };
    for ruleset in all() {
        let config = match ruleset.id() {
            "qgame" => short_qgame(),
            "spacegoo" => json!({ "max_rounds": 40 }),
            "spacecrack" => json!({ "turns": 6 }),
            _ => ruleset.game.default_config(),
        };
        let config = ruleset
            .game
            .normalize_config(&config)
            .expect("valid config");
        let seats = 2.max(*ruleset.game.seat_counts(&config).unwrap().start());
        let mut bots: Vec<Box<dyn ViewBot>> = (0..seats)
            .map(|seat| {
                let name = if seat == 0 { MCTS } else { "random" };
                ruleset
                    .try_view_bot(name, 7 + seat as u64, &config, &options)
                    .expect("a built-in bot")
            })
            .collect();
        let (state, decisions) = play_from_views(&ruleset, &config, &mut bots, 5, 100_000);
        assert!(
            state.outcome().is_some(),
            "{} did not end after {decisions} decisions",
            ruleset.id()
        );
    }
}

/// Unknown names, bad configurations and views the bot cannot use are refused with a
/// reason, never a panic.
#[test]
fn bad_requests_and_foreign_views_are_refused() {
    for ruleset in all() {
        let config = ruleset.game.default_config();
        assert!(ruleset.view_bot("no-such-bot", 1, &config).is_none());
        let bad = json!({ "no_such_option": 1 });
        let err = ruleset
            .try_view_bot("random", 1, &bad, &BotOptions::default())
            .err()
            .expect("an invalid configuration is refused");
        assert!(err.contains("configuration"), "{}: {err}", ruleset.id());

        let seats = seats_for(&ruleset, &config);
        let state = ruleset.game.new_state(&config, seats, 3).unwrap();
        let mut bot = ruleset.view_bot("random", 1, &config).unwrap();
        assert!(bot.decide(&json!({ "garbage": true }), 0).is_err());
        assert!(bot.decide(&json!("not even an object"), 0).is_err());
        // The spectator's view is nobody's seat view.
        if let Some(&seat) = state.to_act().seats().first() {
            let spectator = state.view(None);
            assert!(
                bot.decide(&spectator, seat).is_err() || ruleset.id() == "spacecrack",
                "{}: a spectator view was taken for seat {seat}'s",
                ruleset.id()
            );
        }
        // A seat that owes nothing gets an error, not a move.
        let idle = (0..seats).find(|&s| !state.to_act().includes(s));
        if let Some(idle) = idle {
            let view = sent_view(state.as_ref(), idle);
            let err = bot
                .decide(&view, idle)
                .expect_err("an idle seat is refused");
            assert!(err.contains("owes no decision"), "{}: {err}", ruleset.id());
        }
    }
}

/// The type-erased path (`DynGame::state_from_view`) rebuilds, for every seat along a
/// random game, a state with the same view, seat count and legal moves.
#[test]
fn erased_games_rebuild_states_from_views() {
    for ruleset in all() {
        let config = ruleset.game.default_config();
        let seats = seats_for(&ruleset, &config);
        let mut state = ruleset.game.new_state(&config, seats, 8).unwrap();
        let mut bots: Vec<_> = (0..seats)
            .map(|seat| ruleset.house_bot("random", seat as u64).unwrap())
            .collect();
        for step in 0..120u64 {
            for seat in 0..seats {
                let view = sent_view(state.as_ref(), seat);
                let rebuilt = ruleset
                    .game
                    .state_from_view(&config, &view, seat, step)
                    .unwrap_or_else(|e| panic!("{}: {e}", ruleset.id()));
                assert_eq!(rebuilt.view(Some(seat)), view, "{}", ruleset.id());
                assert_eq!(rebuilt.seat_count(), seats);
                if state.to_act().includes(seat) {
                    assert_eq!(rebuilt.legal(seat), state.legal(seat), "{}", ruleset.id());
                }
            }
            let Some(&seat) = state.to_act().seats().first() else {
                break;
            };
            let action = bots[seat].decide(state.as_ref(), seat).unwrap();
            state.apply(seat, &action).unwrap();
        }
        let err = ruleset
            .game
            .state_from_view(&config, &json!([1, 2, 3]), 0, 1)
            .err()
            .expect("a malformed view is refused");
        assert!(err.contains(ruleset.id()), "{err}");
    }
}

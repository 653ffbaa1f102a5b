//! Every ruleset's configuration and actions as JSON, through the same erased door
//! the server uses, and T&E's custom board text.

use serde_json::Value;

use arbiter_tae::{board_from_text, Config as TaeConfig};

/// The seed every fuzzed game starts from (the fuzzer varies the moves, not the deal).
pub(crate) const SEED: u64 = 7;

/// Actions read from one input at most.
const MAX_ACTIONS: usize = 32;

/// The refusal code of an action that is not the ruleset's JSON at all.
const MALFORMED: &str = "malformed_action";

/// Byte 0 picks the ruleset, byte 1 the seat count (0–5, so refused counts too); then
/// one line of configuration JSON and one action per line, each from the next seat in
/// turn (one past the last seat too). An action the rules refuse must change nothing,
/// a game that ends has one rank per seat, and every audience's view of where the
/// input leaves the game is JSON.
pub fn ruleset_play(data: &[u8]) {
    let [pick, seats, rest @ ..] = data else {
        return;
    };
    let registry = arbiter_rulesets::registry();
    let ids = registry.ids();
    let Some(game) = registry.get(ids[usize::from(*pick) % ids.len()]) else {
        return;
    };
    let seats = usize::from(*seats % 6);
    let text = String::from_utf8_lossy(rest);
    let mut lines = text.lines();
    let config = match lines.next().map(str::trim) {
        None | Some("") => Value::Null,
        Some(line) => match serde_json::from_str(line) {
            Ok(config) => config,
            Err(_) => return,
        },
    };
    let Ok(mut state) = game.new_state(&config, seats, SEED) else {
        return;
    };
    for (turn, line) in lines.take(MAX_ACTIONS).enumerate() {
        let Ok(action) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let seat = turn % (seats + 1);
        let before = state.clone_box();
        match state.apply(seat, &action) {
            // Refused before the rules saw it: nothing to compare.
            Err(refused) if refused.code == MALFORMED => {}
            Err(refused) => assert_eq!(
                state.digest(),
                before.digest(),
                "a refused {action} ({refused}) changed the state"
            ),
            Ok(_) => {
                if let Some(outcome) = state.outcome() {
                    assert_eq!(outcome.ranks.len(), seats, "one rank a seat");
                    break;
                }
            }
        }
    }
    for audience in (0..seats).map(Some).chain([None]) {
        let view = state.view_json(audience);
        assert!(
            serde_json::from_str::<Value>(&view).is_ok(),
            "{audience:?}'s view is not JSON"
        );
    }
}

/// The input as a T&E board, alone and inside a configuration for two seats.
pub fn tae_board(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let alone = board_from_text(&text);
    let config = TaeConfig {
        board: Some(text.into_owned()),
        ..TaeConfig::default()
    };
    if let Ok(board) = config.validate(2) {
        assert!(
            alone.is_ok(),
            "a configuration took a board the parser refuses"
        );
        assert!(!board.is_empty(), "an empty board was accepted");
    }
}

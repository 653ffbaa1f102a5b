//! The rulesets Arbiter ships, one line each. The CLI and the server find games here by
//! id; everything a ruleset is (rules, bots, search guide, referee policy, rules page,
//! text board) lives in its own folder under `crates/games/` and is described there by
//! its `impl arbiter_engine::Ruleset`.

mod ruleset;
mod view_bot;

use arbiter_engine::Registry;

pub use ruleset::{HouseBot, Ruleset, MCTS};
pub use view_bot::ViewBot;

/// Every shipped ruleset, sorted by id. Adding a ruleset is one line here (see
/// `docs/adding-a-ruleset.md`).
pub fn all() -> Vec<Ruleset> {
    vec![
        Ruleset::of::<arbiter_nim::Nim>(),
        Ruleset::of::<arbiter_qgame::Qgame>(),
        Ruleset::of::<arbiter_spacecrack::SpaceCrack>(),
        Ruleset::of::<arbiter_spacegoo::Spacegoo>(),
        Ruleset::of::<arbiter_tae::Tae>(),
    ]
}

pub fn find(id: &str) -> Option<Ruleset> {
    all().into_iter().find(|r| r.id() == id)
}

/// A registry of every shipped ruleset (for replays and the server).
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    for ruleset in all() {
        registry.insert(ruleset.game);
    }
    registry
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A house bot plays a whole game of every ruleset through the erased interface.
    #[test]
    fn house_bots_play_every_ruleset_to_the_end() {
        for ruleset in all() {
            let config = ruleset.game.default_config();
            let seats = *ruleset.game.seat_counts(&config).unwrap().start().max(&2);
            let mut state = ruleset.game.new_state(&config, seats, 11).unwrap();
            let mut bots: Vec<_> = (0..seats)
                .map(|s| ruleset.house_bot("random", s as u64).unwrap())
                .collect();
            for _ in 0..200_000 {
                let Some(&seat) = state.to_act().seats().first() else {
                    break;
                };
                let action = bots[seat].decide(state.as_ref(), seat).unwrap();
                state.apply(seat, &action).unwrap();
            }
            assert!(state.outcome().is_some(), "{} did not end", ruleset.id());
            assert!(ruleset.house_bot("no-such-bot", 1).is_none());
        }
    }

    /// Each ruleset states its refereeing on purpose; none falls back to the lenient
    /// default by omission.
    #[test]
    fn every_shipped_ruleset_has_a_deliberate_policy_a_rules_page_and_a_board() {
        for ruleset in all() {
            assert_ne!(
                ruleset.game.policy(),
                arbiter_engine::Policy::LENIENT,
                "{} falls back to the lenient policy",
                ruleset.id()
            );
            assert!(
                ruleset.game.rules_page().starts_with("# "),
                "{} has no rules page",
                ruleset.id()
            );
            let board = ruleset.game.board_js().unwrap_or_default();
            assert!(
                board.contains("export function render("),
                "{} has no web board renderer",
                ruleset.id()
            );
        }
    }

    /// A configuration is an object of the ruleset's fields, or null for its defaults;
    /// an array (which serde would read field by field), a string, a number or a
    /// boolean is refused by every ruleset, and says what a configuration is.
    #[test]
    fn a_configuration_that_is_not_an_object_is_refused() {
        for ruleset in all() {
            let defaults = ruleset.game.default_config();
            for given in [serde_json::Value::Null, serde_json::json!({})] {
                let normalized = ruleset.game.normalize_config(&given);
                assert_eq!(
                    normalized.ok().as_ref(),
                    Some(&defaults),
                    "{}",
                    ruleset.id()
                );
            }
            for given in [
                serde_json::json!([1]),
                serde_json::json!([]),
                serde_json::json!("qbo"),
                serde_json::json!(3),
                serde_json::json!(true),
            ] {
                let refused = ruleset.game.normalize_config(&given);
                let message = refused.err().map(|e| e.to_string()).unwrap_or_default();
                assert!(
                    message.contains("a configuration is a JSON object"),
                    "{} took {given}: {message:?}",
                    ruleset.id()
                );
                assert!(ruleset.game.new_state(&given, 2, 1).is_err());
            }
        }
    }
}

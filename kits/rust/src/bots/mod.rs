//! One example bot per ruleset, each a one-ply heuristic over the server's legal list
//! (ports of the Python kit's `bots/*.py`). Each file explains its idea at the top; the
//! rules, views and actions are in `crates/games/<ruleset>/RULES.md`.

use serde_json::Value;

use crate::bot::{Bot, Prompt};

pub mod nim;
pub mod qgame;
pub mod spacecrack;
pub mod spacegoo;
pub mod tae;

/// The rulesets with an example bot here (each one [`for_ruleset`] knows).
pub const RULESETS: &[&str] = &["nim", "qgame", "spacecrack", "spacegoo", "tae"];

/// The example bot for `ruleset`, or `None` for a ruleset without one.
pub fn for_ruleset(ruleset: &str) -> Option<Box<dyn Bot>> {
    match ruleset {
        "nim" => Some(Box::new(nim::Nim)),
        "qgame" => Some(Box::new(qgame::QGame)),
        "spacegoo" => Some(Box::new(spacegoo::Spacegoo)),
        "spacecrack" => Some(Box::new(spacecrack::SpaceCrack)),
        "tae" => Some(Box::new(tae::Tae)),
        _ => None,
    }
}

/// The simplest bot there is: the server's first legal action.
pub struct FirstLegal;

impl Bot for FirstLegal {
    fn decide(&mut self, _view: &Value, legal: &[Value], _prompt: &Prompt) -> Value {
        legal[0].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_ruleset_has_a_bot() {
        for ruleset in RULESETS {
            assert!(for_ruleset(ruleset).is_some(), "{ruleset}");
        }
        assert!(for_ruleset("chess").is_none());
    }
}

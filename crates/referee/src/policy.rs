//! The refereeing rules that differ between rulesets, in one table.
//!
//! What happens on a missed deadline is the ruleset's own answer
//! (`DynState::on_timeout`). What a *wrong* answer costs, and which answers only the
//! referee may give, are written in the rules documents rather than in the game logic,
//! so they live here, keyed by ruleset id.

use std::time::Duration;

/// What an illegal or malformed answer from a seat costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IllegalAnswer {
    /// The seat is told why (`rejected`) and may answer again before its deadline.
    Retry,
    /// The seat is told why and ejected with the reason `"{prefix}: {code}: {message}"`.
    Eject { prefix: &'static str },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    pub illegal_answer: IllegalAnswer,
    /// When set, a seat that answers again after its sealed decision of the round is in
    /// is ejected with this reason (instead of being told `not_your_turn`).
    pub second_sealed_answer: Option<&'static str>,
    /// When true, the action the ruleset applies on a missed deadline
    /// (`TimeoutPolicy::Act`) is the referee's alone: a seat sending it is refused.
    pub timeout_action_reserved: bool,
    /// The per-decision deadline a server uses unless it is told otherwise.
    pub default_deadline: Duration,
}

impl Policy {
    /// The policy of a ruleset id; an unknown id gets the lenient default (retry, 30 s).
    pub fn for_ruleset(id: &str) -> Policy {
        match id {
            // The course referee ejects a player for a bad reply of any kind (bad JSON,
            // schema error, illegal request), and gives each call 6 s.
            "qgame" => Policy {
                illegal_answer: IllegalAnswer::Eject {
                    prefix: "illegal request",
                },
                default_deadline: Duration::from_secs(6),
                ..Policy::default()
            },
            // The reference disqualifies a second command in a round; 3 s per round.
            "spacegoo" => Policy {
                second_sealed_answer: Some("sent more than one command"),
                default_deadline: Duration::from_secs(3),
                ..Policy::default()
            },
            // `turn_timeout` is what the referee sends for a seat whose time ran out;
            // the rules suggest 120 s for live games.
            "spacecrack" => Policy {
                timeout_action_reserved: true,
                default_deadline: Duration::from_secs(120),
                ..Policy::default()
            },
            // People choose two actions and answer conflict prompts.
            "tae" => Policy {
                default_deadline: Duration::from_secs(60),
                ..Policy::default()
            },
            _ => Policy::default(),
        }
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            illegal_answer: IllegalAnswer::Retry,
            second_sealed_answer: None,
            timeout_action_reserved: false,
            default_deadline: Duration::from_secs(30),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_ruleset_has_a_deliberate_entry() {
        let lenient = Policy::default();
        for ruleset in arbiter_rulesets::all() {
            assert_ne!(
                Policy::for_ruleset(ruleset.id()),
                lenient,
                "{} falls back to the default policy",
                ruleset.id()
            );
        }
        assert_eq!(Policy::for_ruleset("no-such-game"), lenient);
    }

    #[test]
    fn spacegoo_second_command_reason_is_the_reference_wording() {
        assert_eq!(
            Policy::for_ruleset("spacegoo").second_sealed_answer,
            Some(arbiter_spacegoo::reasons::MORE_THAN_ONE_COMMAND)
        );
    }
}

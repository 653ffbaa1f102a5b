//! How a referee treats a ruleset's seats when they misbehave, as data.
//!
//! What a *missed deadline* does is the rules' own answer ([`crate::Game::on_timeout`]).
//! What a *wrong* answer costs, which answers only the referee may give and how long a
//! seat gets by default are written in the rules documents rather than in the game
//! logic; each ruleset states them once in its [`crate::Ruleset::POLICY`], and a referee
//! reads them from there, never by matching on a ruleset id.

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
    /// The per-decision deadline a server uses unless its host says otherwise.
    pub default_deadline: Duration,
}

impl Policy {
    /// The lenient policy: a wrong answer may be retried, 30 s per decision. A ruleset
    /// starts from it and changes what its rules say (`..Policy::LENIENT`).
    pub const LENIENT: Policy = Policy {
        illegal_answer: IllegalAnswer::Retry,
        second_sealed_answer: None,
        timeout_action_reserved: false,
        default_deadline: Duration::from_secs(30),
    };
}

impl Default for Policy {
    fn default() -> Self {
        Policy::LENIENT
    }
}

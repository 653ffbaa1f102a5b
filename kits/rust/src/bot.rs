//! The [`Bot`] trait a bot author implements, what it is told ([`Prompt`]), and the
//! answer the kit sends when the bot has none in time ([`default_fallback`]).

use std::time::Duration;

use serde_json::{json, Value};

/// A bot: one decision at a time.
///
/// `decide` runs on a thread of its own (see [`crate::BotThread`]), so the bot must be
/// `Send`. Return one of `legal` (cloned), or any action JSON the ruleset accepts.
/// Returning `Value::Null`, panicking or thinking past `prompt.budget` makes the kit
/// answer with [`default_fallback`] instead.
pub trait Bot: Send + 'static {
    fn decide(&mut self, view: &Value, legal: &[Value], prompt: &Prompt) -> Value;
}

/// A boxed bot is a bot (so `bots::for_ruleset` can hand out any of them).
impl<B: Bot + ?Sized> Bot for Box<B> {
    fn decide(&mut self, view: &Value, legal: &[Value], prompt: &Prompt) -> Value {
        (**self).decide(view, legal, prompt)
    }
}

/// The `prompt` message plus what the kit knows about the match.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    /// The match id.
    pub match_id: i64,
    /// Log entries so far (the state this decision is about).
    pub step: u64,
    /// Time left for this decision when the prompt was sent, time bank included.
    pub deadline_ms: u64,
    /// How much of `deadline_ms` is your seat's time bank.
    pub time_bank_ms: u64,
    /// Who acts: `{"model":"one","seats":0}`, `{"model":"sealed","seats":[0,1]}`, …
    pub turn: Value,
    pub ruleset: String,
    /// Your seat.
    pub seat: usize,
    /// The players' names in seat order.
    pub players: Vec<String>,
    /// The match's configuration.
    pub config: Value,
    /// Why your last answer to this decision was refused (`code`, `message`), else `None`.
    pub rejected: Option<(String, String)>,
    /// How many answers to this decision were refused.
    pub tries: u32,
    /// The `step` the legal list answers (compare with `step` in concurrent games).
    pub legal_step: u64,
    /// Until the deadline (bank included), as of when `decide` was called.
    pub time_left: Duration,
    /// How long you may think without drawing on the time bank.
    pub budget: Duration,
}

/// When the bot fails or runs out of time: `"pass"`, `"nop"` or `{"type":"end_turn"}`
/// if the server lists one, else the server's first legal action.
pub fn default_fallback(legal: &[Value]) -> Value {
    let end_turn = json!({"type": "end_turn"});
    legal
        .iter()
        .find(|a| *a == "pass" || *a == "nop" || **a == end_turn)
        .or(legal.first())
        .cloned()
        .unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fallback_passes_when_it_may() {
        let legal = [json!({"take": 1}), json!("pass")];
        assert_eq!(default_fallback(&legal), json!("pass"));
        let legal = [json!({"type": "move_ship"}), json!({"type": "end_turn"})];
        assert_eq!(default_fallback(&legal), json!({"type": "end_turn"}));
        assert_eq!(default_fallback(&[json!([1]), json!([2])]), json!([1]));
    }
}

//! Built-in bots for players that receive only views: a network client (`arbiter bot`)
//! gets its seat's view as JSON, never the referee's state.
//!
//! Each decision reads the view back into the ruleset's typed view, rebuilds a full
//! state from it with every hidden fact re-drawn (`Game::state_from_view`), and lets
//! the same bot a house seat would use decide on that state. Nothing the seat may not
//! know can reach the bot, because nothing but the view comes in.

use arbiter_engine::{seeded_rng, Bot, Game, GameRng, Seat};
use serde_json::Value;

/// A built-in bot playing one seat from that seat's views.
pub trait ViewBot: Send {
    /// The action for `seat`, decided from `view` (the seat's own view, as the
    /// referee sent it) alone. A view that is not this ruleset's, not `seat`'s, or in
    /// which `seat` owes no decision is an error.
    fn decide(&mut self, view: &Value, seat: Seat) -> Result<Value, String>;
}

/// A typed bot behind [`ViewBot`].
pub(crate) struct TypedViewBot<G: Game> {
    config: G::Config,
    bot: Box<dyn Bot<G>>,
    /// Re-draws the hidden facts at every decision.
    rng: GameRng,
}

impl<G: Game> TypedViewBot<G> {
    pub(crate) fn new(config: G::Config, bot: Box<dyn Bot<G>>, seed: u64) -> Self {
        TypedViewBot {
            config,
            bot,
            rng: seeded_rng(seed ^ 0x5EE5_B075),
        }
    }
}

impl<G: Game> ViewBot for TypedViewBot<G> {
    fn decide(&mut self, view: &Value, seat: Seat) -> Result<Value, String> {
        let view: G::View = serde_json::from_value(view.clone())
            .map_err(|e| format!("not a {} view: {e}", G::ID))?;
        let state = G::state_from_view(&self.config, &view, seat, &mut self.rng)?;
        if !G::to_act(&state).includes(seat) {
            return Err(format!("seat {seat} owes no decision in this view"));
        }
        let action = self.bot.decide(&state, seat);
        serde_json::to_value(action).map_err(|e| e.to_string())
    }
}

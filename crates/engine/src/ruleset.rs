//! A ruleset as a server ships it: the rules ([`Game`]) and everything else a host,
//! a referee and a player need, described once, in the ruleset's own folder.
//!
//! [`Game`] is what the rules *are* (pure functions over a state). [`Ruleset`] is what
//! surrounds them: how a referee treats misbehaving seats, the page that teaches the
//! game, the bots that play it, what a generic search should know about it and how to
//! draw a position as text. A registry (`arbiter-rulesets`) takes one line per
//! ruleset; the referee and the server read these facts through the type-erased
//! [`crate::DynGame`] and never match on a ruleset id.

use std::sync::Arc;

use crate::bot::Bot;
use crate::game::Game;
use crate::guide::{Guide, Uninformed};
use crate::policy::Policy;

pub trait Ruleset: Game + Sized {
    /// How a referee treats this ruleset's seats: what an illegal answer costs, which
    /// answers are the referee's alone, the default deadline per decision.
    const POLICY: Policy;

    /// The rules page (Markdown): how to play, every action and view in exact JSON.
    /// Served by the server and printed by `arbiter rulesets --rules`.
    const RULES_PAGE: &'static str;

    /// The board renderer for the web pages: an ES module (`web/board.js` in the
    /// ruleset's folder) exporting `render(view, context)`, served at
    /// `/boards/<id>.js`. `None` until the ruleset has one: pages then show views as
    /// JSON.
    const BOARD_JS: Option<&'static str> = None;

    /// The names of the ruleset's own bots. The generic search (`mcts`, steered by
    /// [`Ruleset::guide`]) is offered beside them by the registry.
    const BOTS: &'static [&'static str];

    /// One of [`Ruleset::BOTS`] by name, seeded; `None` for any other name.
    fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>>;

    /// What the generic search should know about this ruleset (candidate moves, a
    /// cheap rollout, an evaluation). Default: nothing beyond [`Game::legal`].
    fn guide() -> Arc<dyn Guide<Self>> {
        Arc::new(Uninformed)
    }

    /// The position as text for a terminal (`arbiter show`), or `None` when the
    /// ruleset has no text board (its views, as JSON, are always available).
    fn text_board(_state: &Self::State) -> Option<String> {
        None
    }
}

//! Tigris & Euphrates in space as Arbiter ships it: everything besides the rules,
//! stated once.

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::{Bot, Guide, Policy, Ruleset};

use crate::game::Tae;
use crate::state::State;
use crate::{bots, guide, render};

impl Ruleset for Tae {
    /// People choose two actions and answer conflict prompts: 60 s a decision.
    const POLICY: Policy = Policy {
        default_deadline: Duration::from_secs(60),
        ..Policy::LENIENT
    };
    const RULES_PAGE: &'static str = include_str!("../RULES.md");
    const BOARD_JS: Option<&'static str> = Some(include_str!("../web/board.js"));
    const BOTS: &'static [&'static str] = bots::BOT_NAMES;

    fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        bots::bot(name, seed)
    }

    fn guide() -> Arc<dyn Guide<Self>> {
        Arc::new(guide::TaeGuide)
    }

    fn text_board(state: &State) -> Option<String> {
        Some(render::render_text(state))
    }
}

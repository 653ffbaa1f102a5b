//! Space Crack as Arbiter ships it: everything besides the rules, stated once.

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::{Bot, Guide, Policy, Ruleset};

use crate::game::SpaceCrack;
use crate::{bots, guide};

impl Ruleset for SpaceCrack {
    /// `turn_timeout` is what the referee sends for a seat whose time ran out, so no
    /// seat may send it; the rules suggest 120 s for live games.
    const POLICY: Policy = Policy {
        timeout_action_reserved: true,
        default_deadline: Duration::from_secs(120),
        ..Policy::LENIENT
    };
    const RULES_PAGE: &'static str = include_str!("../RULES.md");
    const BOARD_JS: Option<&'static str> = Some(include_str!("../web/board.js"));
    const BOTS: &'static [&'static str] = bots::BOT_NAMES;

    fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        bots::bot(name, seed)
    }

    fn guide() -> Arc<dyn Guide<Self>> {
        Arc::new(guide::SpaceCrackGuide)
    }
}

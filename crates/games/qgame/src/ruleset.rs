//! Q-Game as Arbiter ships it: everything besides the rules, stated once.

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::{Bot, Guide, IllegalAnswer, Policy, Ruleset};

use crate::game::Qgame;
use crate::{bots, guide};

impl Ruleset for Qgame {
    /// The course referee ejects a player for a bad reply of any kind (bad JSON, schema
    /// error, illegal request), and gives each call 6 s.
    const POLICY: Policy = Policy {
        illegal_answer: IllegalAnswer::Eject {
            prefix: "illegal request",
        },
        default_deadline: Duration::from_secs(6),
        ..Policy::LENIENT
    };
    const RULES_PAGE: &'static str = include_str!("../RULES.md");
    const BOARD_JS: Option<&'static str> = Some(include_str!("../web/board.js"));
    const BOTS: &'static [&'static str] = bots::BOT_NAMES;

    fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        bots::bot(name, seed)
    }

    fn guide() -> Arc<dyn Guide<Self>> {
        Arc::new(guide::QgameGuide)
    }
}

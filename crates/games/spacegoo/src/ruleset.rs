//! Rocket Scissor Spacegoo as Arbiter ships it: everything besides the rules, stated
//! once.

use std::sync::Arc;
use std::time::Duration;

use arbiter_engine::{Bot, Guide, Policy, Ruleset};

use crate::game::Spacegoo;
use crate::{bots, guide, reasons};

impl Ruleset for Spacegoo {
    /// The reference disqualifies a second command in a round, and gives 3 s a round.
    const POLICY: Policy = Policy {
        second_sealed_answer: Some(reasons::MORE_THAN_ONE_COMMAND),
        default_deadline: Duration::from_secs(3),
        ..Policy::LENIENT
    };
    const RULES_PAGE: &'static str = include_str!("../RULES.md");
    const BOARD_JS: Option<&'static str> = Some(include_str!("../web/board.js"));
    const BOTS: &'static [&'static str] = bots::BOT_NAMES;

    fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        bots::bot(name, seed)
    }

    fn guide() -> Arc<dyn Guide<Self>> {
        Arc::new(guide::SpacegooGuide)
    }
}

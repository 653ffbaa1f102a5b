//! Secret Nim as Arbiter ships it: everything besides the rules, stated once. A server
//! reads these through the registry; nothing outside this folder names the game.

use std::fmt::Write;
use std::time::Duration;

use arbiter_engine::{Bot, Policy, Ruleset};

use crate::bots;
use crate::game::Nim;
use crate::state::State;

impl Ruleset for Nim {
    /// A wrong answer is explained and may be retried; a move is one small choice, so
    /// 20 s a decision.
    const POLICY: Policy = Policy {
        default_deadline: Duration::from_secs(20),
        ..Policy::LENIENT
    };
    const RULES_PAGE: &'static str = include_str!("../RULES.md");
    const BOARD_JS: Option<&'static str> = Some(include_str!("../web/board.js"));
    const BOTS: &'static [&'static str] = bots::BOT_NAMES;

    fn bot(name: &str, seed: u64) -> Option<Box<dyn Bot<Self>>> {
        bots::bot(name, seed)
    }

    // No `guide`: the generic search plays Secret Nim well uninformed.

    /// One line per heap, a `o` per stone, then whose turn it is or who won. Cards are
    /// the referee's secret and are not drawn.
    fn text_board(state: &State) -> Option<String> {
        let mut board = String::new();
        for (heap, &left) in state.heaps.iter().enumerate() {
            let _ = writeln!(
                board,
                "heap {heap}: {:<20} {left}",
                "o".repeat(left as usize)
            );
        }
        let _ = match state.winner {
            Some(seat) => writeln!(board, "seat {seat} took the last stone"),
            None => writeln!(board, "seat {} to move", state.next),
        };
        Some(board)
    }
}

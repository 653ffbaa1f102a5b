//! What a match needs to start: the ruleset, its configuration and seed, who sits in each
//! seat, its clock (time per decision and each seat's time bank) and what a refused
//! answer costs.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use arbiter_rulesets::{HouseBot, Ruleset};
use serde_json::Value;

use arbiter_engine::IllegalAnswer;

use crate::instruments::Instruments;

/// Everything [`crate::Referee::start`] needs.
#[derive(Clone)]
pub struct MatchSetup {
    /// The id the server gave this match (the store's row id); echoed in every message.
    pub match_id: i64,
    pub ruleset: Ruleset,
    /// The ruleset's configuration; missing fields take the ruleset's defaults.
    pub config: Value,
    pub seed: u64,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatSetup>,
    /// How long a seat has for each decision it owes (at least 1 ms).
    pub deadline: Duration,
    /// Extra time each seat may draw on across the match, as lichess, Board Game Arena
    /// and Kaggle give: a decision may run past `deadline` until the seat's bank is
    /// spent, and what it used is gone. Every prompt shows what is left.
    pub time_bank: Duration,
    /// What an illegal or malformed answer costs. The ruleset's policy by default; a
    /// server lets people retry in its own matches and keeps the course rules (eject)
    /// only where the original protocol demands them.
    pub illegal_answer: IllegalAnswer,
    /// A seat that misses this many deadlines in a row has abandoned the match: it is
    /// ejected under the ruleset's ejection rule (rather than passing forever, which
    /// could keep a game alive with nobody playing). `None`: never (the compatibility
    /// ports keep their originals' rule).
    pub abandon_after: Option<u32>,
    /// A house bot that plays a remote seat whose player went silent, so the others'
    /// game is not ruined ([`StandInSetup`]). `None`: silent seats are only timed out
    /// and, after `abandon_after` misses, ejected.
    pub stand_in: Option<StandInSetup>,
    /// Where the match reports its timings, if anywhere.
    pub instruments: Option<Arc<dyn Instruments>>,
    /// Extra time for each seat's first decision after [`crate::Referee::resume`]: its
    /// player was cut off while the server was away and needs a moment to come back.
    /// Not used by [`crate::Referee::start`].
    pub resume_grace: Duration,
}

impl MatchSetup {
    /// A match with the ruleset's default configuration, its default deadline
    /// ([`arbiter_engine::Policy::default_deadline`]) and policy, and no time bank.
    pub fn new(match_id: i64, ruleset: Ruleset, seed: u64, seats: Vec<SeatSetup>) -> Self {
        let policy = ruleset.game.policy();
        MatchSetup {
            match_id,
            config: ruleset.game.default_config(),
            ruleset,
            seed,
            seats,
            deadline: policy.default_deadline,
            time_bank: Duration::ZERO,
            illegal_answer: policy.illegal_answer,
            abandon_after: None,
            stand_in: None,
            instruments: None,
            resume_grace: Duration::ZERO,
        }
    }
}

/// The house bot that stands in for a silent remote seat, and when.
///
/// A seat goes silent when it owes a decision and has had no connection for `grace`
/// (counted from the later of the disconnect and the decision's start) or when its
/// deadline passes, whichever comes first; or when it has missed `abandon_after`
/// deadlines in a row while connected. The bot then plays the
/// seat; the player takes it back by attaching again or by answering. The record lists
/// each stretch ([`arbiter_engine::StandIn`]); a seat still held by the bot when the
/// game ends is its player's loss.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandInSetup {
    /// One of the ruleset's house bots (its strength is the table's).
    pub bot: String,
    pub grace: Duration,
    /// The bot's own seed (never the match's, which is a secret until the end).
    pub seed: u64,
}

impl fmt::Debug for MatchSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MatchSetup")
            .field("match_id", &self.match_id)
            .field("ruleset", &self.ruleset.id())
            .field("config", &self.config)
            .field("seed", &self.seed)
            .field("seats", &self.seats)
            .field("deadline", &self.deadline)
            .field("time_bank", &self.time_bank)
            .field("illegal_answer", &self.illegal_answer)
            .field("abandon_after", &self.abandon_after)
            .field("stand_in", &self.stand_in)
            .field("instruments", &self.instruments.is_some())
            .field("resume_grace", &self.resume_grace)
            .finish()
    }
}

/// One seat: the name recorded in the match record, and who plays it.
#[derive(Debug, Clone)]
pub struct SeatSetup {
    pub name: String,
    pub kind: SeatKind,
}

impl SeatSetup {
    /// A seat played over a connection ([`crate::MatchHandle::attach`]).
    pub fn remote(name: impl Into<String>) -> Self {
        SeatSetup {
            name: name.into(),
            kind: SeatKind::Remote,
        }
    }

    /// A seat played by one of the ruleset's built-in bots.
    pub fn house(name: impl Into<String>, bot: impl Into<String>, seed: u64) -> Self {
        SeatSetup {
            name: name.into(),
            kind: SeatKind::House {
                bot: bot.into(),
                seed,
            },
        }
    }
}

/// Who plays a seat.
#[derive(Debug, Clone)]
pub enum SeatKind {
    /// A player behind a connection; it may disconnect and come back.
    Remote,
    /// A built-in bot of the ruleset (`Ruleset::house_bot(bot, seed)`).
    House { bot: String, seed: u64 },
    /// Any other in-process player (for example a search bot with its own limits).
    Program(Program),
}

/// Builds an in-process player. The referee calls it once at the start, and again to
/// replace a player whose `decide` panicked.
#[derive(Clone)]
pub struct Program {
    name: String,
    make: Arc<dyn Fn() -> Box<dyn HouseBot> + Send + Sync>,
}

impl Program {
    pub fn new(
        name: impl Into<String>,
        make: impl Fn() -> Box<dyn HouseBot> + Send + Sync + 'static,
    ) -> Self {
        Program {
            name: name.into(),
            make: Arc::new(make),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn build(&self) -> Box<dyn HouseBot> {
        (self.make)()
    }
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Program").field(&self.name).finish()
    }
}

//! One shipped ruleset, type-erased, with its players: the rules as a [`DynGame`], its
//! own bots and `mcts` steered by its guide, built by name for a local match, a live
//! match's house seat or a network client.

use std::sync::Arc;

use arbiter_bots::{BotOptions, Mcts};
use arbiter_engine::erased::{Erased, ErasedState};
use arbiter_engine::local::{play_local, LocalOptions};
use arbiter_engine::playout::{bot_playout, random_playout, BotPlayout};
use arbiter_engine::{
    seeded_rng, Bot, DynGame, DynState, Game, GameRng, Guide, MatchRecord, Outcome, Seat,
};
use serde_json::Value;

use crate::view_bot::{TypedViewBot, ViewBot};

/// The generic search bot every ruleset offers besides its own bots.
pub const MCTS: &str = "mcts";

/// Plays a local match of one ruleset with bots chosen by name, and builds house bots
/// for a live type-erased match.
trait LocalPlay: Send + Sync {
    fn play(
        &self,
        config: &Value,
        seats: &[String],
        seed: u64,
        options: &BotOptions,
    ) -> Result<MatchRecord, String>;
    fn house_bot(&self, name: &str, seed: u64, options: &BotOptions) -> Option<Box<dyn HouseBot>>;
    fn view_bot(
        &self,
        name: &str,
        seed: u64,
        config: &Value,
        options: &BotOptions,
    ) -> Result<Box<dyn ViewBot>, String>;
    fn random_playout(
        &self,
        config: &Value,
        seats: usize,
        seed: u64,
        max_decisions: usize,
    ) -> Result<(Option<Outcome>, usize), String>;
    fn bot_playout(
        &self,
        config: &Value,
        seats: usize,
        bot: &str,
        seed: u64,
        max_decisions: usize,
    ) -> Result<BotPlayout, String>;
}

/// A built-in bot taking a seat in a live match run by a referee.
pub trait HouseBot: Send {
    /// The action for `seat` in the live `state`, as JSON. The bot re-draws every secret
    /// the seat may not know (`Game::determinize`) before it looks, so it plays fair.
    fn decide(&mut self, state: &dyn DynState, seat: Seat) -> Result<Value, String>;

    /// Seats to eject, with why, right after the answer just given is applied, even if
    /// that answer ends the game. A program standing for remote players (the Q-Game
    /// port) may learn of a failure only after it has answered: the course counts a
    /// player that finishes the game and then fails its `win` call as misbehaving.
    fn ejections_after_answer(&mut self) -> Vec<(Seat, String)> {
        Vec::new()
    }
}

struct TypedHouseBot<G: Game> {
    bot: Box<dyn Bot<G>>,
    rng: GameRng,
}

impl<G: Game> HouseBot for TypedHouseBot<G> {
    fn decide(&mut self, state: &dyn DynState, seat: Seat) -> Result<Value, String> {
        let typed = state
            .as_any()
            .downcast_ref::<ErasedState<G>>()
            .ok_or_else(|| format!("a {} bot cannot play {}", G::ID, state.ruleset()))?;
        let seen = G::determinize(&typed.state, seat, &mut self.rng);
        let action = self.bot.decide(&seen, seat);
        serde_json::to_value(action).map_err(|e| e.to_string())
    }
}

/// A ruleset's own bots plus `mcts` with the ruleset's guide.
struct Roster<G: arbiter_engine::Ruleset> {
    guide: Arc<dyn Guide<G>>,
}

impl<G: arbiter_engine::Ruleset> Roster<G>
where
    G::Action: Default,
{
    fn bot(&self, name: &str, seed: u64, options: &BotOptions) -> Option<Box<dyn Bot<G>>> {
        if name == MCTS {
            return Some(Box::new(Mcts::<G>::with_guide(
                options,
                seed,
                self.guide.clone(),
            )));
        }
        G::bot(name, seed)
    }
}

/// Each seat's bot gets its own seed, derived from the match seed.
fn bot_seed(seed: u64, seat: usize) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(seat as u64 + 1)
}

fn parse_config<G: Game>(config: &Value) -> Result<G::Config, String> {
    if config.is_null() {
        Ok(G::Config::default())
    } else {
        serde_json::from_value(config.clone()).map_err(|e| format!("invalid configuration: {e}"))
    }
}

impl<G: arbiter_engine::Ruleset> LocalPlay for Roster<G>
where
    G::Action: Default,
{
    fn play(
        &self,
        config: &Value,
        seats: &[String],
        seed: u64,
        options: &BotOptions,
    ) -> Result<MatchRecord, String> {
        let config = parse_config::<G>(config)?;
        let mut bots = Vec::with_capacity(seats.len());
        for (seat, name) in seats.iter().enumerate() {
            bots.push(
                self.bot(name, bot_seed(seed, seat), options)
                    .ok_or_else(|| format!("unknown player {name:?} for {}", G::ID))?,
            );
        }
        let names = seats
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{n}#{}", i + 1))
            .collect();
        play_local::<G>(&config, names, &mut bots, seed, LocalOptions::default())
            .map(|finished| finished.record)
            .map_err(|e| e.to_string())
    }

    fn house_bot(&self, name: &str, seed: u64, options: &BotOptions) -> Option<Box<dyn HouseBot>> {
        let bot = self.bot(name, seed, options)?;
        Some(Box::new(TypedHouseBot::<G> {
            bot,
            rng: seeded_rng(seed ^ 0xB07_5EED),
        }))
    }

    fn view_bot(
        &self,
        name: &str,
        seed: u64,
        config: &Value,
        options: &BotOptions,
    ) -> Result<Box<dyn ViewBot>, String> {
        let config = parse_config::<G>(config)?;
        let bot = self
            .bot(name, seed, options)
            .ok_or_else(|| format!("unknown player {name:?} for {}", G::ID))?;
        Ok(Box::new(TypedViewBot::<G>::new(config, bot, seed)))
    }

    fn random_playout(
        &self,
        config: &Value,
        seats: usize,
        seed: u64,
        max_decisions: usize,
    ) -> Result<(Option<Outcome>, usize), String> {
        let config = parse_config::<G>(config)?;
        let mut rng = seeded_rng(seed ^ 0x9A7_0075);
        random_playout::<G>(&config, seats, seed, &mut rng, max_decisions)
            .map_err(|e| e.to_string())
    }

    fn bot_playout(
        &self,
        config: &Value,
        seats: usize,
        bot: &str,
        seed: u64,
        max_decisions: usize,
    ) -> Result<BotPlayout, String> {
        let config = parse_config::<G>(config)?;
        let options = BotOptions::default();
        let mut bots = Vec::with_capacity(seats);
        for seat in 0..seats {
            bots.push(
                self.bot(bot, bot_seed(seed, seat), &options)
                    .ok_or_else(|| format!("unknown player {bot:?} for {}", G::ID))?,
            );
        }
        bot_playout::<G>(&config, seed, &mut bots, max_decisions).map_err(|e| e.to_string())
    }
}

/// One shipped ruleset.
#[derive(Clone)]
pub struct Ruleset {
    pub game: Arc<dyn DynGame>,
    /// Built-in players, by name: the ruleset's own, then [`MCTS`].
    pub bots: Vec<&'static str>,
    local: Arc<dyn LocalPlay>,
}

impl Ruleset {
    /// The ruleset `G` describes ([`arbiter_engine::Ruleset`]): its rules erased, its
    /// bots and `mcts` with its guide.
    pub fn of<G: arbiter_engine::Ruleset>() -> Self
    where
        G::Action: Default,
    {
        let mut bots = G::BOTS.to_vec();
        bots.push(MCTS);
        Ruleset {
            game: Arc::new(Erased::<G>::default()),
            bots,
            local: Arc::new(Roster::<G> { guide: G::guide() }),
        }
    }

    pub fn id(&self) -> &'static str {
        self.game.id()
    }

    /// A built-in bot by name for a live match of this ruleset (default options).
    pub fn house_bot(&self, name: &str, seed: u64) -> Option<Box<dyn HouseBot>> {
        self.local.house_bot(name, seed, &BotOptions::default())
    }

    /// A built-in bot by name with a thinking budget (used by `mcts`).
    pub fn house_bot_with(
        &self,
        name: &str,
        seed: u64,
        options: &BotOptions,
    ) -> Option<Box<dyn HouseBot>> {
        self.local.house_bot(name, seed, options)
    }

    /// A built-in bot by name that plays from its seat's views alone (a network
    /// client), under `config` (the match's configuration, JSON); `None` for an unknown
    /// name or a configuration that does not parse ([`Ruleset::try_view_bot`] says
    /// which).
    pub fn view_bot(&self, name: &str, seed: u64, config: &Value) -> Option<Box<dyn ViewBot>> {
        self.try_view_bot(name, seed, config, &BotOptions::default())
            .ok()
    }

    /// [`Ruleset::view_bot`] with a thinking budget, and the reason when it cannot be
    /// built.
    pub fn try_view_bot(
        &self,
        name: &str,
        seed: u64,
        config: &Value,
        options: &BotOptions,
    ) -> Result<Box<dyn ViewBot>, String> {
        self.local.view_bot(name, seed, config, options)
    }

    /// Play a whole match locally, one built-in bot per seat, and return its record.
    pub fn play_local(
        &self,
        config: &Value,
        seats: &[String],
        seed: u64,
    ) -> Result<MatchRecord, String> {
        self.local.play(config, seats, seed, &BotOptions::default())
    }

    /// [`Ruleset::play_local`] with a thinking budget for the searching bots.
    pub fn play_local_with(
        &self,
        config: &Value,
        seats: &[String],
        seed: u64,
        options: &BotOptions,
    ) -> Result<MatchRecord, String> {
        self.local.play(config, seats, seed, options)
    }

    /// One fast unrecorded game of uniformly random moves (benchmarks): the outcome
    /// (`None` if cut off at `max_decisions`) and the number of decisions.
    pub fn random_playout(
        &self,
        config: &Value,
        seats: usize,
        seed: u64,
        max_decisions: usize,
    ) -> Result<(Option<Outcome>, usize), String> {
        self.local
            .random_playout(config, seats, seed, max_decisions)
    }

    /// One fast unrecorded game with the built-in bot `bot` in every seat, each seeded
    /// from `seed` and deciding on the true state (benchmarks: see
    /// [`arbiter_engine::playout::bot_playout`]).
    pub fn bot_playout(
        &self,
        config: &Value,
        seats: usize,
        bot: &str,
        seed: u64,
        max_decisions: usize,
    ) -> Result<BotPlayout, String> {
        self.local
            .bot_playout(config, seats, bot, seed, max_decisions)
    }
}

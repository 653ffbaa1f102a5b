//! Fast playouts: no recording, no digests. For benchmarks and search.

use crate::bot::Bot;
use crate::game::{ConfigError, Game, Seat};
use crate::outcome::Outcome;
use crate::rng::GameRng;

/// Play uniformly random legal actions from a fresh game until it ends (or
/// `max_decisions` is reached); returns the outcome and the number of decisions.
pub fn random_playout<G: Game>(
    config: &G::Config,
    seats: usize,
    seed: u64,
    rng: &mut GameRng,
    max_decisions: usize,
) -> Result<(Option<Outcome>, usize), ConfigError> {
    let mut state = G::new(config, seats, seed)?;
    let mut decisions = 0;
    while decisions < max_decisions {
        let Some(seat) = G::playout_seat(&state, rng) else {
            break;
        };
        let applied = match G::random_action(&state, seat, rng) {
            Some(action) => G::apply_quietly(&mut state, seat, &action).is_ok(),
            None => false,
        };
        if !applied {
            G::eject(&mut state, seat, "no legal action");
        }
        decisions += 1;
    }
    Ok((G::outcome(&state), decisions))
}

/// Random playouts of `games` fresh games (seeds `0..games`, each drawing from its own
/// generator) timed on the wall clock, printed as one line: the rules-only figure the
/// rulesets' `*_random_rate` examples give, for profiling under callgrind or perf.
pub fn print_random_rate<G: Game>(
    config: &G::Config,
    games: u64,
    seats: usize,
) -> Result<(), ConfigError> {
    let started = std::time::Instant::now();
    let mut decisions = 0usize;
    for seed in 0..games {
        let mut rng = crate::seeded_rng(seed ^ 0x5EED);
        decisions += random_playout::<G>(config, seats, seed, &mut rng, 100_000)?.1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {seats} seats: {decisions} decisions in {secs:.3} s = \
         {:.0} decisions/s, {:.3} ms/game, {:.1} decisions/game",
        decisions as f64 / secs,
        secs * 1000.0 / games as f64,
        decisions as f64 / games as f64
    );
    Ok(())
}

/// What [`bot_playout`] played.
#[derive(Debug, Clone, PartialEq)]
pub struct BotPlayout {
    /// `None` if cut off at `max_decisions`.
    pub outcome: Option<Outcome>,
    pub decisions: usize,
    /// Rounds begun: a round is one turn number ([`Game::turn_number`]) where the game
    /// has them, else a run of decisions in rising seat order (a lower or equal seat
    /// starts the next round). For sealed rounds, as in spacegoo, that is the number
    /// of rounds played.
    pub rounds: usize,
}

/// Play a fresh game with one bot per seat until it ends (or `max_decisions`), without
/// recording. For benchmarks against engines whose bots read the engine's state
/// directly, so each bot decides on the true state, not a determinized copy: no clone
/// per decision, and a bot that reads what its seat may not know would be peeking (a
/// speed figure, not a fair match). An illegal answer ejects the seat. Concurrent
/// turns pick the seat from a generator derived from `seed`.
pub fn bot_playout<G: Game>(
    config: &G::Config,
    seed: u64,
    bots: &mut [Box<dyn Bot<G>>],
    max_decisions: usize,
) -> Result<BotPlayout, ConfigError> {
    let mut state = G::new(config, bots.len(), seed)?;
    let mut rng = crate::rng::seeded_rng(seed ^ 0xB070_7A70_0075);
    let (mut decisions, mut rounds) = (0usize, 0usize);
    let mut last: Option<(Seat, Option<u64>)> = None;
    while decisions < max_decisions {
        let Some(seat) = G::playout_seat(&state, &mut rng) else {
            break;
        };
        let Some(bot) = bots.get_mut(seat) else {
            return Err(ConfigError::new(format!("no bot for seat {seat}")));
        };
        let turn = G::turn_number(&state);
        let new_round = match (last, turn) {
            (None, _) => true,
            (Some((_, Some(previous))), Some(now)) => now != previous,
            (Some((previous, _)), _) => seat <= previous,
        };
        rounds += usize::from(new_round);
        last = Some((seat, turn));
        let action = bot.decide(&state, seat);
        if G::apply_quietly(&mut state, seat, &action).is_err() {
            G::eject(&mut state, seat, "illegal action");
        }
        decisions += 1;
    }
    Ok(BotPlayout {
        outcome: G::outcome(&state),
        decisions,
        rounds,
    })
}

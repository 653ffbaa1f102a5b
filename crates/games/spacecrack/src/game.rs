//! The `Game` implementation: the engine's entry points, delegating to the rule modules.

use std::ops::RangeInclusive;

use rand::Rng;

use arbiter_engine::{
    ConfigError, Discard, Game, GameRng, Illegal, Outcome, Seat, TimeoutPolicy, Turn,
};

use crate::actions::Action;
use crate::config::{Config, TurnMode};
use crate::events::Event;
use crate::map::generate;
use crate::rules;
use crate::state::State;
use crate::view::View;

/// Space Crack: win the most planets with an armada of ships.
pub struct SpaceCrack;

/// Up to four seats (one per start corner); one seat is for practice only.
pub const SEATS: RangeInclusive<usize> = 1..=4;

/// The seats that may act now: all ready seats in concurrent mode, the one whose go it
/// is in sequential mode.
pub fn to_act_seats(state: &State) -> Vec<Seat> {
    if state.is_over() {
        return Vec::new();
    }
    match state.config().turn_mode {
        TurnMode::Concurrent => state.ready_seats(),
        TurnMode::Sequential => state.sequential_seat().into_iter().collect(),
    }
}

impl Game for SpaceCrack {
    const ID: &'static str = "spacecrack";
    const NAME: &'static str = "Space Crack";

    type Config = Config;
    type State = State;
    type Action = Action;
    type View = View;
    type Event = Event;

    fn seat_counts(_config: &Config) -> RangeInclusive<usize> {
        SEATS
    }

    fn seat_count(state: &State) -> usize {
        state.seat_count()
    }

    fn new(config: &Config, seats: usize, seed: u64) -> Result<State, ConfigError> {
        config.validate()?;
        if !SEATS.contains(&seats) {
            return Err(ConfigError::new(format!(
                "Space Crack needs {} to {} seats (one per start corner; 1 for practice), got {seats}",
                SEATS.start(),
                SEATS.end()
            )));
        }
        let mut state = generate(config, seats, seed);
        rules::after_change(&mut state, &mut Vec::new());
        Ok(state)
    }

    /// Concurrent mode: `AnyOf` every seat with points left that is not finished, stuck
    /// or out. Sequential mode: `One` seat. The turn ends by itself once nobody is left.
    fn to_act(state: &State) -> Turn {
        let seats = to_act_seats(state);
        match (state.config().turn_mode, seats.first()) {
            // After every change the rules end turns until somebody can act, so a live
            // game always has a seat here.
            (_, None) => Turn::Over,
            (TurnMode::Concurrent, Some(_)) => Turn::AnyOf(seats),
            (TurnMode::Sequential, Some(&seat)) => Turn::One(seat),
        }
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Illegal> {
        rules::apply(state, seat, action).map_err(Illegal::from)
    }

    /// Playouts drop the events, so none are built.
    fn apply_quietly(state: &mut State, seat: Seat, action: &Action) -> Result<(), Illegal> {
        rules::apply_into(state, seat, action, &mut Discard).map_err(Illegal::from)
    }

    /// Every legal move and build of `seat`, then `end_turn` if passing is allowed (the
    /// full list, not a sample: at most 6 per ship plus one per planet). `turn_timeout`
    /// and `resign` are always accepted from a seat that may act but are left out: the
    /// first is the referee's, the second no bot should pick at random.
    fn legal(state: &State, seat: Seat) -> Vec<Action> {
        crate::legal::legal_actions(state, seat)
    }

    /// Draws what `legal(..).choose(rng)` draws, without the list.
    fn random_action(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        crate::legal::random_action(state, seat, rng)
    }

    /// Who `to_act`'s turn would pick, with the same draw, without listing the seats.
    fn playout_seat(state: &State, rng: &mut GameRng) -> Option<Seat> {
        if state.is_over() {
            return None;
        }
        match state.config().turn_mode {
            TurnMode::Sequential => state.sequential_seat(),
            TurnMode::Concurrent => {
                let mut ready = (0..state.seat_count()).filter(|&s| state.can_act(s));
                match ready.clone().count() {
                    0 => None,
                    len => ready.nth(rng.random_range(0..len)),
                }
            }
        }
    }

    /// The seat keeps its planets and passes every turn from now on (the resignation
    /// rule of background §2.11); the outcome ranks it below every other seat.
    fn eject(state: &mut State, seat: Seat, reason: &str) -> Vec<Event> {
        rules::eject(state, seat, reason)
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        crate::view::view(state, seat)
    }

    /// A seat that misses the per-turn deadline has its turn ended for it.
    fn on_timeout(_state: &State, _seat: Seat) -> TimeoutPolicy<Action> {
        TimeoutPolicy::Act(Action::TurnTimeout)
    }

    /// The deadline covers a turn: all of a seat's command points, not each action.
    fn turn_number(state: &State) -> Option<u64> {
        Some(u64::from(state.turn))
    }

    /// `turn_timeout_secs`, where set, is the per-turn deadline.
    fn configured_deadline(config: &Config) -> Option<std::time::Duration> {
        (config.turn_timeout_secs > 0)
            .then(|| std::time::Duration::from_secs(u64::from(config.turn_timeout_secs)))
    }

    fn outcome(state: &State) -> Option<Outcome> {
        rules::outcome(state)
    }

    /// Perfect information: nothing to re-draw.
    fn determinize(state: &State, _seat: Seat, _rng: &mut GameRng) -> State {
        state.clone()
    }

    /// Perfect information: the view is the whole state (see `rebuild.rs`).
    fn state_from_view(
        config: &Config,
        view: &View,
        seat: Seat,
        _rng: &mut GameRng,
    ) -> Result<State, String> {
        crate::rebuild::state_from_view(config, view, seat)
    }
}

//! `Spacegoo` as an engine [`Game`]: sealed simultaneous rounds over [`State`].

use std::ops::RangeInclusive;

use arbiter_engine::{ConfigError, Game, GameRng, Illegal, Outcome, Seat, TimeoutPolicy, Turn};

use crate::actions::Action;
use crate::config::Config;
use crate::events::Event;
use crate::state::{player_id, State, SEATS};
use crate::view::{self, View};

/// Rocket Scissor Spacegoo.
pub struct Spacegoo;

/// The sends [`Game::legal`] lists for a planet: everything on it, and half of it.
fn sample_sends(state: &State, seat: Seat) -> Vec<Action> {
    let world = state.world();
    let me = player_id(seat);
    let mut actions = Vec::new();
    for origin in world.planets.iter().filter(|p| p.owner_id == me) {
        let all = origin.ships.map(|n| n.max(0));
        let half = all.map(|n| n / 2);
        for target in world.planets.iter().filter(|p| p.id != origin.id) {
            for ships in [all, half] {
                if ships.iter().any(|&n| n > 0) {
                    actions.push(Action::send(origin.id, target.id, ships));
                }
            }
        }
    }
    actions
}

impl Game for Spacegoo {
    const ID: &'static str = "spacegoo";
    const NAME: &'static str = "Rocket Scissor Spacegoo";

    type Config = Config;
    type State = State;
    type Action = Action;
    type View = View;
    type Event = Event;

    fn seat_counts(_config: &Config) -> RangeInclusive<usize> {
        SEATS..=SEATS
    }

    fn seat_count(_state: &State) -> usize {
        SEATS
    }

    fn new(config: &Config, seats: usize, seed: u64) -> Result<State, ConfigError> {
        if seats != SEATS {
            return Err(ConfigError::new(format!(
                "spacegoo is played by exactly 2 seats, got {seats}"
            )));
        }
        State::new(config, seed)
    }

    fn to_act(state: &State) -> Turn {
        if state.game_over() {
            Turn::Over
        } else {
            Turn::Sealed(state.waiting())
        }
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Illegal> {
        state.submit(seat, action).map_err(Illegal::from)
    }

    /// `nop`, plus for every planet the seat owns and every other planet: send all its
    /// ships, and send half of each type (rounded down, when not empty). A
    /// representative sample: the full space is every ship vector.
    fn legal(state: &State, seat: Seat) -> Vec<Action> {
        if !state.waiting().contains(&seat) {
            return Vec::new();
        }
        let mut actions = vec![Action::Nop];
        actions.extend(sample_sends(state, seat));
        actions
    }

    /// Disqualify the seat. A reason naming a missed deadline (see
    /// [`crate::reasons::is_missed_deadline`]) while the other seat is still to answer
    /// waits for that seat, so two missed deadlines make the reference's draw.
    fn eject(state: &mut State, seat: Seat, reason: &str) -> Vec<Event> {
        state.disqualify(seat, reason)
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        view::view(state, seat)
    }

    fn event_for(event: &Event, seat: Option<Seat>) -> Option<Event> {
        event.for_audience(seat)
    }

    /// The winner ranks 1, the other 2; a draw ranks both 1. A disqualified seat is
    /// listed as ejected. Scores are the ships each player holds at the end.
    /// A player without a command by the deadline is disqualified (both missing it is a
    /// draw; see `state.rs`).
    fn on_timeout(_state: &State, _seat: Seat) -> TimeoutPolicy<Action> {
        TimeoutPolicy::Eject(crate::reasons::NO_COMMAND.to_string())
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let end = state.end()?;
        let ejected: Vec<Option<String>> = (0..SEATS)
            .map(|seat| state.disqualification(seat).map(|dq| dq.reason.clone()))
            .collect();
        let keys: Vec<u8> = (0..SEATS)
            .map(|seat| u8::from(end.winner == Some(player_id(seat))))
            .collect();
        Some(Outcome {
            ranks: Outcome::rank_by(&keys, &ejected),
            scores: (0..SEATS)
                .map(|seat| state.world().ships_of(player_id(seat)))
                .collect(),
            ejected,
            summary: end.reason.clone(),
        })
    }

    /// Perfect information but for the other seat's sealed command: it is dropped, so
    /// that seat owes its command again in the sample.
    fn determinize(state: &State, seat: Seat, _rng: &mut GameRng) -> State {
        let mut sample = state.clone();
        sample.pending.retain(|(s, _)| *s == seat);
        sample
    }

    /// The whole board is in the view; the other seat's sealed command is not, so the
    /// rebuilt state waits for it (as `determinize` does). Nothing to draw.
    fn state_from_view(
        config: &Config,
        view: &View,
        seat: Seat,
        _rng: &mut GameRng,
    ) -> Result<State, String> {
        crate::rebuild::state_from_view(config, view, seat)
    }
}

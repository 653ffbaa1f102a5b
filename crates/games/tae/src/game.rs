//! The `Game` implementation: setup and the glue to the engine's trait.

use std::ops::RangeInclusive;

use rand::seq::{IndexedRandom, SliceRandom};

use arbiter_engine::{
    seeded_rng, ConfigError, Discard, Game, GameRng, Illegal, Outcome, Seat, TimeoutPolicy, Turn,
};

use crate::actions::Action;
use crate::config::{Config, MAX_SEATS, MIN_SEATS};
use crate::events::{redact, Event};
use crate::kind::{Resources, Tiles};
use crate::legal::TurnActions;
use crate::state::{Phase, Player, State, ACTIONS_PER_TURN};
use crate::view::View;
use crate::{determinize, flow, sample, score, view};

/// Marker type for the ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tae;

/// A fresh game: the board from the config, the bag shuffled from the seed, and each
/// seat dealt a hand in seat order. Seat 0 starts.
pub fn new_game(config: &Config, seats: usize, seed: u64) -> Result<State, ConfigError> {
    let board = config.validate(seats)?;
    let mut rng = seeded_rng(seed);
    let mut bag = config.bag.to_kinds();
    bag.shuffle(&mut rng);
    let player = Player {
        hand: Tiles::default(),
        resources: Resources::default(),
        artifacts: 0,
        leaders: config.leaders.clone(),
        bombers: config.bombers,
        discarded: Tiles::default(),
        ejected: None,
    };
    let mut state = State {
        board,
        bag,
        players: vec![player; seats],
        hand_size: config.hand_size,
        active: 0,
        actions_left: ACTIONS_PER_TURN,
        passing_turns: 0,
        turn: 1,
        phase: Phase::Act,
    };
    for seat in 0..seats {
        state.draw(seat, config.hand_size);
    }
    Ok(state)
}

/// Every legal answer of `seat` to the current prompt (exhaustive; `Pass`, accepted at
/// every prompt, is listed only for the active player's turn actions, where it is the
/// only way to end a turn early).
pub fn legal(state: &State, seat: Seat) -> Vec<Action> {
    if !may_act(state, seat) {
        return Vec::new();
    }
    match &state.phase {
        Phase::Over(_) => Vec::new(),
        Phase::Act => {
            TurnActions::new(state, seat).map_or_else(|| vec![Action::Pass], |a| a.list())
        }
        Phase::Conflicts(c) => match &c.battle {
            Some(battle) => {
                let held = state.players[seat].hand.get(battle.support_kind());
                (0..=held).map(|count| Action::Commit { count }).collect()
            }
            None => c
                .pending
                .iter()
                .map(|w| Action::ChooseConflict { kind: w.kind })
                .collect(),
        },
        Phase::Harvest { claims } => claims.first().map_or_else(Vec::new, |claim| {
            claim
                .cells
                .iter()
                .map(|&c| Action::TakeArtifact {
                    at: state.board.pos(c),
                })
                .collect()
        }),
    }
}

/// Whether `seat` owes the current decision (and is still playing).
fn may_act(state: &State, seat: Seat) -> bool {
    flow::to_act(state).includes(seat) && !state.is_ejected(seat)
}

/// One of `legal(state, seat)`, each with the same probability, for random playouts:
/// the active player's turn actions are drawn by rejection from a cheap superset
/// (`sample.rs`), not listed; the other prompts list a handful of answers and draw
/// from the list.
pub fn random_action(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
    match state.phase {
        Phase::Act if may_act(state, seat) => sample::turn_action(state, seat, rng),
        _ => legal(state, seat).choose(rng).cloned(),
    }
}

impl Game for Tae {
    const ID: &'static str = "tae";
    const NAME: &'static str = "Tigris & Euphrates in space";

    type Config = Config;
    type State = State;
    type Action = Action;
    type View = View;
    type Event = Event;

    fn seat_counts(_config: &Config) -> RangeInclusive<usize> {
        MIN_SEATS..=MAX_SEATS
    }

    fn seat_count(state: &State) -> usize {
        state.seats()
    }

    fn new(config: &Config, seats: usize, seed: u64) -> Result<State, ConfigError> {
        new_game(config, seats, seed)
    }

    fn to_act(state: &State) -> Turn {
        flow::to_act(state)
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Illegal> {
        flow::apply(state, seat, action).map_err(Illegal::from)
    }

    /// Playouts drop the events, so none are built.
    fn apply_quietly(state: &mut State, seat: Seat, action: &Action) -> Result<(), Illegal> {
        flow::apply_into(state, seat, action, &mut Discard).map_err(Illegal::from)
    }

    fn legal(state: &State, seat: Seat) -> Vec<Action> {
        legal(state, seat)
    }

    fn random_action(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        random_action(state, seat, rng)
    }

    fn eject(state: &mut State, seat: Seat, reason: &str) -> Vec<Event> {
        flow::eject(state, seat, reason)
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        view::view(state, seat)
    }

    fn event_for(event: &Event, seat: Option<Seat>) -> Option<Event> {
        redact(event, seat)
    }

    /// A timed-out player commits nothing: the default action (pass) answers every
    /// prompt (commit 0, first pending conflict, lowest artifact) and ends a turn.
    fn on_timeout(_state: &State, _seat: Seat) -> TimeoutPolicy<Action> {
        TimeoutPolicy::Act(Action::default())
    }

    fn outcome(state: &State) -> Option<Outcome> {
        score::outcome(state)
    }

    fn determinize(state: &State, seat: Seat, rng: &mut GameRng) -> State {
        determinize::determinize(state, seat, rng)
    }

    /// The unseen colonists are dealt afresh into the public counts (see `rebuild.rs`).
    fn state_from_view(
        config: &Config,
        view: &View,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Result<State, String> {
        crate::rebuild::state_from_view(config, view, seat, rng)
    }
}

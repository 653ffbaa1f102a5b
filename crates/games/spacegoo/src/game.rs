//! `Spacegoo` as an engine [`Game`]: sealed simultaneous rounds over [`State`].

use std::ops::RangeInclusive;

use arbiter_engine::{
    ConfigError, Discard, Game, GameRng, Illegal, Outcome, Seat, TimeoutPolicy, Turn,
};

use rand::Rng;

use crate::actions::Action;
use crate::battle::SHIP_TYPES;
use crate::config::Config;
use crate::events::Event;
use crate::map::Planet;
use crate::state::{player_id, State, SEATS};
use crate::view::{self, View};

/// Rocket Scissor Spacegoo.
pub struct Spacegoo;

/// What [`Game::legal`] lists for one origin: everything on it, and half of it (rounded
/// down), each to every other planet in id order, a vector only when not empty.
/// `half` is not empty only when `all` is not.
#[derive(Clone, Copy)]
struct OriginSends {
    origin: usize,
    all: [i64; SHIP_TYPES],
    half: [i64; SHIP_TYPES],
    /// How many of `[all, half]` are not empty: 0, 1 (`all`) or 2.
    kinds: usize,
}

impl OriginSends {
    fn of(origin: &Planet) -> Self {
        let all = origin.ships.map(|n| n.max(0));
        let half = all.map(|n| n / 2);
        let not_empty = |ships: &[i64; SHIP_TYPES]| ships.iter().any(|&n| n > 0);
        OriginSends {
            origin: origin.id,
            all,
            half,
            kinds: usize::from(not_empty(&all)) + usize::from(not_empty(&half)),
        }
    }

    /// The `index`-th of this origin's `kinds * (planets - 1)` sends.
    fn get(&self, index: usize) -> Action {
        let (other, kind) = (index / self.kinds, index % self.kinds);
        // The other planets in id order skip the origin (a state's planet ids are its
        // list positions: `State::with_planets` assigns them, the rebuild checks them).
        let target = if other < self.origin {
            other
        } else {
            other + 1
        };
        Action::send(
            self.origin,
            target,
            if kind == 0 { self.all } else { self.half },
        )
    }
}

/// The seat's planets' sends, in [`Game::legal`]'s order.
fn origins(state: &State, seat: Seat) -> impl Iterator<Item = OriginSends> + '_ {
    let me = player_id(seat);
    state
        .world()
        .planets
        .iter()
        .filter(move |p| p.owner_id == me)
        .map(OriginSends::of)
}

/// How many planets a send may go to from any one.
fn others(state: &State) -> usize {
    state.world().planets.len().saturating_sub(1)
}

/// How many sends [`Game::legal`] lists for the seat.
fn send_count(state: &State, seat: Seat) -> usize {
    let others = others(state);
    origins(state, seat).map(|o| o.kinds * others).sum()
}

/// `nop`, then the sends, as [`Game::legal`] lists them.
fn legal_list(state: &State, seat: Seat) -> Vec<Action> {
    let others = others(state);
    let mut actions = Vec::with_capacity(1 + send_count(state, seat));
    actions.push(Action::Nop);
    for origin in origins(state, seat) {
        actions.extend((0..origin.kinds * others).map(|index| origin.get(index)));
    }
    actions
}

/// `legal(state, seat).choose(rng).cloned()` without building the list: the same
/// length, so the same draw, and the action at the drawn index.
fn random_action(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
    if !state.owes(seat) {
        return None;
    }
    let others = others(state);
    let mut index = rng.random_range(..1 + send_count(state, seat));
    if index == 0 {
        return Some(Action::Nop);
    }
    index -= 1;
    for origin in origins(state, seat) {
        let count = origin.kinds * others;
        if index < count {
            return Some(origin.get(index));
        }
        index -= count;
    }
    None
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

    /// Playouts drop the events, so none are built.
    fn apply_quietly(state: &mut State, seat: Seat, action: &Action) -> Result<(), Illegal> {
        state
            .submit_into(seat, action, &mut Discard)
            .map_err(Illegal::from)
    }

    /// The first seat still to seal, without listing them (`to_act`'s `Sealed`).
    fn playout_seat(state: &State, _rng: &mut GameRng) -> Option<Seat> {
        if state.game_over() {
            None
        } else {
            state.first_waiting()
        }
    }

    /// `nop`, plus for every planet the seat owns and every other planet: send all its
    /// ships, and send half of each type (rounded down, when not empty). A
    /// representative sample: the full space is every ship vector.
    fn legal(state: &State, seat: Seat) -> Vec<Action> {
        if !state.owes(seat) {
            return Vec::new();
        }
        legal_list(state, seat)
    }

    /// Draws what `legal(..).choose(rng)` draws, without the list.
    fn random_action(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        random_action(state, seat, rng)
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

    fn view_text(state: &State, seat: Option<Seat>) -> Option<String> {
        Some(view::view_text(state, seat))
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

#[cfg(test)]
mod tests {
    use arbiter_engine::seeded_rng;
    use proptest::prelude::*;
    use rand::seq::IndexedRandom;
    use rand::Rng;

    use super::*;

    /// `legal` as it was written before it was computed per origin: the oracle.
    fn legal_as_listed(state: &State, seat: Seat) -> Vec<Action> {
        if !state.waiting().contains(&seat) {
            return Vec::new();
        }
        let world = state.world();
        let me = player_id(seat);
        let mut actions = vec![Action::Nop];
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

    /// A game after `moves` random decisions (sometimes a seat's command sealed, a
    /// seat out, or the game over), then garrisons overwritten with `garrisons`, which
    /// include the empty, the single ship, the odd and the negative.
    fn played(seed: u64, moves: usize, garrisons: &[[i64; 3]], eject: Option<usize>) -> State {
        let config = Config {
            max_rounds: 40,
            ..Config::default()
        };
        let Ok(mut state) = State::new(&config, seed) else {
            panic!("the default map is valid");
        };
        let mut rng = seeded_rng(seed ^ 0xA11);
        for _ in 0..moves {
            let Turn::Sealed(waiting) = Spacegoo::to_act(&state) else {
                break;
            };
            let seat = waiting[rng.random_range(..waiting.len())];
            let action = legal_as_listed(&state, seat)
                .choose(&mut rng)
                .cloned()
                .unwrap_or_default();
            let _ = Spacegoo::apply(&mut state, seat, &action);
        }
        for (planet, ships) in state.world.planets.iter_mut().zip(garrisons) {
            planet.ships = *ships;
        }
        if let Some(seat) = eject {
            Spacegoo::eject(&mut state, seat, crate::reasons::NO_COMMAND);
        }
        state
    }

    fn garrison() -> impl Strategy<Value = [i64; 3]> {
        prop::array::uniform3(prop_oneof![
            2 => Just(0i64),
            2 => Just(1i64),
            1 => Just(2i64),
            2 => 0i64..500,
            1 => -3i64..0,
            1 => Just(i64::MAX),
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// `legal` lists the same actions in the same order as the listed oracle, and
        /// `random_action` draws the very action `legal(..).choose(rng)` does, leaving
        /// the generator in the same state; `owes` is `waiting`.
        #[test]
        fn legal_and_random_action_match_the_listing(
            seed in any::<u64>(),
            moves in 0usize..90,
            garrisons in prop::collection::vec(garrison(), 0..22),
            eject in prop::option::weighted(0.1, 0usize..2),
            draw_seed in any::<u64>(),
        ) {
            let state = played(seed, moves, &garrisons, eject);
            for seat in 0..3 {
                let listed = legal_as_listed(&state, seat);
                prop_assert_eq!(Spacegoo::legal(&state, seat), listed.clone());
                prop_assert_eq!(state.owes(seat), state.waiting().contains(&seat));
                let (mut fast, mut slow) = (seeded_rng(draw_seed), seeded_rng(draw_seed));
                for _ in 0..4 {
                    prop_assert_eq!(
                        Spacegoo::random_action(&state, seat, &mut fast),
                        listed.choose(&mut slow).cloned()
                    );
                    prop_assert_eq!(&fast, &slow);
                }
            }
        }
    }

    /// Every index of the list is reachable by the draw: over many draws on one board,
    /// `random_action` returns each listed action, and nothing else.
    #[test]
    fn random_action_reaches_every_listed_action() {
        let state = played(3, 0, &[], None);
        let listed = Spacegoo::legal(&state, 0);
        let mut rng = seeded_rng(11);
        let mut seen = vec![false; listed.len()];
        for _ in 0..200 * listed.len() {
            let Some(action) = Spacegoo::random_action(&state, 0, &mut rng) else {
                panic!("seat 0 may act");
            };
            let Some(index) = listed.iter().position(|a| *a == action) else {
                panic!("{action:?} is not listed");
            };
            seen[index] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}

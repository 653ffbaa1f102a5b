//! The rules of Secret Nim as the engine's [`Game`] trait: pure functions over a
//! [`State`], all randomness from the match seed. Each function says what the engine
//! asks of it; the trait's own docs say why it exists.

use std::ops::RangeInclusive;

use arbiter_engine::{seeded_rng, ConfigError, Game, GameRng, Illegal, Outcome, Seat, Turn};
use serde::{Deserialize, Serialize};

use crate::action::{Action, NimError, Take};
use crate::config::Config;
use crate::state::State;
use crate::view::{self, View};

/// The ruleset's marker type: the rules are its associated functions.
pub struct Nim;

/// What happened, told to every audience (nothing in Secret Nim's events is secret:
/// a spent double is public the moment it is played).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Took { seat: Seat, take: Take },
    Doubled { seat: Seat, takes: [Take; 2] },
    Ejected { seat: Seat, reason: String },
    Won { seat: Seat },
}

impl Game for Nim {
    const ID: &'static str = "nim";
    const NAME: &'static str = "Secret Nim";

    type Config = Config;
    type State = State;
    type Action = Action;
    type View = View;
    type Event = Event;

    fn seat_counts(_config: &Config) -> RangeInclusive<usize> {
        2..=4
    }

    fn seat_count(state: &State) -> usize {
        state.seats()
    }

    /// The deal is the only chance in the game, drawn from the match seed so a record
    /// replays it exactly.
    fn new(config: &Config, seats: usize, seed: u64) -> Result<State, ConfigError> {
        config.validate()?;
        if !Self::seat_counts(config).contains(&seats) {
            return Err(ConfigError::new(format!(
                "Secret Nim is for 2 to 4 players, not {seats}"
            )));
        }
        let mut rng = seeded_rng(seed);
        Ok(State {
            heaps: config.heaps.clone(),
            cards: (0..seats).map(|_| view::draw_card(&mut rng)).collect(),
            spent: vec![false; seats],
            ejected: vec![None; seats],
            next: 0,
            winner: None,
        })
    }

    fn to_act(state: &State) -> Turn {
        match state.winner {
            Some(_) => Turn::Over,
            None => Turn::One(state.next),
        }
    }

    /// Check everything first, then change the state: a refused move changes nothing.
    /// (The engine has already checked that `seat` owes the decision.)
    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Illegal> {
        let takes: &[Take] = match action {
            Action::Take(take) => std::slice::from_ref(take),
            Action::Double(takes) => {
                if !state.holds_double(seat) {
                    return Err(NimError::NoDouble.into());
                }
                if takes[0].heap == takes[1].heap {
                    return Err(NimError::SameHeap.into());
                }
                takes
            }
        };
        for take in takes {
            let left = *state
                .heaps
                .get(take.heap)
                .ok_or(NimError::NoSuchHeap(take.heap))?;
            if take.count == 0 {
                return Err(NimError::TakeNothing.into());
            }
            if take.count > left {
                return Err(NimError::TooMany {
                    heap: take.heap,
                    left,
                }
                .into());
            }
        }
        for take in takes {
            state.heaps[take.heap] -= take.count;
        }
        let mut events = vec![match action {
            Action::Take(take) => Event::Took { seat, take: *take },
            Action::Double(takes) => {
                state.spent[seat] = true;
                Event::Doubled {
                    seat,
                    takes: *takes,
                }
            }
        }];
        if state.stones() == 0 {
            state.winner = Some(seat);
            events.push(Event::Won { seat });
        } else {
            state.next = state.following(seat);
        }
        Ok(events)
    }

    /// Every single take, and every pair of takes from two heaps for a seat holding an
    /// unspent double. Small enough to list whole.
    fn legal(state: &State, seat: Seat) -> Vec<Action> {
        if state.winner.is_some() || seat != state.next {
            return Vec::new();
        }
        let takes: Vec<Take> = state
            .heaps
            .iter()
            .enumerate()
            .flat_map(|(heap, &left)| (1..=left).map(move |count| Take { heap, count }))
            .collect();
        let mut legal: Vec<Action> = takes.iter().copied().map(Action::Take).collect();
        if state.holds_double(seat) {
            for (i, first) in takes.iter().enumerate() {
                for second in &takes[i + 1..] {
                    if first.heap != second.heap {
                        legal.push(Action::Double([*first, *second]));
                    }
                }
            }
        }
        legal
    }

    /// An ejected seat is skipped from then on; when one seat is left, it wins.
    fn eject(state: &mut State, seat: Seat, reason: &str) -> Vec<Event> {
        if state.winner.is_some() || seat >= state.seats() || state.ejected[seat].is_some() {
            return Vec::new();
        }
        state.ejected[seat] = Some(reason.to_string());
        let mut events = vec![Event::Ejected {
            seat,
            reason: reason.to_string(),
        }];
        let live = state.live_seats();
        if let [last] = live[..] {
            state.winner = Some(last);
            events.push(Event::Won { seat: last });
        } else if state.next == seat {
            state.next = state.following(seat);
        }
        events
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        view::view(state, seat)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        let winner = state.winner?;
        let keys: Vec<u8> = (0..state.seats()).map(|s| u8::from(s == winner)).collect();
        Some(Outcome {
            ranks: Outcome::rank_by(&keys, &state.ejected),
            scores: keys.iter().map(|&k| i64::from(k)).collect(),
            ejected: state.ejected.clone(),
            summary: format!("seat {winner} took the last stone"),
        })
    }

    /// Re-deal every card `seat` has not seen (the others' unspent ones) by the same
    /// fair coin as the deal. Once the game is over every card is known.
    fn determinize(state: &State, seat: Seat, rng: &mut GameRng) -> State {
        let mut sample = state.clone();
        if state.winner.is_none() {
            for other in 0..state.seats() {
                if other != seat && !state.spent[other] {
                    sample.cards[other] = view::draw_card(rng);
                }
            }
        }
        sample
    }

    fn state_from_view(
        config: &Config,
        view: &View,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Result<State, String> {
        if view.heaps.len() != config.heaps.len() {
            return Err("the view's heaps do not match the configuration".to_string());
        }
        view::state_from_view(view, seat, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Card;

    fn game(cards: [Card; 2]) -> State {
        let mut state = Nim::new(&Config::default(), 2, 1).unwrap();
        state.cards = cards.to_vec();
        state
    }

    fn take(heap: usize, count: u32) -> Take {
        Take { heap, count }
    }

    #[test]
    fn taking_the_last_stone_wins() {
        let mut state = game([Card::Plain, Card::Plain]);
        state.heaps = vec![0, 0, 2];
        Nim::apply(&mut state, 0, &Action::Take(take(2, 2))).unwrap();
        assert_eq!(Nim::to_act(&state), Turn::Over);
        assert_eq!(Nim::outcome(&state).unwrap().ranks, vec![1, 2]);
    }

    #[test]
    fn a_double_is_spent_once_and_only_by_its_holder() {
        let mut state = game([Card::Double, Card::Plain]);
        let double = Action::Double([take(0, 1), take(1, 1)]);
        Nim::apply(&mut state, 0, &double).unwrap();
        assert_eq!(state.heaps, vec![2, 3, 5]);
        assert!(state.spent[0]);
        let refused = Nim::apply(&mut state, 1, &double).unwrap_err();
        assert_eq!(refused.code, "no_double");
        state.next = 0;
        let before = state.clone();
        assert_eq!(
            Nim::apply(&mut state, 0, &double).unwrap_err().code,
            "no_double"
        );
        assert_eq!(state, before, "a refused move changes nothing");
    }

    #[test]
    fn refusals_name_the_reason_and_change_nothing() {
        let mut state = game([Card::Double, Card::Plain]);
        let before = state.clone();
        for (action, code) in [
            (Action::Take(take(7, 1)), "no_such_heap"),
            (Action::Take(take(0, 0)), "take_nothing"),
            (Action::Take(take(0, 4)), "too_many_stones"),
            (Action::Double([take(1, 1), take(1, 2)]), "same_heap"),
            (Action::Double([take(1, 1), take(2, 9)]), "too_many_stones"),
        ] {
            assert_eq!(Nim::apply(&mut state, 0, &action).unwrap_err().code, code);
            assert_eq!(state, before);
        }
    }

    #[test]
    fn the_last_seat_left_wins() {
        let mut state = Nim::new(&Config::default(), 3, 5).unwrap();
        Nim::eject(&mut state, 0, "gone");
        assert_eq!(Nim::to_act(&state), Turn::One(1));
        Nim::eject(&mut state, 2, "gone");
        let outcome = Nim::outcome(&state).unwrap();
        assert_eq!(outcome.ranks, vec![2, 1, 2]);
    }

    #[test]
    fn cards_stay_hidden_until_spent_or_the_end() {
        let state = game([Card::Double, Card::Plain]);
        let seen = Nim::view(&state, Some(1));
        assert_eq!(
            seen.cards,
            vec![view::CardView::Hidden, view::CardView::Plain]
        );
        let spectator = Nim::view(&state, None);
        assert_eq!(spectator.cards, vec![view::CardView::Hidden; 2]);
    }
}

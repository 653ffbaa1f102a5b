//! Q-Game as an engine [`Game`]: sequential turns, hidden hands and pile order.

use std::ops::RangeInclusive;

use arbiter_engine::{ConfigError, Game, GameRng, Illegal, Outcome, Seat, TimeoutPolicy, Turn};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::Serialize;

use crate::action::Action;
use crate::config::Config;
use crate::legal::LegalList;
use crate::placement::Placement;
use crate::state::{State, TurnResult, MAX_PLAYERS, MIN_PLAYERS};
use crate::tile::Tile;
use crate::view::{view_of, View};

/// The Q-Game ruleset marker.
pub struct Qgame;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    Placed {
        seat: Seat,
        placements: Vec<Placement>,
        points: u32,
        finished: bool,
    },
    Passed {
        seat: Seat,
    },
    Exchanged {
        seat: Seat,
    },
    /// Tiles dealt to a seat; only that seat sees which.
    Dealt {
        seat: Seat,
        count: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        tiles: Option<Vec<Tile>>,
    },
    Ejected {
        seat: Seat,
        reason: String,
    },
    GameOver {
        winners: Vec<Seat>,
    },
}

impl Game for Qgame {
    const ID: &'static str = "qgame";
    const NAME: &'static str = "Q-Game";
    type Config = Config;
    type State = State;
    type Action = Action;
    type View = View;
    type Event = Event;

    fn seat_counts(config: &Config) -> RangeInclusive<usize> {
        match &config.state0 {
            Some(state0) => state0.players.len()..=state0.players.len(),
            None => MIN_PLAYERS..=MAX_PLAYERS,
        }
    }

    fn seat_count(state: &State) -> usize {
        state.players.len()
    }

    fn new(config: &Config, seats: usize, seed: u64) -> Result<State, ConfigError> {
        match &config.state0 {
            Some(state0) if state0.players.len() != seats => Err(ConfigError::new(format!(
                "state0 lists {} players but {seats} seats were asked for",
                state0.players.len()
            ))),
            Some(state0) => State::from_jstate(state0, config),
            None => State::fresh(config, seats, seed),
        }
    }

    fn to_act(state: &State) -> Turn {
        state.active().map_or(Turn::Over, Turn::One)
    }

    fn apply(state: &mut State, seat: Seat, action: &Action) -> Result<Vec<Event>, Illegal> {
        let result = state.take_turn(seat, action)?;
        let mut events = match result {
            TurnResult::Passed => vec![Event::Passed { seat }],
            TurnResult::Exchanged { dealt } => vec![
                Event::Exchanged { seat },
                Event::Dealt {
                    seat,
                    count: dealt.len(),
                    tiles: Some(dealt),
                },
            ],
            TurnResult::Placed {
                placements,
                points,
                dealt,
                finished,
            } => {
                let placed = Event::Placed {
                    seat,
                    placements,
                    points,
                    finished,
                };
                if finished {
                    vec![placed]
                } else {
                    let count = dealt.len();
                    let tiles = Some(dealt);
                    vec![placed, Event::Dealt { seat, count, tiles }]
                }
            }
        };
        if state.over {
            events.push(Event::GameOver {
                winners: state.winners(),
            });
        }
        Ok(events)
    }

    /// `apply` without the events: playouts skip copying out what each turn placed and
    /// dealt (the test battery checks that the state after is the same).
    fn apply_quietly(state: &mut State, seat: Seat, action: &Action) -> Result<(), Illegal> {
        Ok(state.take_turn_quietly(seat, action)?)
    }

    /// A sample, not the full space (multi-tile placements are combinatorial): pass,
    /// replace when the pile allows, and every single-tile placement (see `legal.rs`
    /// for the order). Bots that want longer placements build them (see
    /// `bots::GreedyBot`).
    fn legal(state: &State, seat: Seat) -> Vec<Action> {
        LegalList::of(state, seat).map_or_else(Vec::new, |list| list.iter().collect())
    }

    /// The engine's default draw (`legal(..).choose(rng)`: one `random_range(..len)`
    /// over the list's length, none when it is empty), reading that one action from
    /// the frontier instead of building the list.
    fn random_action(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        let list = LegalList::of(state, seat)?;
        match list.len() {
            0 => None,
            len => list.get(rng.random_range(..len)),
        }
    }

    fn eject(state: &mut State, seat: Seat, reason: &str) -> Vec<Event> {
        if !state.eject(seat, reason) {
            return Vec::new();
        }
        let mut events = vec![Event::Ejected {
            seat,
            reason: reason.to_string(),
        }];
        if state.over {
            events.push(Event::GameOver {
                winners: state.winners(),
            });
        }
        events
    }

    fn view(state: &State, seat: Option<Seat>) -> View {
        view_of(state, seat)
    }

    fn event_for(event: &Event, audience: Option<Seat>) -> Option<Event> {
        match event {
            Event::Dealt { seat, count, .. } if audience != Some(*seat) => Some(Event::Dealt {
                seat: *seat,
                count: *count,
                tiles: None,
            }),
            other => Some(other.clone()),
        }
    }

    /// The course ejects a player that misses the per-call time limit.
    fn on_timeout(_state: &State, _seat: Seat) -> TimeoutPolicy<Action> {
        TimeoutPolicy::Eject("missed the per-call time limit".to_string())
    }

    fn outcome(state: &State) -> Option<Outcome> {
        if !state.over {
            return None;
        }
        let scores: Vec<i64> = state.players.iter().map(|p| i64::from(p.score)).collect();
        let ejected: Vec<Option<String>> =
            state.players.iter().map(|p| p.ejected.clone()).collect();
        let ranks = Outcome::rank_by(&scores, &ejected);
        let winners = state.winners();
        let summary = match winners.as_slice() {
            [] => "no player survived".to_string(),
            [one] => format!(
                "{} wins with {} points",
                state.players[*one].name, scores[*one]
            ),
            many => format!(
                "{} share the win with {} points",
                many.iter()
                    .map(|&s| state.players[s].name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                scores[many[0]]
            ),
        };
        Some(Outcome {
            ranks,
            scores,
            ejected,
            summary,
        })
    }

    /// Everything `seat` cannot see (the other hands and the pile order) is pooled,
    /// shuffled and dealt back in the same sizes.
    fn determinize(state: &State, seat: Seat, rng: &mut GameRng) -> State {
        let mut sampled = state.clone();
        let others: Vec<Seat> = (0..state.players.len()).filter(|&s| s != seat).collect();
        let mut pool: Vec<Tile> = sampled.pile.drain(..).collect();
        for &other in &others {
            pool.append(&mut sampled.players[other].hand);
        }
        // Into a canonical order first, so the sample depends only on which tiles are
        // unseen, never on where they really lie (the engine battery checks this).
        pool.sort_unstable();
        pool.shuffle(rng);
        let mut pool = pool.into_iter();
        for &other in &others {
            let size = state.players[other].hand.len();
            sampled.players[other].hand = pool.by_ref().take(size).collect();
        }
        sampled.pile = pool.collect();
        sampled
    }

    /// The other hands and the pile are dealt from the tiles the seat cannot see (see
    /// `rebuild.rs`).
    fn state_from_view(
        config: &Config,
        view: &View,
        seat: Seat,
        rng: &mut GameRng,
    ) -> Result<State, String> {
        crate::rebuild::state_from_view(config, view, seat, rng)
    }
}

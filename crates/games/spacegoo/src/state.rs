//! The referee's whole knowledge of a match: the board plus this round's sealed commands,
//! disqualifications and the end.
//!
//! **Sealed commands, reference ordering.** The reference applied a `send` the moment it
//! arrived, so fleet ids follow arrival order. A send only ever touches its sender's own
//! planet and nothing else changes the board before the tick, so applying the round's
//! commands *at the tick, in arrival order* gives exactly the same fleets, ids and ship
//! counts, while nothing of a pending command exists on the board for a view to leak.
//! When the game ends without a tick (a disqualification) the pending sends are applied
//! all the same, so the final state is the reference's.

use arbiter_engine::{ConfigError, EventSink, Seat};
use serde::Serialize;

use crate::actions::Action;
use crate::config::Config;
use crate::events::Event;
use crate::map::{self, Planet};
use crate::reasons;
use crate::world::{EngineResult, World};

/// Two players; seat `s` is player id `s + 1`.
pub const SEATS: usize = 2;

/// Player id (1 or 2) of a seat.
pub fn player_id(seat: Seat) -> u8 {
    if seat == 0 {
        1
    } else {
        2
    }
}

/// Why a command was refused. A refused command changes nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpacegooError {
    #[error("the game is over")]
    GameOver,
    #[error("there is no seat {0} in a two-player game")]
    NoSuchSeat(Seat),
    /// The reference disqualifies for this; the referee does so by ejecting the seat
    /// with [`reasons::MORE_THAN_ONE_COMMAND`].
    #[error("seat {0} already sent its command for this round (the rules disqualify for a second command)")]
    MoreThanOneCommand(Seat),
    #[error("seat {0} is disqualified")]
    Disqualified(Seat),
}

impl From<SpacegooError> for arbiter_engine::Illegal {
    fn from(error: SpacegooError) -> Self {
        let code = match error {
            SpacegooError::GameOver => "game_over",
            SpacegooError::NoSuchSeat(_) => "no_such_seat",
            SpacegooError::MoreThanOneCommand(_) => "more_than_one_command",
            SpacegooError::Disqualified(_) => "disqualified",
        };
        arbiter_engine::Illegal::new(code, error.to_string())
    }
}

/// A disqualified seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Disqualification {
    pub reason: String,
    /// Missed the round's deadline (two of these in one round make a draw).
    pub missed_deadline: bool,
}

/// How the game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct End {
    /// Winning player id (1 or 2), `None` for a draw.
    pub winner: Option<u8>,
    /// The reference's wording: "player 1 won", "game is a draw", "player 2
    /// disqualified: no command sent", "both players failed to send a command".
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct State {
    pub(crate) config: Config,
    pub(crate) world: World,
    /// This round's commands in arrival order. Secret until the round resolves.
    pub(crate) pending: Vec<(Seat, Action)>,
    pub(crate) out: [Option<Disqualification>; SEATS],
    pub(crate) end: Option<End>,
}

impl State {
    /// A fresh game on a map drawn from `seed`.
    pub fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        config.validate()?;
        let planets = map::generate(&mut arbiter_engine::seeded_rng(seed));
        Ok(Self::with_planets(config, planets))
    }

    /// A game on a given map (hand-built maps for tests, tools and fixed-map events).
    /// Planet ids are reassigned to list positions.
    pub fn with_planets(config: &Config, mut planets: Vec<Planet>) -> Self {
        for (id, planet) in planets.iter_mut().enumerate() {
            planet.id = id;
        }
        State {
            config: config.clone(),
            world: World::new(planets, config.max_rounds),
            pending: Vec::new(),
            out: [None, None],
            end: None,
        }
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The public board (never includes this round's pending commands).
    pub fn world(&self) -> &World {
        &self.world
    }

    pub fn game_over(&self) -> bool {
        self.end.is_some()
    }

    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// Winning player id once the game is over with a winner.
    pub fn winner(&self) -> Option<u8> {
        self.end.as_ref().and_then(|end| end.winner)
    }

    pub fn disqualification(&self, seat: Seat) -> Option<&Disqualification> {
        self.out.get(seat).and_then(Option::as_ref)
    }

    /// The command `seat` has sealed this round, if any (referee-only knowledge).
    pub fn pending_command(&self, seat: Seat) -> Option<&Action> {
        self.pending
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, action)| action)
    }

    /// Seats that still owe this round's command.
    pub fn waiting(&self) -> Vec<Seat> {
        let mut seats = Vec::with_capacity(SEATS);
        for seat in 0..SEATS {
            if self.owes(seat) {
                seats.push(seat);
            }
        }
        seats
    }

    /// Whether `seat` still owes this round's command (is in [`State::waiting`]).
    pub fn owes(&self, seat: Seat) -> bool {
        self.end.is_none()
            && seat < SEATS
            && self.out[seat].is_none()
            && self.pending_command(seat).is_none()
    }

    /// Receive `seat`'s command for this round. When every seat still in has one, the
    /// round resolves. A send with negative numbers disqualifies its sender at once.
    pub fn submit(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, SpacegooError> {
        // The round's events (see `resolve_round`) in one allocation.
        let mut events = Vec::with_capacity(if self.completes_round(seat) { 8 } else { 1 });
        self.submit_into(seat, action, &mut events)?;
        Ok(events)
    }

    /// [`State::submit`] with the events pushed into `events`; with [`Discard`](arbiter_engine::Discard) a
    /// playout skips building them.
    pub fn submit_into(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut impl EventSink<Event>,
    ) -> Result<(), SpacegooError> {
        if self.end.is_some() {
            return Err(SpacegooError::GameOver);
        }
        if seat >= SEATS {
            return Err(SpacegooError::NoSuchSeat(seat));
        }
        if self.out[seat].is_some() {
            return Err(SpacegooError::Disqualified(seat));
        }
        if self.pending_command(seat).is_some() {
            return Err(SpacegooError::MoreThanOneCommand(seat));
        }
        if let Some(reason) = action.disqualifies() {
            for event in self.disqualify(seat, reason) {
                events.push(event);
            }
            return Ok(());
        }
        let complete = self.completes_round(seat);
        self.pending.push((seat, action.clone()));
        events.push(Event::CommandReceived {
            seat,
            action: action.clone(),
        });
        if complete {
            if self.out.iter().any(Option::is_some) {
                // The other seat missed this deadline already: the round is complete.
                self.finish_by_disqualification(events);
            } else {
                self.resolve_round(events);
            }
        }
        Ok(())
    }

    /// Whether `seat`'s command would be the last one this round waits for.
    fn completes_round(&self, seat: Seat) -> bool {
        !(0..SEATS).any(|s| s != seat && self.owes(s))
    }

    /// The first seat that still owes this round's command, without listing them.
    pub fn first_waiting(&self) -> Option<Seat> {
        (0..SEATS).find(|&seat| self.owes(seat))
    }

    /// Disqualify `seat`. Ends the game, except that a missed deadline while the other
    /// seat has not answered either waits for that seat: if it is ejected too, both
    /// missed the deadline and the game is a draw (the reference's single round timer).
    pub fn disqualify(&mut self, seat: Seat, reason: &str) -> Vec<Event> {
        if self.end.is_some() || seat >= SEATS || self.out[seat].is_some() {
            return Vec::new();
        }
        let missed_deadline = reasons::is_missed_deadline(reason);
        self.out[seat] = Some(Disqualification {
            reason: reason.to_string(),
            missed_deadline,
        });
        let mut events = vec![Event::Disqualified {
            seat,
            reason: reason.to_string(),
        }];
        let other = 1 - seat;
        let other_still_to_answer =
            self.out[other].is_none() && self.pending_command(other).is_none();
        if !(missed_deadline && other_still_to_answer) {
            self.finish_by_disqualification(&mut events);
        }
        events
    }

    /// Apply this round's sends in arrival order, then tick.
    fn resolve_round(&mut self, events: &mut impl EventSink<Event>) {
        self.apply_pending(events);
        self.world
            .do_round_into(|capture| events.push(Event::PlanetCaptured(capture)));
        events.push(Event::RoundResolved {
            round: self.world.round,
        });
        if let Some(result) = self.world.result {
            let end = match result {
                EngineResult::Winner(player) => End {
                    winner: Some(player),
                    reason: format!("player {player} won"),
                },
                EngineResult::Draw => End {
                    winner: None,
                    reason: "game is a draw".to_string(),
                },
            };
            events.push(self.close(end));
        }
    }

    /// End after a disqualification: one seat out → the other wins; both out (they
    /// missed the same deadline) → draw.
    fn finish_by_disqualification(&mut self, events: &mut impl EventSink<Event>) {
        self.apply_pending(events);
        let end = match (&self.out[0], &self.out[1]) {
            (Some(_), Some(_)) => End {
                winner: None,
                reason: reasons::BOTH_MISSED.to_string(),
            },
            (Some(dq), None) | (None, Some(dq)) => {
                let loser = if self.out[0].is_some() { 0 } else { 1 };
                End {
                    winner: Some(player_id(1 - loser)),
                    reason: format!("player {} disqualified: {}", player_id(loser), dq.reason),
                }
            }
            (None, None) => return,
        };
        events.push(self.close(end));
    }

    /// Turn the round's sealed sends into fleets (the reference's on-receipt effect).
    /// The emptied list keeps its room for the next round.
    fn apply_pending(&mut self, events: &mut impl EventSink<Event>) {
        let mut pending = std::mem::take(&mut self.pending);
        for (seat, action) in pending.drain(..) {
            if let Action::Send(order) = action {
                let player = player_id(seat);
                match self
                    .world
                    .send_fleet(player, order.origin, order.target, order.ships)
                {
                    Ok(index) => events.push(Event::FleetLaunched {
                        seat,
                        fleet: self.world.fleets[index].clone(),
                    }),
                    Err(reason) => events.push(Event::SendIgnored { seat, reason }),
                }
            }
        }
        self.pending = pending;
    }

    fn close(&mut self, end: End) -> Event {
        let event = Event::GameOver {
            winner: end.winner,
            reason: end.reason.clone(),
        };
        self.end = Some(end);
        event
    }
}

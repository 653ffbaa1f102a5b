//! The referee's state and the turn rules (§4, §6, §7): rounds, dealing, exchange,
//! placement, ejection and the end conditions.

use std::collections::VecDeque;

use arbiter_engine::{seeded_rng, ConfigError, Seat};
use rand::seq::SliceRandom;
use serde::Serialize;

use crate::action::Action;
use crate::config::{Config, MAX_BONUS};
use crate::error::QgameError;
use crate::jstate::{JPlayer, JPub, JState};
use crate::map::Map;
use crate::placement::{place_checked, Placement};
use crate::scoring::score_placement;
use crate::tile::Tile;

/// Tiles in a full hand.
pub const HAND_SIZE: usize = 6;
pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerState {
    pub name: String,
    pub score: u32,
    /// In the referee's order: newly dealt tiles go in front.
    pub hand: Vec<Tile>,
    /// Why the player was ejected, if it was.
    pub ejected: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct State {
    pub map: Map,
    /// The draw pile, front first. Draws come from the front; returned tiles go to the
    /// end.
    pub pile: VecDeque<Tile>,
    /// Players by seat.
    pub players: Vec<PlayerState>,
    /// Surviving seats in turn order; the first is the active player.
    pub queue: Vec<Seat>,
    /// Seats still to move in the current round.
    pub round_left: Vec<Seat>,
    /// Whether anyone placed tiles in the current round (then the round cannot end
    /// the game, even if the placer is ejected later).
    pub placed_this_round: bool,
    /// Ejected seats in the order they were ejected.
    pub ejection_order: Vec<Seat>,
    pub over: bool,
    pub qbo: u32,
    pub fbo: u32,
    /// `Config::course_calls`: dealt tiles reach their player in a call after its turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub course_calls: bool,
    /// With `course_calls`: the seat that took the last turn and how many tiles that
    /// turn dealt it (at the front of its hand), until the next turn begins. Those are
    /// the tiles lost if the seat is ejected in between.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undelivered: Option<(Seat, usize)>,
}

/// What a legal turn did, counted: the tiles it dealt are at the front of the hand.
#[derive(Debug, Clone, Copy)]
enum Turned {
    Passed,
    Exchanged,
    Placed {
        points: u32,
        dealt: usize,
        finished: bool,
    },
}

/// What a legal turn did, for the caller to announce (and, in the course protocol, to
/// send through `new-tiles`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnResult {
    Passed,
    Exchanged {
        dealt: Vec<Tile>,
    },
    Placed {
        placements: Vec<Placement>,
        points: u32,
        dealt: Vec<Tile>,
        finished: bool,
    },
}

impl State {
    /// A fresh game: shuffle the full set with the seeded ChaCha generator, put the
    /// first tile at the origin, deal six to every player in seat order.
    pub fn fresh(config: &Config, seats: usize, seed: u64) -> Result<State, ConfigError> {
        validate_bonuses(config)?;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&seats) {
            return Err(ConfigError::new(format!(
                "Q-Game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {seats}"
            )));
        }
        let mut tiles = Tile::full_set();
        tiles.shuffle(&mut seeded_rng(seed));
        let mut pile: VecDeque<Tile> = tiles.into();
        let first = pile
            .pop_front()
            .ok_or_else(|| ConfigError::new("empty tile set"))?;
        let players = (0..seats)
            .map(|seat| PlayerState {
                name: format!("player{}", seat + 1),
                score: 0,
                hand: pile.drain(..HAND_SIZE).collect(),
                ejected: None,
            })
            .collect();
        Ok(State::with(
            Map::starting_with(first),
            pile,
            players,
            config,
        ))
    }

    /// A game from a given JState, honoured exactly (scores, hands, pile, map). Players
    /// without names are called `player1`, `player2`, … by position.
    pub fn from_jstate(jstate: &JState, config: &Config) -> Result<State, ConfigError> {
        validate_bonuses(config)?;
        if jstate.players.is_empty() || jstate.players.len() > MAX_PLAYERS {
            return Err(ConfigError::new(format!(
                "state0 must list 1 to {MAX_PLAYERS} players, not {}",
                jstate.players.len()
            )));
        }
        if jstate.map.is_empty() {
            return Err(ConfigError::new("state0's map must hold at least one tile"));
        }
        let players = jstate
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| PlayerState {
                name: p
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("player{}", seat + 1)),
                score: p.score,
                hand: p.tiles.clone(),
                ejected: None,
            })
            .collect();
        Ok(State::with(
            jstate.map.clone(),
            jstate.pile.iter().copied().collect(),
            players,
            config,
        ))
    }

    fn with(map: Map, pile: VecDeque<Tile>, players: Vec<PlayerState>, config: &Config) -> Self {
        let queue: Vec<Seat> = (0..players.len()).collect();
        State {
            map,
            pile,
            players,
            round_left: queue.clone(),
            queue,
            placed_this_round: false,
            ejection_order: Vec::new(),
            over: false,
            qbo: config.qbo,
            fbo: config.fbo,
            course_calls: config.course_calls,
            undelivered: None,
        }
    }

    /// The seat whose turn it is.
    pub fn active(&self) -> Option<Seat> {
        if self.over {
            None
        } else {
            self.queue.first().copied()
        }
    }

    /// Apply the active player's answer. An illegal answer changes nothing (the caller
    /// decides whether it means ejection).
    pub fn take_turn(&mut self, seat: Seat, action: &Action) -> Result<TurnResult, QgameError> {
        let turned = self.checked_turn(seat, action)?;
        let hand = &self.players[seat].hand;
        Ok(match (turned, action) {
            (Turned::Exchanged, _) => TurnResult::Exchanged {
                dealt: hand.clone(),
            },
            (
                Turned::Placed {
                    points,
                    dealt,
                    finished,
                },
                Action::Place(placements),
            ) => TurnResult::Placed {
                placements: placements.clone(),
                points,
                dealt: hand[..dealt].to_vec(),
                finished,
            },
            _ => TurnResult::Passed,
        })
    }

    /// [`State::take_turn`] for playouts: the same rules and the same state after,
    /// without copying out what the turn placed and dealt.
    pub fn take_turn_quietly(&mut self, seat: Seat, action: &Action) -> Result<(), QgameError> {
        self.checked_turn(seat, action).map(drop)
    }

    fn checked_turn(&mut self, seat: Seat, action: &Action) -> Result<Turned, QgameError> {
        if self.over {
            return Err(QgameError::GameOver);
        }
        if self.active() != Some(seat) {
            return Err(QgameError::NotYourTurn);
        }
        let turned = self.turn(seat, action)?;
        // The earlier turn's tiles have been delivered: this turn has begun.
        let dealt = match turned {
            Turned::Exchanged => self.players[seat].hand.len(),
            Turned::Placed { dealt, .. } => dealt,
            Turned::Passed => 0,
        };
        self.undelivered = (self.course_calls && dealt > 0).then_some((seat, dealt));
        Ok(turned)
    }

    /// The turn's rules, once it is known to be `seat`'s. Dealt tiles go to the front
    /// of the hand, where [`State::take_turn`] reads them.
    fn turn(&mut self, seat: Seat, action: &Action) -> Result<Turned, QgameError> {
        let State {
            map,
            players,
            pile,
            over,
            qbo,
            fbo,
            ..
        } = self;
        let turned = match action {
            Action::Pass => Turned::Passed,
            Action::Replace => {
                let hand = &mut players[seat].hand;
                let hand_size = hand.len();
                if pile.len() < hand_size {
                    return Err(QgameError::PileTooSmall {
                        hand: hand_size,
                        pile: pile.len(),
                    });
                }
                pile.extend(hand.drain(..));
                hand.extend(pile.drain(..hand_size));
                Turned::Exchanged
            }
            Action::Place(placements) => {
                let player = &players[seat];
                place_checked(map, &player.hand, placements)?;
                let finished = placements.len() == player.hand.len();
                let points =
                    score_placement(map, placements, *qbo) + if finished { *fbo } else { 0 };
                let player = &mut players[seat];
                player.score += points;
                for placement in placements {
                    if let Some(i) = player.hand.iter().position(|t| *t == placement.tile) {
                        player.hand.remove(i);
                    }
                }
                if finished {
                    *over = true;
                    return Ok(Turned::Placed {
                        points,
                        dealt: 0,
                        finished,
                    });
                }
                let dealt = placements.len().min(pile.len());
                // The dealt tiles go to the front of the hand, in the pile's order:
                // appended, then rotated there (a hand is six tiles at most; a splice
                // at the front cost more than the rest of a quiet turn's upkeep).
                player.hand.extend(pile.drain(..dealt));
                player.hand.rotate_right(dealt);
                Turned::Placed {
                    points,
                    dealt,
                    finished,
                }
            }
        };
        self.placed_this_round |= matches!(turned, Turned::Placed { .. });
        self.queue.retain(|&s| s != seat);
        self.queue.push(seat);
        self.round_left.retain(|&s| s != seat);
        self.check_round_end();
        Ok(turned)
    }

    /// Remove a misbehaving player: its hand goes to the end of the pile and it is
    /// never asked again. Returns false if it was already out.
    pub fn eject(&mut self, seat: Seat, reason: &str) -> bool {
        let Some(player) = self.players.get_mut(seat) else {
            return false;
        };
        if player.ejected.is_some() {
            return false;
        }
        player.ejected = Some(reason.to_string());
        if let Some((_, count)) = self.undelivered.take().filter(|&(s, _)| s == seat) {
            // Dealt, never handed over (`Config::course_calls`): out of the game.
            player.hand.drain(..count.min(player.hand.len()));
        }
        let hand: Vec<Tile> = player.hand.drain(..).collect();
        self.pile.extend(hand);
        self.queue.retain(|&s| s != seat);
        self.round_left.retain(|&s| s != seat);
        self.ejection_order.push(seat);
        if !self.over {
            self.check_round_end();
        }
        true
    }

    /// End the game when nobody is left, or when a round passed without a placement;
    /// otherwise start the next round when this one is done.
    fn check_round_end(&mut self) {
        if self.queue.is_empty() {
            self.over = true;
        } else if self.round_left.is_empty() {
            if self.placed_this_round {
                self.round_left = self.queue.clone();
                self.placed_this_round = false;
            } else {
                self.over = true;
            }
        }
    }

    /// Surviving seats with the highest score (none if nobody survived).
    pub fn winners(&self) -> Vec<Seat> {
        let best = self.queue.iter().map(|&s| self.players[s].score).max();
        self.queue
            .iter()
            .copied()
            .filter(|&s| Some(self.players[s].score) == best)
            .collect()
    }

    /// The seat's JPub: the map, the pile size, itself, and the others' scores in turn
    /// order starting after it.
    pub fn jpub(&self, seat: Seat) -> JPub {
        let me = &self.players[seat];
        let position = self.queue.iter().position(|&s| s == seat).unwrap_or(0);
        let others = self
            .queue
            .iter()
            .cycle()
            .skip(position + 1)
            .take(self.queue.len().saturating_sub(1));
        JPub {
            map: self.map.clone(),
            pile_count: self.pile.len(),
            me: JPlayer {
                score: me.score,
                tiles: me.hand.clone(),
                name: Some(me.name.clone()),
            },
            other_scores: others
                .filter(|&&s| s != seat)
                .map(|&s| self.players[s].score)
                .collect(),
        }
    }

    /// The full JState (referee's knowledge), surviving players in turn order.
    pub fn jstate(&self) -> JState {
        JState {
            map: self.map.clone(),
            pile: self.pile.iter().copied().collect(),
            players: self
                .queue
                .iter()
                .map(|&s| {
                    let p = &self.players[s];
                    JPlayer {
                        score: p.score,
                        tiles: p.hand.clone(),
                        name: Some(p.name.clone()),
                    }
                })
                .collect(),
        }
    }
}

fn validate_bonuses(config: &Config) -> Result<(), ConfigError> {
    for (field, value) in [("qbo", config.qbo), ("fbo", config.fbo)] {
        if value > MAX_BONUS {
            return Err(ConfigError::new(format!(
                "{field} must be between 0 and {MAX_BONUS}, not {value}"
            )));
        }
    }
    Ok(())
}

//! One course client in a refereed match: the referee asks the seat for a decision like
//! any in-process player, and this adapter turns that into the course's calls over
//! the client's connection (background §11.2): `setup` before its first turn,
//! `new-tiles` with the tiles its previous turn was dealt, then `take-turn`. A failed
//! or late call is the seat's failure, which the referee turns into an ejection with
//! the reason recorded. `win` comes after the match, from [`CourseSeat::finish`].
//!
//! The course client only ever sees its own public state (`JPub`), as in the course.

use std::sync::Arc;

use parking_lot::Mutex;

use arbiter_engine::erased::ErasedState;
use arbiter_engine::{DynState, Seat};
use arbiter_qgame::{Action, Qgame, Tile};
use arbiter_qgame_course::remote::ProxyPlayer;
use arbiter_qgame_course::CoursePlayer;
use arbiter_rulesets::HouseBot;
use serde_json::Value;

/// What the adapter remembers between two of the seat's turns.
struct Progress {
    set_up: bool,
    /// The seat's previous accepted action and how many tiles it held before it.
    last: Option<(Action, usize)>,
    /// Once a call failed the connection is not used again.
    failed: Option<String>,
}

/// The shared seat: the referee may rebuild its player (after a panic), and the port
/// calls `win` at the end, so the connection lives here, not in one player object.
#[derive(Clone)]
pub struct CourseSeat {
    inner: Arc<Mutex<(ProxyPlayer, Progress)>>,
}

impl CourseSeat {
    pub fn new(player: ProxyPlayer) -> CourseSeat {
        CourseSeat {
            inner: Arc::new(Mutex::new((
                player,
                Progress {
                    set_up: false,
                    last: None,
                    failed: None,
                },
            ))),
        }
    }

    /// A player object for the referee (all of them drive the same connection).
    pub fn player(&self) -> Box<dyn HouseBot> {
        Box::new(self.clone())
    }

    /// The course's last call: `win(true|false)` for a seat still in the game. Blocking.
    pub fn finish(&self, won: bool) {
        let mut guard = self.inner.lock();
        let (player, progress) = &mut *guard;
        if progress.failed.is_none() {
            if let Err(failure) = player.win(won) {
                tracing::info!(name = %player.name(), %failure, "a Q-Game client failed its win call");
            }
        }
    }
}

/// The tiles the previous turn dealt, read off the hand now: a placement of `k` tiles
/// keeps the other `before - k` at the end of the hand and puts the new ones in front;
/// an exchange deals a whole new hand; a pass deals nothing.
fn dealt_since(last: &Action, held_before: usize, hand: &[Tile]) -> Vec<Tile> {
    match last {
        Action::Pass => Vec::new(),
        Action::Replace => hand.to_vec(),
        Action::Place(placements) => {
            let kept = held_before.saturating_sub(placements.len());
            let fresh = hand.len().saturating_sub(kept);
            hand[..fresh].to_vec()
        }
    }
}

impl HouseBot for CourseSeat {
    fn decide(&mut self, state: &dyn DynState, seat: Seat) -> Result<Value, String> {
        let typed = state
            .as_any()
            .downcast_ref::<ErasedState<Qgame>>()
            .ok_or_else(|| format!("a Q-Game client cannot play {}", state.ruleset()))?;
        let state = &typed.state;
        let hand = state
            .players
            .get(seat)
            .map(|p| p.hand.clone())
            .ok_or_else(|| format!("no seat {seat}"))?;
        let mut guard = self.inner.lock();
        let (player, progress) = &mut *guard;
        if let Some(why) = &progress.failed {
            return Err(why.clone());
        }
        // The client's own entry carries its sign-up name, as in the course.
        let mut public = state.jpub(seat);
        public.me.name = Some(player.name());
        let answer = (|| {
            if !progress.set_up {
                player
                    .setup(&public, &hand)
                    .map_err(|f| format!("setup: {f}"))?;
                progress.set_up = true;
            }
            if let Some((last, held)) = progress.last.take() {
                let dealt = dealt_since(&last, held, &hand);
                if !dealt.is_empty() {
                    player
                        .new_tiles(&dealt)
                        .map_err(|f| format!("new-tiles: {f}"))?;
                }
            }
            player
                .take_turn(&public)
                .map_err(|f| format!("take-turn: {f}"))
        })();
        match answer {
            Ok(action) => {
                let value = serde_json::to_value(&action).map_err(|e| e.to_string())?;
                progress.last = Some((action, hand.len()));
                Ok(value)
            }
            Err(why) => {
                progress.failed = Some(why.clone());
                Err(why)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_qgame::{Coord, Placement};

    fn tiles(n: usize) -> Vec<Tile> {
        Tile::all_kinds().take(n).collect()
    }

    fn at(row: i32, column: i32) -> Coord {
        Coord { row, column }
    }

    #[test]
    fn dealt_tiles_are_read_off_the_front_of_the_hand() {
        let hand = tiles(6);
        assert!(dealt_since(&Action::Pass, 6, &hand).is_empty());
        assert_eq!(dealt_since(&Action::Replace, 6, &hand), hand);
        let two = Action::Place(vec![
            Placement::new(at(0, 1), hand[0]),
            Placement::new(at(0, 2), hand[1]),
        ]);
        // Six held, two placed, two dealt in front of the four kept.
        assert_eq!(dealt_since(&two, 6, &hand), hand[..2].to_vec());
        // The pile ran out: nothing dealt, four kept.
        assert!(dealt_since(&two, 6, &hand[..4]).is_empty());
    }
}

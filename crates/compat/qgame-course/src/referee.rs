//! The course referee (§6): setup calls, rounds of take-turn / new-tiles, then the win
//! calls, ejecting every player whose call fails, is late, or whose answer is illegal.

use arbiter_qgame::{JState, State, TurnResult};

use crate::player::CoursePlayer;

/// `[[winners sorted by name], [misbehaved in the order they were ejected]]`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CourseResult {
    pub winners: Vec<String>,
    pub misbehaved: Vec<String>,
}

impl CourseResult {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!([self.winners, self.misbehaved])
    }
}

/// Run a whole game from `state` with `players` matched to its seats by position.
/// `observe` sees the full state before every turn whose player is called, and the
/// final state; it cannot change the game.
pub fn run_game(
    mut state: State,
    mut players: Vec<Box<dyn CoursePlayer>>,
    mut observe: impl FnMut(&JState),
) -> CourseResult {
    for (seat, player) in players.iter().enumerate() {
        if let Some(p) = state.players.get_mut(seat) {
            p.name = player.name();
        }
    }
    let mut misbehaved: Vec<String> = Vec::new();

    for seat in state.queue.clone() {
        let hand = state.players[seat].hand.clone();
        if let Err(failure) = players[seat].setup(&state.jpub(seat), &hand) {
            eject(
                &mut state,
                seat,
                format!("setup: {failure}"),
                &mut misbehaved,
            );
        }
    }

    while let Some(seat) = state.active() {
        observe(&state.jstate());
        let answer = match players[seat].take_turn(&state.jpub(seat)) {
            Ok(answer) => answer,
            Err(failure) => {
                eject(
                    &mut state,
                    seat,
                    format!("take-turn: {failure}"),
                    &mut misbehaved,
                );
                continue;
            }
        };
        let dealt = match state.take_turn(seat, &answer) {
            Err(illegal) => {
                eject(
                    &mut state,
                    seat,
                    format!("illegal request: {illegal}"),
                    &mut misbehaved,
                );
                continue;
            }
            Ok(TurnResult::Passed) | Ok(TurnResult::Placed { finished: true, .. }) => continue,
            Ok(TurnResult::Exchanged { dealt }) | Ok(TurnResult::Placed { dealt, .. }) => dealt,
        };
        if let Err(failure) = players[seat].new_tiles(&dealt) {
            eject(
                &mut state,
                seat,
                format!("new-tiles: {failure}"),
                &mut misbehaved,
            );
        }
    }
    observe(&state.jstate());

    // Winners first, then the other survivors, each group in turn order; a failing
    // `win` call moves the player to the misbehaved list (winners are not recomputed).
    let winners = state.winners();
    let mut true_winners: Vec<String> = Vec::new();
    let losers: Vec<usize> = state
        .queue
        .iter()
        .copied()
        .filter(|s| !winners.contains(s))
        .collect();
    for (group, won) in [(winners, true), (losers, false)] {
        for seat in group {
            match players[seat].win(won) {
                Ok(()) if won => true_winners.push(state.players[seat].name.clone()),
                Ok(()) => {}
                Err(_) => misbehaved.push(state.players[seat].name.clone()),
            }
        }
    }
    true_winners.sort();
    CourseResult {
        winners: true_winners,
        misbehaved,
    }
}

/// Eject `seat` and remember its name in ejection order.
fn eject(state: &mut State, seat: usize, reason: String, misbehaved: &mut Vec<String>) {
    if state.eject(seat, &reason) {
        misbehaved.push(state.players[seat].name.clone());
    }
}

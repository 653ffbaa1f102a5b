//! Helpers shared by the integration tests.
#![allow(dead_code)]

use arbiter_engine::{Game, Seat, Turn};
use arbiter_tae::{Action, Event, Kind, Pos, State, Tae};

/// Board text from rows listed top first (the last row is y = 0).
pub fn board(rows: &[&str]) -> String {
    let mut text = rows.join("\n");
    text.push('\n');
    text
}

pub fn at(x: u32, y: u32) -> Pos {
    Pos::new(x, y)
}

/// Apply an action that must be legal; checks the state invariants afterwards.
pub fn act(state: &mut State, seat: Seat, action: Action) -> Vec<Event> {
    let events = match Tae::apply(state, seat, &action) {
        Ok(events) => events,
        Err(illegal) => panic!("{action:?} by seat {seat} refused: {illegal}"),
    };
    if let Err(e) = state.verify() {
        panic!("invariant broken after {action:?}: {e}");
    }
    events
}

/// Apply an action that must be refused with `code`, leaving the state unchanged.
pub fn refused(state: &mut State, seat: Seat, action: Action, code: &str) {
    let before = serde_json::to_string(state).unwrap();
    match Tae::apply(state, seat, &action) {
        Ok(_) => panic!("{action:?} by seat {seat} was accepted"),
        Err(illegal) => assert_eq!(illegal.code, code, "{}", illegal.message),
    }
    assert_eq!(
        serde_json::to_string(state).unwrap(),
        before,
        "a refused action changed the state"
    );
}

pub fn to_act(state: &State) -> Turn {
    Tae::to_act(state)
}

pub fn colonize(kind: Kind, x: u32, y: u32) -> Action {
    Action::Colonize { kind, at: at(x, y) }
}

pub fn place(kind: Kind, x: u32, y: u32) -> Action {
    Action::PlaceLeader { kind, at: at(x, y) }
}

pub fn commit(count: u32) -> Action {
    Action::Commit { count }
}

/// The colony at (x, y).
pub fn colony(state: &State, x: u32, y: u32) -> Option<Kind> {
    let board = state.board();
    board.id(at(x, y)).and_then(|id| board.cell(id).colony)
}

pub fn region(state: &State, x: u32, y: u32) -> Option<u32> {
    let board = state.board();
    board.id(at(x, y)).and_then(|id| board.region(id))
}

pub fn leader_at(state: &State, x: u32, y: u32) -> Option<(Seat, Kind)> {
    let board = state.board();
    board
        .id(at(x, y))
        .and_then(|id| board.cell(id).leader)
        .map(|l| (l.owner, l.kind))
}

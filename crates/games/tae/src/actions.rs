//! The active player's actions: place/move/withdraw a leader, colonize, bomb, swap.
//!
//! Each action is first *planned* (every rule checked, nothing changed) and only then
//! applied, so an illegal action never leaves a trace. `legal.rs` lists the same rules
//! for the whole board at once.

use serde::{Deserialize, Serialize};

use arbiter_engine::{EventSink, Seat};

use crate::board::{Board, Leader, Pos};
use crate::conflict;
use crate::error::TaeError;
use crate::events::{Event, ReturnReason};
use crate::kind::{Kind, Tiles};
use crate::lift::Lifted;
use crate::state::{Conflicts, Phase, State, War, ACTIONS_PER_TURN};

/// Most colonists one swap may discard.
pub const MAX_SWAP: u32 = 6;

/// Everything a seat can send. `Pass` is accepted at every prompt with its default
/// meaning (end the turn / commit 0 / the first pending conflict / the lowest artifact
/// cell), so a referee can answer a timeout with `Action::default()`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    #[default]
    Pass,
    /// Place a leader from hand, or move it if it is on the board.
    PlaceLeader { kind: Kind, at: Pos },
    /// Take a leader back into hand.
    WithdrawLeader { kind: Kind },
    /// Put a colonist from hand on the board.
    Colonize { kind: Kind, at: Pos },
    /// Destroy a cell with one of your bombers.
    Bomb { at: Pos },
    /// Discard 1–6 colonists out of the game and draw as many.
    Swap { tiles: Tiles },
    /// Conflict prompt (active player): fight this kind's conflict next.
    ChooseConflict { kind: Kind },
    /// Conflict prompt (attacker, then defender): commit this many colonists.
    Commit { count: u32 },
    /// Harvest prompt: take the artifact at this cell.
    TakeArtifact { at: Pos },
}

/// A checked leader placement or move.
pub(crate) struct LeaderPlan {
    kind: Kind,
    from: Option<usize>,
    to: usize,
}

/// What a checked colony does to the regions around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ColonizeEffect {
    /// Touches no region.
    Alone,
    /// Touches exactly one region: a resource may be awarded.
    Joins,
    /// Joins several regions; `wars` lists the external conflicts (maybe none).
    Unites { wars: Vec<War> },
}

pub(crate) fn cell_id(board: &Board, at: Pos) -> Result<usize, TaeError> {
    board.id(at).ok_or(TaeError::OffBoard(at))
}

/// Whether a leader may stand on `to` (on the board with the moving leader lifted).
pub(crate) fn check_leader_target(lifted: &Lifted, to: usize) -> Result<(), TaeError> {
    let board = lifted.board();
    let cell = board.cell(to);
    let at = board.pos(to);
    if cell.destroyed {
        return Err(TaeError::Destroyed(at));
    }
    if cell.occupied() {
        return Err(TaeError::Occupied(at));
    }
    if !cell.terrain.inhabitable() {
        return Err(TaeError::LeaderUninhabitable(at));
    }
    if board.adjacent_scientists(to) == 0 {
        return Err(TaeError::NoScientistNeighbor(at));
    }
    let regions = lifted.neighbor_region_count(to);
    if regions >= 2 {
        return Err(TaeError::LeaderJoinsRegions(at, regions));
    }
    Ok(())
}

fn plan_leader(state: &State, seat: Seat, kind: Kind, at: Pos) -> Result<LeaderPlan, TaeError> {
    let player = state.player(seat).ok_or(TaeError::NotYourTurn(seat))?;
    if !player.leaders.contains(&kind) {
        return Err(TaeError::NoSuchLeader(kind));
    }
    let to = cell_id(&state.board, at)?;
    let from = state.board.find_leader(seat, kind);
    if from == Some(to) {
        return Err(TaeError::SameCell(at));
    }
    check_leader_target(&Lifted::new(&state.board, from), to)?;
    Ok(LeaderPlan { kind, from, to })
}

/// The attacker in a conflict between `a` and `b`: the active player's leader if it is
/// one of them, otherwise the one whose owner comes first in seat order after the
/// active player.
pub(crate) fn attacker_of(active: Seat, seats: usize, a: Seat, b: Seat) -> (Seat, Seat) {
    let distance = |s: Seat| (s + seats - active) % seats;
    if distance(a) <= distance(b) {
        (a, b)
    } else {
        (b, a)
    }
}

pub(crate) fn plan_colonize(
    state: &State,
    seat: Seat,
    kind: Kind,
    at: Pos,
) -> Result<(usize, ColonizeEffect), TaeError> {
    let player = state.player(seat).ok_or(TaeError::NotYourTurn(seat))?;
    if player.hand.get(kind) == 0 {
        return Err(TaeError::NotInHand(kind));
    }
    let to = cell_id(&state.board, at)?;
    Ok((to, colonize_effect(state, kind, to)?))
}

/// The board rules of a colony (the hand was checked by the caller).
pub(crate) fn colonize_effect(
    state: &State,
    kind: Kind,
    to: usize,
) -> Result<ColonizeEffect, TaeError> {
    let board = &state.board;
    let cell = board.cell(to);
    let at = board.pos(to);
    if cell.destroyed {
        return Err(TaeError::Destroyed(at));
    }
    if cell.occupied() {
        return Err(TaeError::Occupied(at));
    }
    match (kind == Kind::Mining, cell.terrain.inhabitable()) {
        (true, true) => return Err(TaeError::MiningNeedsUninhabitable(at)),
        (false, false) => return Err(TaeError::NeedsInhabitable(at)),
        _ => {}
    }
    let regions = board.neighbor_regions(to);
    match regions.len() {
        0 => return Ok(ColonizeEffect::Alone),
        1 => return Ok(ColonizeEffect::Joins),
        _ => {}
    }
    let kingdoms = board.neighbor_kingdoms(to);
    if kingdoms.len() >= 3 {
        return Err(TaeError::JoinsThreeKingdoms(kingdoms.len()));
    }
    let mut wars = Vec::new();
    if let [r1, r2] = *kingdoms.as_slice() {
        let [first, second] = board.leaders_by_kind([r1, r2]);
        for leader_kind in Kind::ALL {
            if let (Some(a), Some(b)) = (first[leader_kind.index()], second[leader_kind.index()]) {
                let (attacker, defender) =
                    attacker_of(state.active, state.players.len(), a.owner, b.owner);
                wars.push(War {
                    kind: leader_kind,
                    attacker,
                    defender,
                });
            }
        }
    }
    Ok(ColonizeEffect::Unites { wars })
}

pub(crate) fn check_bomb(state: &State, seat: Seat, at: Pos) -> Result<usize, TaeError> {
    let player = state.player(seat).ok_or(TaeError::NotYourTurn(seat))?;
    if player.bombers == 0 {
        return Err(TaeError::NoBomber);
    }
    let id = cell_id(&state.board, at)?;
    bomb_target(&state.board, id)?;
    Ok(id)
}

pub(crate) fn bomb_target(board: &Board, id: usize) -> Result<(), TaeError> {
    let cell = board.cell(id);
    let at = board.pos(id);
    if cell.destroyed {
        return Err(TaeError::Destroyed(at));
    }
    if cell.leader.is_some() {
        return Err(TaeError::BombLeader(at));
    }
    if cell.artifact {
        return Err(TaeError::BombArtifact(at));
    }
    Ok(())
}

pub(crate) fn check_swap(state: &State, seat: Seat, tiles: &Tiles) -> Result<(), TaeError> {
    let player = state.player(seat).ok_or(TaeError::NotYourTurn(seat))?;
    let n = tiles.total();
    if !(1..=MAX_SWAP).contains(&n) {
        return Err(TaeError::SwapCount(n));
    }
    if !player.hand.contains(tiles) {
        return Err(TaeError::SwapNotInHand);
    }
    Ok(())
}

/// Apply one of the active player's turn actions (the phase is `Act`). Validates fully
/// before changing anything.
pub(crate) fn apply_turn_action(
    state: &mut State,
    seat: Seat,
    action: &Action,
    events: &mut impl EventSink<Event>,
) -> Result<(), TaeError> {
    match action {
        Action::Pass => {
            // Passing before any order makes this a passing turn; an order resets the count.
            if state.actions_left == ACTIONS_PER_TURN {
                state.passing_turns += 1;
            }
            state.actions_left = 0;
        }
        Action::PlaceLeader { kind, at } => {
            let plan = plan_leader(state, seat, *kind, *at)?;
            state.actions_left = state.actions_left.saturating_sub(1);
            place_leader(state, seat, plan, events);
        }
        Action::WithdrawLeader { kind } => {
            let player = state.player(seat).ok_or(TaeError::NotYourTurn(seat))?;
            if !player.leaders.contains(kind) {
                return Err(TaeError::NoSuchLeader(*kind));
            }
            let from = state
                .board
                .find_leader(seat, *kind)
                .ok_or(TaeError::LeaderNotOnBoard(*kind))?;
            state.actions_left = state.actions_left.saturating_sub(1);
            state.board.remove_leader(from);
            events.push(Event::LeaderReturned {
                seat,
                kind: *kind,
                from: state.board.pos(from),
                reason: ReturnReason::Withdrawn,
            });
        }
        Action::Colonize { kind, at } => {
            let (to, effect) = plan_colonize(state, seat, *kind, *at)?;
            state.actions_left = state.actions_left.saturating_sub(1);
            colonize(state, seat, *kind, to, effect, events);
        }
        Action::Bomb { at } => {
            let id = check_bomb(state, seat, *at)?;
            state.actions_left = state.actions_left.saturating_sub(1);
            state.players[seat].bombers -= 1;
            let removed = state.board.destroy(id);
            events.push(Event::Bombed {
                seat,
                at: *at,
                removed,
            });
            conflict::return_stranded_leaders(state, events);
        }
        Action::Swap { tiles } => {
            check_swap(state, seat, tiles)?;
            state.actions_left = state.actions_left.saturating_sub(1);
            let player = &mut state.players[seat];
            player.hand.take(tiles);
            player.discarded.add(tiles);
            events.push(Event::Swapped {
                seat,
                count: tiles.total(),
                discarded: Some(tiles.to_kinds()),
            });
            let drawn = state.draw(seat, tiles.total());
            events.push(Event::Drew {
                seat,
                count: drawn.len() as u32,
                kinds: Some(drawn),
            });
        }
        Action::ChooseConflict { .. } | Action::Commit { .. } | Action::TakeArtifact { .. } => {
            return Err(TaeError::WrongPhase("the active player's action"));
        }
    }
    if !matches!(action, Action::Pass) {
        // An order was given: somebody is still playing.
        state.passing_turns = 0;
    }
    Ok(())
}

fn place_leader(
    state: &mut State,
    seat: Seat,
    plan: LeaderPlan,
    events: &mut impl EventSink<Event>,
) {
    let LeaderPlan { kind, from, to } = plan;
    if let Some(from) = from {
        state.board.remove_leader(from);
    }
    state.board.put_leader(to, Leader { owner: seat, kind });
    events.push(Event::LeaderPlaced {
        seat,
        kind,
        at: state.board.pos(to),
        from: from.map(|f| state.board.pos(f)),
    });
    // A leader joins at most one region, which held at most one leader of its kind.
    let board = &state.board;
    let rival = board.region(to).and_then(|region| {
        board
            .leaders()
            .find(|&(cell, l)| l.kind == kind && cell != to && board.region(cell) == Some(region))
    });
    if let Some((_, rival)) = rival {
        conflict::open_internal(state, seat, rival.owner, kind, events);
    }
}

fn colonize(
    state: &mut State,
    seat: Seat,
    kind: Kind,
    to: usize,
    effect: ColonizeEffect,
    events: &mut impl EventSink<Event>,
) {
    *state.players[seat].hand.get_mut(kind) -= 1;
    state.board.put_colony(to, kind);
    events.push(Event::Colonized {
        seat,
        kind,
        at: state.board.pos(to),
    });
    match effect {
        ColonizeEffect::Alone => {}
        ColonizeEffect::Joins => {
            let Some(region) = state.board.region(to) else {
                return;
            };
            let collector = state
                .board
                .region_leader(region, kind)
                .or_else(|| state.board.region_leader(region, Kind::Settler));
            if let Some((_, leader)) = collector {
                *state.players[leader.owner].resources.get_mut(kind) += 1;
                events.push(Event::Gained {
                    seat: leader.owner,
                    kind,
                    amount: 1,
                });
            }
        }
        ColonizeEffect::Unites { wars } => {
            if !wars.is_empty() {
                state.phase = Phase::Conflicts(Conflicts {
                    join: Some(to),
                    pending: wars,
                    battle: None,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attacker_is_active_or_next_in_seat_order() {
        assert_eq!(attacker_of(1, 4, 3, 1), (1, 3));
        assert_eq!(attacker_of(1, 4, 0, 3), (3, 0));
        assert_eq!(attacker_of(3, 4, 2, 0), (0, 2));
    }
}

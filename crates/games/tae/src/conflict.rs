//! Conflicts: internal (a leader enters a region holding a same-kind leader) and
//! external (a colony joins regions holding same-kind leaders).
//!
//! A conflict is two prompts: the attacker commits, then the defender, who sees the
//! attacker's total. A tie goes to the defender. External conflicts are fought one at a
//! time in the active player's chosen order; before each, conflicts whose leaders no
//! longer share a region lapse. A leader's "pre-join region" is its connected component
//! with the joining colony treated as empty, computed when needed, so it reflects the
//! removals of the conflicts fought before it.

use arbiter_engine::{EventSink, Seat};

use crate::board::Board;
use crate::error::TaeError;
use crate::events::{Event, ReturnReason};
use crate::kind::Kind;
use crate::state::{Battle, Conflicts, Phase, State, War};

/// Open an internal conflict: `attacker`'s `kind` leader just entered the region of
/// `defender`'s. Strength = scientist colonies adjacent to each leader.
pub(crate) fn open_internal(
    state: &mut State,
    attacker: Seat,
    defender: Seat,
    kind: Kind,
    events: &mut impl EventSink<Event>,
) {
    let strength = |seat: Seat| {
        state
            .board
            .find_leader(seat, kind)
            .map_or(0, |cell| state.board.adjacent_scientists(cell))
    };
    let battle = Battle {
        kind,
        internal: true,
        attacker,
        defender,
        attacker_base: strength(attacker),
        defender_base: strength(defender),
        attacker_commit: None,
    };
    events.push(started(&battle));
    state.phase = Phase::Conflicts(Conflicts {
        join: None,
        pending: Vec::new(),
        battle: Some(battle),
    });
}

fn started(battle: &Battle) -> Event {
    Event::ConflictStarted {
        kind: battle.kind,
        internal: battle.internal,
        attacker: battle.attacker,
        defender: battle.defender,
        attacker_base: battle.attacker_base,
        defender_base: battle.defender_base,
    }
}

/// Colonies of `kind` in the pre-join region of `seat`'s `kind` leader.
fn external_strength(board: &Board, seat: Seat, kind: Kind, join: Option<usize>) -> u32 {
    board.find_leader(seat, kind).map_or(0, |cell| {
        board
            .component_without(cell, join)
            .into_iter()
            .filter(|&c| board.cell(c).colony == Some(kind))
            .count() as u32
    })
}

/// Whether a pending external conflict still stands: both leaders on the board, in one
/// region.
pub(crate) fn war_is_live(board: &Board, war: &War) -> bool {
    let a = board.find_leader(war.attacker, war.kind);
    let b = board.find_leader(war.defender, war.kind);
    match (a, b) {
        (Some(a), Some(b)) => board.region(a).is_some() && board.region(a) == board.region(b),
        _ => false,
    }
}

/// Start fighting `war` (taken from the pending list).
pub(crate) fn start_war(state: &mut State, war: War, events: &mut impl EventSink<Event>) {
    let Phase::Conflicts(conflicts) = &state.phase else {
        return;
    };
    let join = conflicts.join;
    let battle = Battle {
        kind: war.kind,
        internal: false,
        attacker: war.attacker,
        defender: war.defender,
        attacker_base: external_strength(&state.board, war.attacker, war.kind, join),
        defender_base: external_strength(&state.board, war.defender, war.kind, join),
        attacker_commit: None,
    };
    events.push(started(&battle));
    if let Phase::Conflicts(conflicts) = &mut state.phase {
        conflicts.battle = Some(battle);
    }
}

/// The active player picks which pending conflict to fight next.
pub(crate) fn choose(
    state: &mut State,
    kind: Kind,
    events: &mut impl EventSink<Event>,
) -> Result<(), TaeError> {
    let Phase::Conflicts(conflicts) = &mut state.phase else {
        return Err(TaeError::WrongPhase("not choosing a conflict"));
    };
    if conflicts.battle.is_some() {
        return Err(TaeError::WrongPhase("a conflict is being fought; commit"));
    }
    let index = conflicts
        .pending
        .iter()
        .position(|w| w.kind == kind)
        .ok_or(TaeError::NoSuchConflict(kind))?;
    let war = conflicts.pending.remove(index);
    events.push(Event::ConflictChosen { kind });
    start_war(state, war, events);
    Ok(())
}

/// `seat` commits `count` colonists to the current battle; the defender's commitment
/// resolves it.
pub(crate) fn commit(
    state: &mut State,
    seat: Seat,
    count: u32,
    events: &mut impl EventSink<Event>,
) -> Result<(), TaeError> {
    let Phase::Conflicts(Conflicts {
        join,
        battle: Some(battle),
        ..
    }) = &mut state.phase
    else {
        return Err(TaeError::WrongPhase("no conflict is being fought"));
    };
    let join = *join;
    if battle.to_commit() != seat {
        return Err(TaeError::NotYourTurn(seat));
    }
    let support = battle.support_kind();
    let held = state.players.get(seat).map_or(0, |p| p.hand.get(support));
    if count > held {
        return Err(TaeError::CommitTooMany {
            kind: support,
            max: held,
            asked: count,
        });
    }
    *state.players[seat].hand.get_mut(support) -= count;
    let battle_kind = battle.kind;
    if battle.attacker_commit.is_none() {
        battle.attacker_commit = Some(count);
        events.push(Event::Committed {
            seat,
            kind: support,
            count,
            total: battle.attacker_base + count,
        });
        return Ok(());
    }
    let attacker_total = battle.attacker_total().unwrap_or(battle.attacker_base);
    let defender_total = battle.defender_base + count;
    events.push(Event::Committed {
        seat,
        kind: support,
        count,
        total: defender_total,
    });
    let finished = battle.clone();
    if let Phase::Conflicts(c) = &mut state.phase {
        c.battle = None;
    }
    // Higher total wins; a tie goes to the defender.
    let (winner, loser) = if attacker_total > defender_total {
        (finished.attacker, finished.defender)
    } else {
        (finished.defender, finished.attacker)
    };
    let removed = if finished.internal {
        resolve_internal(state, winner, loser, battle_kind, events)
    } else {
        resolve_external(state, winner, loser, battle_kind, join, events)
    };
    events.push(Event::ConflictResolved {
        kind: battle_kind,
        internal: finished.internal,
        winner,
        loser,
        attacker_total,
        defender_total,
        removed: removed.iter().map(|&c| state.board.pos(c)).collect(),
    });
    return_stranded_leaders(state, events);
    Ok(())
}

/// Internal: the loser's leader returns to hand; the winner gains 1 Technology.
fn resolve_internal(
    state: &mut State,
    winner: Seat,
    loser: Seat,
    kind: Kind,
    events: &mut impl EventSink<Event>,
) -> Vec<usize> {
    return_leader(state, loser, kind, ReturnReason::LostConflict, events);
    gain(state, winner, Kind::Scientist, 1, events);
    Vec::new()
}

/// External: the loser's leader returns to hand and every colony of the conflict's kind
/// in the loser's pre-join region is removed, except, in a scientist conflict, scientist
/// colonies holding an artifact or adjacent to another leader. The winner gains one of
/// the conflict's resource per removed colony, plus one for the leader.
fn resolve_external(
    state: &mut State,
    winner: Seat,
    loser: Seat,
    kind: Kind,
    join: Option<usize>,
    events: &mut impl EventSink<Event>,
) -> Vec<usize> {
    let board = &state.board;
    let Some(loser_cell) = board.find_leader(loser, kind) else {
        return Vec::new();
    };
    let removed: Vec<usize> = board
        .component_without(loser_cell, join)
        .into_iter()
        .filter(|&c| {
            let cell = board.cell(c);
            if cell.colony != Some(kind) {
                return false;
            }
            if kind != Kind::Scientist {
                return true;
            }
            let supports_other_leader = board
                .neighbors(c)
                .into_iter()
                .any(|n| n != loser_cell && board.cell(n).leader.is_some());
            !cell.artifact && !supports_other_leader
        })
        .collect();
    return_leader(state, loser, kind, ReturnReason::LostConflict, events);
    state.board.remove_colonies(&removed);
    gain(state, winner, kind, removed.len() as u32 + 1, events);
    removed
}

fn gain(
    state: &mut State,
    seat: Seat,
    kind: Kind,
    amount: u32,
    events: &mut impl EventSink<Event>,
) {
    if let Some(player) = state.players.get_mut(seat) {
        *player.resources.get_mut(kind) += amount;
        events.push(Event::Gained { seat, kind, amount });
    }
}

fn return_leader(
    state: &mut State,
    seat: Seat,
    kind: Kind,
    reason: ReturnReason,
    events: &mut impl EventSink<Event>,
) {
    if let Some(cell) = state.board.find_leader(seat, kind) {
        state.board.remove_leader(cell);
        events.push(Event::LeaderReturned {
            seat,
            kind,
            from: state.board.pos(cell),
            reason,
        });
    }
}

/// After a removal: every leader with no adjacent scientist colony returns to its
/// owner's hand (removing leaders never removes colonies, so one pass suffices).
pub(crate) fn return_stranded_leaders(state: &mut State, events: &mut impl EventSink<Event>) {
    let stranded: Vec<(usize, Seat, Kind)> = state
        .board
        .leaders()
        .filter(|&(cell, _)| state.board.adjacent_scientists(cell) == 0)
        .map(|(cell, l)| (cell, l.owner, l.kind))
        .collect();
    for (_, seat, kind) in stranded {
        return_leader(state, seat, kind, ReturnReason::NoScientist, events);
    }
}
